import { describe, expect, it } from "vitest";
import { checkBatchable, type BatchGuard, type ShipmentForBatch } from "./eligibility";

const now = new Date("2026-11-23T15:00:00Z");
const later = new Date("2026-12-20T15:00:00Z");

function shipment(overrides: Partial<ShipmentForBatch> = {}): ShipmentForBatch {
  return {
    id: "s1",
    orderName: "#1001",
    fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1",
    quoteStatus: "QUOTED",
    selectedQuoteId: 42,
    selectedQuoteExpiresAt: later,
    ...overrides,
  };
}

function guard(overrides: Partial<BatchGuard> = {}): BatchGuard {
  return { now, timeZone: "America/New_York", labelled: new Map(), batched: new Map(), ...overrides };
}

const FO = "gid://shopify/FulfillmentOrder/1";

describe("checkBatchable", () => {
  it("GIVEN a quoted shipment with a live picked rate THEN it is accepted", () => {
    expect(checkBatchable([shipment()], guard())).toEqual({ accepted: [shipment()], refused: [] });
  });

  it.each<[string, Partial<ShipmentForBatch>, Partial<BatchGuard>, RegExp]>([
    [
      "its fulfillment order has a label",
      {},
      { labelled: new Map([[FO, { bookingStatus: "BOOKED", trackingNumber: "1Z999" }]]) },
      /Already has a label \(tracking 1Z999\)/,
    ],
    ["a booking of it is unconfirmed", {}, { labelled: new Map([[FO, { bookingStatus: "BOOKING", trackingNumber: null }]]) }, /still being confirmed/],
    ["it is in an open batch", {}, { batched: new Map([[FO, { batchId: "b1", batchName: "Monday", cancelled: false }]]) }, /Already in batch “Monday”/],
    [
      "it is in a cancelled batch",
      {},
      { batched: new Map([[FO, { batchId: "b1", batchName: "Monday", cancelled: true }]]) },
      /In cancelled batch “Monday”, which still holds its rate\. Delete that batch first\./,
    ],
    ["no rate is picked", { selectedQuoteId: null }, {}, /No rate is picked/],
    ["quoting failed", { quoteStatus: "FAILED" }, {}, /No rate is picked/],
    ["the quote row is gone", { selectedQuoteExpiresAt: null }, {}, /no longer on record/],
    ["its rate expired", { selectedQuoteExpiresAt: now }, {}, /expired on Nov 23, 2026, 10:00 AM\. Get rates/],
  ])("GIVEN %s THEN it is refused with what to do", (_case, overrides, guardOverrides, reason) => {
    const result = checkBatchable([shipment(overrides)], guard(guardOverrides));
    expect(result.accepted).toEqual([]);
    expect(result.refused).toEqual([{ shipmentId: "s1", orderName: "#1001", reason: expect.stringMatching(reason) }]);
  });

  it("GIVEN two shipments of one fulfillment order (two rate runs) THEN the first goes in and the second is refused", () => {
    const result = checkBatchable(
      [shipment({ id: "a" }), shipment({ id: "b" }), shipment({ id: "c", fulfillmentOrderId: "gid://shopify/FulfillmentOrder/2" })],
      guard(),
    );
    expect(result.accepted.map((entry) => entry.id)).toEqual(["a", "c"]);
    expect(result.refused).toEqual([{ shipmentId: "b", orderName: "#1001", reason: expect.stringMatching(/Picked twice/) }]);
  });
});
