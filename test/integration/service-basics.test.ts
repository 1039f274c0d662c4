import { describe, expect, it } from "vitest";
import { buildCreateCustomer, buildPiece, buildQuoteShipment } from "../factories/shipping-api";
import { failed, ok } from "../support/service-harness";
import { shipment, openBatch, domesticBooking, startServiceWithCustomers } from "./service-endpoints";

// The service as any client meets it: health, unknown routes and methods, authentication, one customer's data
// closed to another, and malformed requests refused with the error body.
const { service, alice, bob } = await startServiceWithCustomers();

describe("service basics", () => {
  it("GIVEN the service is up WHEN GET /healthz THEN 200", async () => {
    expect(await service.fetch("/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("GIVEN an unknown route THEN 404 with the error body", async () => {
    const response = await service.fetch("/restapi/v1/nothing-here");
    expect(response).toMatchObject({ status: 404, body: { errorCategory: "NOT_FOUND" } });
    expect(typeof (response.body as { error: unknown }).error).toBe("string");
  });

  it("GIVEN a known path with the wrong method THEN 405 naming the allowed methods", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch-quote`, { method: "GET", authorization: alice.authorization });
    expect(response).toMatchObject({ status: 405, body: { errorCategory: "METHOD_NOT_ALLOWED" } });
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("authentication and isolation", () => {
  it("GIVEN no credentials THEN 401 with a JSON error body", async () => {
    const response = await service.fetch(`/restapi/v1/customers/${alice.customerId}/services`);
    expect(response).toMatchObject({ status: 401, body: { errorCategory: "UNAUTHORIZED" } });
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("GIVEN a wrong password THEN 401", async () => {
    const client = service.clientFor({ customerId: alice.customerId, email: alice.email, password: "wrong" });
    expect(failed(await client.listServices()).kind).toBe("unauthorized");
  });

  it("GIVEN a malformed Authorization header THEN 401, not 500", async () => {
    for (const authorization of ["Basic !!!", "Basic " + Buffer.from("no-colon").toString("base64"), "Bearer x"]) {
      expect((await service.fetch(`/restapi/v1/customers/${alice.customerId}/services`, { authorization })).status).toBe(401);
    }
  });

  it("GIVEN Alice's credentials on Bob's path THEN 403", async () => {
    const client = service.clientFor({ customerId: bob.customerId, email: alice.email, password: alice.password });
    expect(failed(await client.listBatches()).kind).toBe("forbidden");
  });

  it("GIVEN no or a wrong partner key THEN Create Customer is 401", async () => {
    expect(
      (
        await service.fetch("/restapi/v1/customers", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(buildCreateCustomer()),
        })
      ).status,
    ).toBe(401);
    const response = await service.fetch("/restapi/v1/customers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(buildCreateCustomer()),
      authorization: "Bearer not-the-key",
    });
    expect(response).toMatchObject({ status: 401, body: { errorCategory: "UNAUTHORIZED" } });
  });

  it("GIVEN Alice's batch, quotes and shipments THEN Bob can see or touch none of them", async () => {
    const { batchId, quoteIds: ids } = await openBatch(alice, 2);
    expect(failed(await bob.client.getBatch({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.cancelBatch({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.deleteBatch({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.getBatchLabels({ batchId })).kind).toBe("forbidden");
    expect(failed(await bob.client.batchBook({ body: { batchId } })).kind).toBe("forbidden");
    // Add to / Remove from Batch list only 404 for the batch: another customer's batch is not found.
    expect(failed(await bob.client.addToBatch({ batchId, body: { quoteIds: ids } })).kind).toBe("not_found");
    const bobsBatch = ok(await bob.client.createBatch({ body: { name: "bob" } }));
    const stolen = failed(await bob.client.addToBatch({ batchId: bobsBatch.batchId, body: { quoteIds: [ids[0]!] } }));
    expect(stolen.kind).toBe("forbidden");
    expect(failed(await bob.client.createBatch({ body: { name: "bob2", quoteIds: [ids[1]!] } })).kind).toBe("forbidden");
    expect(failed(await bob.client.removeFromBatch({ batchId: bobsBatch.batchId, quoteId: ids[0]! })).kind).toBe("not_found");

    const booked = ok(await alice.client.bookShipment({ body: domesticBooking() }));
    expect(ok(await bob.client.searchShipments({ body: { keyword: booked.trackingNumber } })).shipments).toEqual([]);
    expect(failed(await bob.client.trackShipment({ bookNumber: booked.bookNumber })).kind).toBe("not_found");
    const aliceAccounts = ok(await alice.client.listProviderAccounts()).providerAccounts.map((account) => account.id);
    const bobAccounts = ok(await bob.client.listProviderAccounts()).providerAccounts.map((account) => account.id);
    expect(aliceAccounts.some((id) => bobAccounts.includes(id))).toBe(false);
    // Bob cannot quote through Alice's provider account.
    const quoted = ok(await bob.client.batchQuote({ body: { shipments: [shipment({ serviceCode: undefined, providerAccountId: aliceAccounts[0]! })] } }));
    expect(quoted.results[0]).toMatchObject({ status: "error", errorCategory: "INVALID_REQUEST" });
  });
});

describe("bad input", () => {
  const post = (path: string, body: string, contentType = "application/json") =>
    service.fetch(`/restapi/v1/customers/${alice.customerId}${path}`, {
      method: "POST",
      headers: { "content-type": contentType },
      body,
      authorization: alice.authorization,
    });

  it("GIVEN malformed JSON THEN 400", async () => {
    expect(await post("/batch-quote", '{"shipments": [')).toMatchObject({
      status: 400,
      body: { errorCategory: "INVALID_REQUEST", error: expect.stringMatching(/not valid JSON/) },
    });
  });

  // A shipment that breaks the contract is its own error entry (rule 1): service-hostile-input.test.ts.
  it("GIVEN shipments of the wrong type THEN 400 naming the field", async () => {
    const response = await post("/batch-quote", JSON.stringify({ shipments: "many" }));
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toMatch(/shipments/);
  });

  it("GIVEN absurd numbers (a 10^11 in side, a 10^300 insured value) THEN the shipment is refused, never a 500", async () => {
    const { status, body } = await post(
      "/batch-quote",
      JSON.stringify({
        shipments: [
          buildQuoteShipment({ pieces: [buildPiece({ length: "99999999999" })] }),
          buildQuoteShipment({ pieces: [buildPiece({ insuranceAmount: 1e300 })] }),
        ],
      }),
    );
    expect(status).toBe(200);
    expect((body as { results: { status: string; errorCategory: string }[] }).results.map((result) => [result.status, result.errorCategory])).toEqual([
      ["error", "INVALID_REQUEST"],
      ["error", "INVALID_REQUEST"],
    ]);
  });

  it("GIVEN a body over the limit THEN 413", async () => {
    const response = await post("/batch-quote", JSON.stringify({ shipments: [], padding: "x".repeat(11 * 1024 * 1024) }));
    expect(response).toMatchObject({ status: 413, body: { errorCategory: "PAYLOAD_TOO_LARGE" } });
  });

  it("GIVEN a non-JSON content type THEN 415 with the error body", async () => {
    expect(await post("/batch-quote", "shipments=1", "application/x-www-form-urlencoded")).toMatchObject({
      status: 415,
      body: { errorCategory: "INVALID_REQUEST" },
    });
  });

  it("GIVEN a missing body where one is required THEN 400", async () => {
    expect((await service.fetch(`/restapi/v1/customers/${alice.customerId}/batch-book`, { method: "POST", authorization: alice.authorization })).status).toBe(
      400,
    );
  });
});
