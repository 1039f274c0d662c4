import { describe, expect, it } from "vitest";
import {
  decideWriteBack,
  locateWriteBack,
  writeFirstFromMirror,
  type FulfillmentOrderState,
  type MirroredFulfillmentOrderState,
  type QueuedShipment,
  type ShipmentState,
} from "./write-back-plan";

/** The shop's time zone: a scheduled time reads in it ("Nov 30, 2026, 7:00 PM" for 2026-12-01T00:00Z), not in UTC. */
const ZONE = "America/New_York";

const FO = "gid://shopify/FulfillmentOrder/1";
const shipment: QueuedShipment = {
  orderName: "#1001",
  fulfillmentOrderId: FO,
  trackingNumber: "NPS100200300",
  lines: [
    { fulfillmentOrderLineItemId: "gid://shopify/FulfillmentOrderLineItem/11", quantity: 2 },
    { fulfillmentOrderLineItemId: "gid://shopify/FulfillmentOrderLineItem/12", quantity: 1 },
  ],
};

const originalLines: ShipmentState["lines"] = [
  { id: "gid://shopify/FulfillmentOrderLineItem/11", lineItemId: "gid://shopify/LineItem/1", name: "Stoneware Mug - Midnight", remainingQuantity: 2 },
  { id: "gid://shopify/FulfillmentOrderLineItem/12", lineItemId: "gid://shopify/LineItem/2", name: "Linen Apron - Sage", remainingQuantity: 1 },
];

function fulfillmentOrder(overrides: Partial<FulfillmentOrderState> = {}): FulfillmentOrderState {
  return {
    id: FO,
    status: "OPEN",
    requestStatus: "UNSUBMITTED",
    fulfillAt: null,
    supportedActions: ["CREATE_FULFILLMENT", "HOLD", "MOVE"],
    holds: [],
    locationName: "Brooklyn Warehouse",
    lines: originalLines.map((line) => ({ ...line! })),
    ...overrides,
  };
}

function state(overrides: Partial<ShipmentState> & { fo?: Partial<FulfillmentOrderState> } = {}): ShipmentState {
  const { fo, ...rest } = overrides;
  const { lines: _lines, ...foState } = fulfillmentOrder(fo);
  return {
    order: { name: "#1001", cancelledAt: null, fulfillments: [], fulfillmentsTruncated: false },
    fulfillmentOrder: foState,
    lines: originalLines,
    ...rest,
  };
}

