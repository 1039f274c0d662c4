import { describe, expect, it } from "vitest";
import { issuePaths } from "../../test/support/contract-rows";
import { buildPath, endpointList, endpoints } from "../contract";

describe("Shipping API contract: endpoint table", () => {
  it("GIVEN the table WHEN listed THEN it has the spec's 16 endpoints plus Get Shipment Label, each keyed by its name", () => {
    expect(endpointList).toHaveLength(17);
    for (const [key, endpoint] of Object.entries(endpoints)) expect(endpoint.name).toBe(key);
  });

  it.each(endpointList.map((endpoint) => [endpoint.name, endpoint] as const))(
    "GIVEN %s WHEN its path is read THEN its :segments are exactly the keys of its params schema",
    (_name, endpoint) => {
      const segments = [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
      expect(segments.sort()).toEqual(Object.keys(endpoint.params.shape).sort());
    },
  );

  it("GIVEN the table WHEN auth and bodies are read THEN only createCustomer is partner-authenticated and GET/DELETE carry no body", () => {
    expect(endpointList.filter((e) => e.auth === "partner").map((e) => e.name)).toEqual(["createCustomer"]);
    expect(endpointList.filter((e) => e.method !== "POST" && e.body !== null)).toEqual([]);
    expect(endpointList.filter((e) => e.query !== null).map((e) => e.name)).toEqual(["listBatches"]);
  });

  it.each<[unknown, boolean]>([
    ["42", true],
    [42, true],
    ["0", false],
    ["-1", false],
    ["1.5", false],
    ["0x10", false],
    ["abc", false],
    ["", false],
  ])("GIVEN batchId %j WHEN the getBatch params are parsed THEN success is %s", (batchId, ok) => {
    const result = endpoints.getBatch.params.safeParse({ customerId: "cus_1", batchId });
    expect(result.success).toBe(ok);
    if (!result.success) expect(issuePaths(endpoints.getBatch.params, { customerId: "cus_1", batchId })).toContain("batchId");
    else expect(result.data.batchId).toBe(42);
  });

  it("GIVEN an empty book number WHEN the trackShipment params are parsed THEN bookNumber is named", () => {
    expect(issuePaths(endpoints.trackShipment.params, { customerId: "cus_1", bookNumber: "" })).toEqual(["bookNumber"]);
  });

  it("GIVEN params with reserved characters WHEN a path is built THEN each segment is URL-encoded", () => {
    expect(buildPath(endpoints.trackShipment.path, { customerId: "cus 1", bookNumber: "BK/1?x" })).toBe(
      "/restapi/v1/customers/cus%201/shipments/BK%2F1%3Fx/tracking-information",
    );
    expect(() => buildPath(endpoints.getBatch.path, { customerId: "c" })).toThrow(/batchId/);
  });
});
