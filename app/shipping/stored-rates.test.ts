import { describe, expect, it } from "vitest";
import type { Quote } from "../../shipping-api/contract";
import { bookableQuotes, bookedRates, pickedQuote, QUOTE_VALIDITY_MS, ratesColumn, storedQuote, storedQuotes } from "./stored-rates";

const quote = (quoteId: number, totalAmount: string): Quote => ({
  quoteId,
  carrierCode: "MRX",
  serviceCode: "MRX_GROUND",
  serviceDescription: "Ground",
  packageTypeCode: "BOX",
  currency: "USD",
  totalAmount,
  baseAmount: totalAmount,
  zone: "5",
  quotedWeight: "2",
  quotedWeightType: "Actual",
  surcharges: [{ description: "Fuel “surcharge”", amount: "0.10" }],
});
const quotedAt = new Date("2026-11-01T12:00:00Z");
const shipment = { rates: ratesColumn([quote(7, "9.00"), quote(3, "5.00")]), quotedAt, selectedQuoteId: 3 };

describe("a shipment's stored rates", () => {
  it("GIVEN rates written THEN they read back as the service answered, in its order, each quoted at quotedAt and bookable 30 days", () => {
    const expiresAt = new Date(quotedAt.getTime() + QUOTE_VALIDITY_MS);
    expect(storedQuotes(shipment)).toEqual([
      { ...quote(7, "9.00"), quotedAt, expiresAt },
      { ...quote(3, "5.00"), quotedAt, expiresAt },
    ]);
  });

  it("GIVEN a shipment not quoted, or being quoted again THEN it has no rates and no pick", () => {
    expect(storedQuotes({ rates: null, quotedAt: null })).toEqual([]);
    expect(storedQuotes({ rates: null, quotedAt })).toEqual([]);
    expect(pickedQuote({ rates: null, quotedAt: null, selectedQuoteId: 3 })).toBeUndefined();
  });

  it("GIVEN a pick THEN it is found by quote id among the shipment's own rates only", () => {
    expect(pickedQuote(shipment)?.totalAmount).toBe("5.00");
    expect(storedQuote(shipment, 7)?.quoteId).toBe(7);
    expect(storedQuote(shipment, 8)).toBeUndefined();
    expect(storedQuote(shipment, null)).toBeUndefined();
  });

  it("GIVEN the moment of expiry THEN a rate is bookable until just before it, and not at it", () => {
    const expiry = quotedAt.getTime() + QUOTE_VALIDITY_MS;
    expect(bookableQuotes(shipment, new Date(expiry - 1)).map((rate) => rate.quoteId)).toEqual([7, 3]);
    expect(bookableQuotes(shipment, new Date(expiry))).toEqual([]);
  });
});

describe("a booked shipment's rates", () => {
  it("GIVEN the rate it was booked at THEN it is its only stored rate, written as the service's Quote", () => {
    const booked = { rates: bookedRates(storedQuotes(shipment)[1]!), quotedAt, selectedQuoteId: 3 };
    expect(JSON.parse(booked.rates)).toEqual([quote(3, "5.00")]);
    expect(pickedQuote(booked)?.quoteId).toBe(3);
  });
});
