import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SHOPIFY_TRACKING_COMPANIES, shopifyTrackingCompany } from "./tracking-companies";
import { fulfillmentTracking, shipmentIdOfTrackingToken, trackingToken } from "./tracking-info";

/** The "any country" list in the schema's own description of FulfillmentTrackingInfo.company. */
function companiesInSchema(): string[] {
  const file = join(import.meta.dirname, "..", "types", "admin-2026-10.schema.json");
  const schema = JSON.parse(readFileSync(file, "utf8")) as {
    data: { __schema: { types: Array<{ name: string; fields?: Array<{ name: string; description: string | null }> | null }> } };
  };
  const type = schema.data.__schema.types.find((candidate) => candidate.name === "FulfillmentTrackingInfo");
  const description = type?.fields?.find((field) => field.name === "company")?.description ?? "";
  const section = description.split("display for shops located in any country:")[1]?.split("The following tracking companies are displayed")[0] ?? "";
  return [...section.matchAll(/^\s*\* (.+)$/gm)].map((match) => match[1]!.trim());
}

describe("Shopify's tracking companies", () => {
  it("GIVEN the Admin schema 2026-10 THEN the app's list is exactly the any-country list it documents", () => {
    const documented = companiesInSchema();
    expect(documented.length).toBeGreaterThan(100);
    expect([...SHOPIFY_TRACKING_COMPANIES]).toEqual(documented);
  });

  it.each([
    ["ups", "UPS"],
    [" DHL Express ", "DHL Express"],
    ["Royal mail", "Royal Mail"],
    ["National Postal Service", null],
    ["NPS", null],
  ])("GIVEN the carrier name %j THEN Shopify knows it as %j", (name, expected) => {
    expect(shopifyTrackingCompany(name)).toBe(expected);
  });
});

describe("fulfillmentTracking", () => {
  const page = "https://consign.example/tracking/abc.def";

  it("GIVEN a carrier Shopify does not know THEN its label is the company and the link is the app's tracking page", () => {
    expect(
      fulfillmentTracking({ carrierCode: "NPS", carrierLabel: "National Postal Service", trackingNumbers: ["9400100000000000000001"], trackingPageUrl: page }),
    ).toEqual({
      company: "National Postal Service",
      number: "9400100000000000000001",
      url: page,
    });
  });

  it("GIVEN a carrier Shopify knows (by label or by code) THEN Shopify's spelling is sent and Shopify builds the link", () => {
    expect(fulfillmentTracking({ carrierCode: "UPSX", carrierLabel: "ups", trackingNumbers: ["1Z999"], trackingPageUrl: page })).toEqual({
      company: "UPS",
      number: "1Z999",
    });
    expect(fulfillmentTracking({ carrierCode: "FEDEX", carrierLabel: undefined, trackingNumbers: ["7700"], trackingPageUrl: page })).toEqual({
      company: "FedEx",
      number: "7700",
    });
  });

  it("GIVEN the carrier label could not be read THEN the carrier code names the company", () => {
    expect(fulfillmentTracking({ carrierCode: "MRX", carrierLabel: undefined, trackingNumbers: ["MRX1"], trackingPageUrl: page })).toEqual({
      company: "MRX",
      number: "MRX1",
      url: page,
    });
  });
});

describe("fulfillmentTracking of a shipment of several boxes", () => {
  const page = "https://consign.example/tracking/abc.def";
  const numbers = ["9400100000000000000001", "9400100000000000000018"] as const;

  it("GIVEN two numbers of a carrier Shopify does not know THEN both go as numbers, each paired with the app's tracking page", () => {
    expect(fulfillmentTracking({ carrierCode: "NPS", carrierLabel: "National Postal Service", trackingNumbers: numbers, trackingPageUrl: page })).toEqual({
      company: "National Postal Service",
      numbers: [...numbers],
      urls: [page, page],
    });
  });

  it("GIVEN two numbers of a carrier Shopify knows THEN both go as numbers and Shopify builds their links", () => {
    expect(fulfillmentTracking({ carrierCode: "UPS", carrierLabel: "ups", trackingNumbers: ["1Z1", "1Z2"], trackingPageUrl: page })).toEqual({
      company: "UPS",
      numbers: ["1Z1", "1Z2"],
    });
  });
});

describe("tracking page tokens", () => {
  const key = Buffer.alloc(32, 7);
  const otherKey = Buffer.alloc(32, 8);

  it("GIVEN a token the app issued THEN it names its shipment", () => {
    const token = trackingToken(key, "cm3shipment0001");
    expect(token).toMatch(/^cm3shipment0001\.[A-Za-z0-9_-]{22}$/);
    expect(shipmentIdOfTrackingToken(key, token)).toBe("cm3shipment0001");
  });

  it.each([
    ["another key's token", trackingToken(otherKey, "cm3shipment0001")],
    ["a token moved to another shipment", `cm3shipment0002.${trackingToken(key, "cm3shipment0001").split(".")[1]}`],
    ["a shortened tag", trackingToken(key, "cm3shipment0001").slice(0, -1)],
    ["no tag", "cm3shipment0001"],
    ["path tricks", "../../etc.passwd"],
  ])("GIVEN %s THEN it names no shipment", (_case, token) => {
    expect(shipmentIdOfTrackingToken(key, token)).toBeNull();
  });
});
