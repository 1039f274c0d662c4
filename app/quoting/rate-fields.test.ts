import { describe, expect, it } from "vitest";
import { pricedRateOf, rateOf } from "./rate-fields";

const rate = {
  quoteId: 4711,
  carrierCode: "NPS",
  serviceCode: "BLP_GROUND",
  serviceDescription: "Ground",
  packageTypeCode: "PKG",
  currency: "USD",
  totalAmount: "12.40",
};
const pricing = { baseAmount: "10.00", zone: "5", quotedWeight: "2", quotedWeightType: "actual" };

/** A stored rate as app/shipping/stored-rates.ts reads it: the rate, its pricing, its surcharges and its times. */
const storedRow = {
  ...rate,
  ...pricing,
  surcharges: [{ description: "Fuel", amount: "0.40" }],
  quotedAt: new Date("2026-11-20T10:00:00Z"),
  expiresAt: new Date("2026-12-20T10:00:00Z"),
};

describe("a quote's rate fields", () => {
  it("GIVEN a stored rate WHEN its rate is taken THEN only carrier, service and price are kept", () => {
    expect(rateOf(storedRow)).toEqual(rate);
  });

  it("GIVEN a stored rate WHEN its priced rate is taken THEN the pricing comes along and its surcharges and times do not", () => {
    expect(pricedRateOf(storedRow)).toEqual({ ...rate, ...pricing });
  });
});