describe("decideWriteBack", () => {
  it("GIVEN an open fulfillment order that still holds the units THEN the fulfillment is created on it with the shipment's lines", () => {
    expect(decideWriteBack(shipment, state(), ZONE)).toEqual({ kind: "create", fulfillmentOrderId: FO, lines: shipment.lines });
  });

  it("GIVEN a fulfillment with the tracking number already exists THEN it is linked, whatever else changed", () => {
    const order = {
      name: "#1001",
      cancelledAt: null,
      fulfillmentsTruncated: false,
      fulfillments: [
        { id: "gid://shopify/Fulfillment/5", status: "CANCELLED", trackingNumbers: ["NPS100200300"] },
        { id: "gid://shopify/Fulfillment/6", status: "SUCCESS", trackingNumbers: ["OTHER", "NPS100200300"] },
      ],
    };
    expect(decideWriteBack(shipment, state({ order, fo: { status: "CLOSED", supportedActions: [] } }), ZONE)).toEqual({
      kind: "link",
      fulfillmentId: "gid://shopify/Fulfillment/6",
    });
  });

  it("GIVEN only a cancelled fulfillment carries the number THEN it does not count and the fulfillment is created", () => {
    const order = {
      name: "#1001",
      cancelledAt: null,
      fulfillmentsTruncated: false,
      fulfillments: [{ id: "gid://shopify/Fulfillment/5", status: "CANCELLED", trackingNumbers: ["NPS100200300"] }],
    };
    expect(decideWriteBack(shipment, state({ order }), ZONE).kind).toBe("create");
  });

  it.each([
    [
      "the order is gone",
      state({ order: null }),
      /#1001 no longer exists in Shopify.*keep the parcel back and ask your shipping account's support whether the unused label \(tracking NPS100200300\) can be refunded/,
    ],
    [
      "the order was cancelled",
      state({ order: { name: "#1001", cancelledAt: "2026-11-20T10:00:00Z", fulfillments: [], fulfillmentsTruncated: false } }),
      /#1001 was cancelled in Shopify after its label was booked.*If the parcel has not shipped, keep the parcel back.*Consign cannot cancel a label once it is bought\.$/,
    ],
    [
      "the fulfillment order is on hold",
      state({ fo: { status: "ON_HOLD", supportedActions: ["RELEASE_HOLD"], holds: [{ reason: "INCORRECT_ADDRESS", reasonNotes: "Check the zip" }] } }),
      /#1001 is on hold in Shopify \(incorrect address: “Check the zip”\).*Release the hold in Shopify, then choose Retry/,
    ],
    [
      "the fulfillment order is scheduled",
      state({ fo: { status: "SCHEDULED", supportedActions: ["MARK_AS_OPEN"], fulfillAt: "2026-12-01T00:00:00Z" } }),
      /#1001 is scheduled in Shopify and cannot be fulfilled until Nov 30, 2026, 7:00 PM, so .*Fulfill now/,
    ],
    [
      "a fulfillment service runs the fulfillment order",
      state({ fo: { supportedActions: ["REQUEST_FULFILLMENT"], locationName: "ParcelPro Fulfillment" } }),
      /assigned to a fulfillment service \(ParcelPro Fulfillment\).*do not use this label: keep the parcel back.*Otherwise move the order to one of your locations in Shopify and choose Retry\.$/,
    ],
    [
      "too many fulfillments to check",
      state({ order: { name: "#1001", cancelledAt: null, fulfillments: [], fulfillmentsTruncated: true } }),
      /too many recent fulfillments.*tracking NPS100200300/,
    ],
  ])("GIVEN %s THEN nothing is created and the message says what to do", (_case, given, message) => {
    const decision = decideWriteBack(shipment, given, ZONE);
    expect(decision.kind).toBe("fail");
    expect(decision.kind === "fail" && decision.message).toMatch(message);
  });

  it.each([
    ["the fulfillment order closed", state({ fo: { status: "CLOSED", supportedActions: [] } })],
    ["the fulfillment order is gone", state({ fulfillmentOrder: null })],
    ["fewer units remain on it than the shipment holds", state({ lines: [{ ...originalLines[0]!, remainingQuantity: 1 }, originalLines[1]!] })],
    ["a line item is gone from it", state({ lines: [originalLines[0]!, null] })],
  ])("GIVEN %s THEN the units are looked for elsewhere", (_case, given) => {
    expect(decideWriteBack(shipment, given, ZONE)).toEqual({ kind: "locate" });
  });
});

