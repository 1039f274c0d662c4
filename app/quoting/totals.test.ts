import { describe, expect, it } from "vitest";
import { carrierTotals } from "./totals";

describe("totals by carrier", () => {
  it("GIVEN picked rates in two currencies WHEN totalled THEN each carrier has its count and an exact sum per currency", () => {
    const totals = carrierTotals([
      { carrierCode: "NPS", currency: "USD", totalAmount: "9.40" },
      { carrierCode: "MRX", currency: "USD", totalAmount: "27.64" },
      { carrierCode: "NPS", currency: "USD", totalAmount: "0.1" },
      { carrierCode: "NPS", currency: "GBP", totalAmount: "31.20" },
      { carrierCode: "NPS", currency: "USD", totalAmount: "0.2" },
    ]);
    expect(totals).toEqual([
      { carrierCode: "MRX", count: 1, amounts: [{ currency: "USD", total: "27.64" }] },
      {
        carrierCode: "NPS",
        count: 4,
        amounts: [
          { currency: "GBP", total: "31.20" },
          { currency: "USD", total: "9.70" },
        ],
      },
    ]);
  });

  it("GIVEN nothing picked THEN there are no totals", () => {
    expect(carrierTotals([])).toEqual([]);
  });
});
