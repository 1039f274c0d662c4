import { describe, expect, it } from "vitest";
import { chargeOf } from "./scan-charge";

describe("what a label cost by its Search Shipments record", () => {
  it.each([
    ["a label charged when booked", { totalShippingCost: "12.40" }, { shippingCost: "12.40", chargedAt: null }],
    [
      "an unscanned scan-based return label",
      { scanBasedReturnLabel: true, chargedAt: null, totalShippingCost: "8.15" },
      { shippingCost: "0.00", chargedAt: null },
    ],
    [
      "a scanned scan-based return label",
      { scanBasedReturnLabel: true, chargedAt: "2026-11-30 14:05:00", totalShippingCost: "8.15" },
      { shippingCost: "8.15", chargedAt: new Date("2026-11-30T14:05:00Z") },
    ],
  ])("GIVEN %s THEN it cost what the record says, when it says", (_name, record, expected) => {
    expect(chargeOf(record)).toEqual(expected);
  });
});