describe("locateWriteBack", () => {
  const moved = (overrides: Partial<FulfillmentOrderState> = {}) =>
    fulfillmentOrder({
      id: "gid://shopify/FulfillmentOrder/2",
      locationName: "Oakland Studio",
      lines: [
        { id: "gid://shopify/FulfillmentOrderLineItem/21", lineItemId: "gid://shopify/LineItem/1", name: "Stoneware Mug - Midnight", remainingQuantity: 2 },
        { id: "gid://shopify/FulfillmentOrderLineItem/22", lineItemId: "gid://shopify/LineItem/2", name: "Linen Apron - Sage", remainingQuantity: 3 },
      ],
      ...overrides,
    });
  const closedOriginal = fulfillmentOrder({ status: "CLOSED", supportedActions: [], lines: originalLines.map((line) => ({ ...line!, remainingQuantity: 0 })) });

  it("GIVEN every unit moved to one open fulfillment order THEN the fulfillment is created there with its line item ids", () => {
    expect(locateWriteBack(shipment, originalLines, [closedOriginal, moved()], ZONE)).toEqual({
      kind: "create",
      fulfillmentOrderId: "gid://shopify/FulfillmentOrder/2",
      lines: [
        { fulfillmentOrderLineItemId: "gid://shopify/FulfillmentOrderLineItem/21", quantity: 2 },
        { fulfillmentOrderLineItemId: "gid://shopify/FulfillmentOrderLineItem/22", quantity: 1 },
      ],
    });
  });

  it("GIVEN the units are open in two places THEN it is ambiguous and nothing is created", () => {
    const decision = locateWriteBack(
      shipment,
      originalLines,
      [moved(), moved({ id: "gid://shopify/FulfillmentOrder/3", locationName: "Brooklyn Warehouse" })],
      ZONE,
    );
    expect(decision).toMatchObject({
      kind: "fail",
      message: expect.stringMatching(/open at more than one place in Shopify \(Oakland Studio and Brooklyn Warehouse\)/),
    });
  });

  it("GIVEN the units moved to a fulfillment order on hold THEN the hold is what the message reports", () => {
    const decision = locateWriteBack(
      shipment,
      originalLines,
      [closedOriginal, moved({ status: "ON_HOLD", supportedActions: ["RELEASE_HOLD"], holds: [{ reason: "HIGH_RISK_OF_FRAUD", reasonNotes: null }] })],
      ZONE,
    );
    expect(decision).toMatchObject({ kind: "fail", message: expect.stringMatching(/#1001 is on hold in Shopify \(high risk of fraud\)/) });
  });

  it("GIVEN nothing of those line items remains anywhere THEN they were fulfilled without this tracking number", () => {
    const decision = locateWriteBack(shipment, originalLines, [closedOriginal], ZONE);
    expect(decision).toMatchObject({
      kind: "fail",
      message: expect.stringMatching(
        /\(2 × Stoneware Mug - Midnight, 1 × Linen Apron - Sage\) were already fulfilled in Shopify without tracking NPS100200300.*add tracking NPS100200300 to it in Shopify; otherwise keep the parcel back/,
      ),
    });
  });

  it("GIVEN the units are split over two fulfillment orders THEN nothing is created and the merchant fulfils by hand", () => {
    const mugs = moved({ lines: [moved().lines[0]!] });
    const aprons = moved({ id: "gid://shopify/FulfillmentOrder/3", lines: [moved().lines[1]!] });
    expect(locateWriteBack(shipment, originalLines, [closedOriginal, mugs, aprons], ZONE)).toMatchObject({
      kind: "fail",
      message: expect.stringMatching(
        /moved, split or partly fulfilled in Shopify.*Fulfill what the parcel holds in Shopify with tracking NPS100200300\. If it will not ship, keep the parcel back/,
      ),
    });
  });

  it("GIVEN the original line items cannot be read THEN nothing is created", () => {
    expect(locateWriteBack(shipment, [originalLines[0]!, null], [moved()], ZONE)).toMatchObject({
      kind: "fail",
      message: expect.stringMatching(
        /cannot tell what to fulfill\. Fulfill the parcel in Shopify with tracking NPS100200300\. If it will not ship, keep the parcel back/,
      ),
    });
  });
});

describe("what a failure tells the merchant to do with the label", () => {
  // The Shipping API cannot cancel (void) a label, so no message may tell the merchant to do it.
  const closed = fulfillmentOrder({ status: "CLOSED", supportedActions: [], lines: originalLines.map((line) => ({ ...line!, remainingQuantity: 0 })) });
  const elsewhere = (id: string, lines: FulfillmentOrderState["lines"]) => fulfillmentOrder({ id, lines });
  const mug = {
    id: "gid://shopify/FulfillmentOrderLineItem/21",
    lineItemId: "gid://shopify/LineItem/1",
    name: "Stoneware Mug - Midnight",
    remainingQuantity: 2,
  };
  const apron = { id: "gid://shopify/FulfillmentOrderLineItem/22", lineItemId: "gid://shopify/LineItem/2", name: "Linen Apron - Sage", remainingQuantity: 3 };
  const decisions = [
    ["the order is gone", decideWriteBack(shipment, state({ order: null }), ZONE)],
    [
      "the order was cancelled",
      decideWriteBack(shipment, state({ order: { name: "#1001", cancelledAt: "2026-11-20T10:00:00Z", fulfillments: [], fulfillmentsTruncated: false } }), ZONE),
    ],
    [
      "a fulfillment service runs it",
      decideWriteBack(shipment, state({ fo: { supportedActions: ["REQUEST_FULFILLMENT"], locationName: "ParcelPro Fulfillment" } }), ZONE),
    ],
    ["its line items cannot be read", locateWriteBack(shipment, [originalLines[0]!, null], [], ZONE)],
    ["it was fulfilled without this tracking number", locateWriteBack(shipment, originalLines, [closed], ZONE)],
    [
      "its units were split",
      locateWriteBack(
        shipment,
        originalLines,
        [closed, elsewhere("gid://shopify/FulfillmentOrder/2", [mug]), elsewhere("gid://shopify/FulfillmentOrder/3", [apron])],
        ZONE,
      ),
    ],
  ] as const;

  it.each(decisions)("GIVEN %s THEN the message never says to void the label, and says what to do instead", (_case, decision) => {
    expect(decision.kind).toBe("fail");
    const message = decision.kind === "fail" ? decision.message : "";
    expect(message).not.toMatch(/\bvoid/i);
    expect(message).toContain("keep the parcel back and ask your shipping account's support whether the unused label (tracking NPS100200300) can be refunded");
  });
});

describe("writeFirstFromMirror", () => {
  function mirrored(overrides: Partial<MirroredFulfillmentOrderState> = {}): MirroredFulfillmentOrderState {
    return {
      status: "OPEN",
      requestStatus: "UNSUBMITTED",
      supportedActions: ["CREATE_FULFILLMENT", "HOLD", "MOVE"],
      holds: [],
      assignedToFulfillmentService: false,
      orderCancelled: false,
      lines: [
        { id: "gid://shopify/FulfillmentOrderLineItem/11", remainingQuantity: 2 },
        { id: "gid://shopify/FulfillmentOrderLineItem/12", remainingQuantity: 3 },
      ],
      ...overrides,
    };
  }

  it("GIVEN the mirror holds the fulfillment order open with every unit of the shipment THEN the create goes first", () => {
    expect(writeFirstFromMirror(shipment, mirrored())).toBe(true);
    expect(writeFirstFromMirror(shipment, mirrored({ status: "IN_PROGRESS" }))).toBe(true);
  });

  it.each([
    ["not mirrored", null],
    ["on hold", mirrored({ status: "ON_HOLD", supportedActions: ["RELEASE_HOLD"], holds: [{ reason: "AWAITING_PAYMENT", reasonNotes: null }] })],
    ["held while still open", mirrored({ holds: [{ reason: "OTHER", reasonNotes: "check" }] })],
    ["scheduled", mirrored({ status: "SCHEDULED", supportedActions: ["MARK_AS_OPEN"] })],
    ["closed", mirrored({ status: "CLOSED", supportedActions: [] })],
    ["cancelled order", mirrored({ orderCancelled: true })],
    ["fulfillment service", mirrored({ assignedToFulfillmentService: true })],
    ["submitted to a service", mirrored({ requestStatus: "SUBMITTED" })],
    ["without CREATE_FULFILLMENT", mirrored({ supportedActions: ["HOLD"] })],
    [
      "fewer units left",
      mirrored({
        lines: [
          { id: "gid://shopify/FulfillmentOrderLineItem/11", remainingQuantity: 1 },
          { id: "gid://shopify/FulfillmentOrderLineItem/12", remainingQuantity: 1 },
        ],
      }),
    ],
    ["a line moved away", mirrored({ lines: [{ id: "gid://shopify/FulfillmentOrderLineItem/11", remainingQuantity: 2 }] })],
  ])("GIVEN the mirror shows the fulfillment order %s THEN Shopify is read first", (_what, state) => {
    expect(writeFirstFromMirror(shipment, state)).toBe(false);
  });
});
