/**
 * What to do with one booked shipment, decided from what Shopify says right now (pure; write-back.server.ts
 * reads the state and carries the decision out). The rules, in order:
 * 1. A fulfillment with the shipment's tracking number already exists: link it, never create another
 *    (a crash or a lost answer after fulfillmentCreate lands here).
 * 2. The order is gone or cancelled, or its fulfillment order is on hold, scheduled or run by a fulfillment
 *    service: nothing is created, and the message says what happened and what to do.
 * 3. The fulfillment order still holds the shipment's units: create on it.
 * 4. Otherwise the units moved (a move, split, merge or cancelled fulfillment gives them new fulfillment orders):
 *    follow the same line items to the order's current fulfillment orders, and create there only when exactly
 *    one open fulfillment order holds them all.
 *
 * Reading first is skipped only for a shipment that has never been sent to Shopify and whose fulfillment
 * order the order mirror holds as fulfillable (`writeFirstFromMirror`): nothing of it can exist in Shopify
 * yet, and Shopify refuses a create the mirror was wrong about, after which the rules above decide.
 */

import { formatDateTime } from "../locale/shop-time";

export interface ShipmentLine {
  fulfillmentOrderLineItemId: string;
  quantity: number;
}

export interface QueuedShipment {
  orderName: string;
  fulfillmentOrderId: string;
  lines: ShipmentLine[];
  trackingNumber: string;
}

export interface FulfillmentHold {
  reason: string;
  reasonNotes: string | null;
}

export interface FulfillmentOrderLineState {
  id: string;
  lineItemId: string;
  /** The line item's name ("Stoneware Mug - Midnight"), for messages. */
  name: string;
  remainingQuantity: number;
}

export interface FulfillmentOrderState {
  id: string;
  status: string;
  requestStatus: string;
  fulfillAt: string | null;
  supportedActions: string[];
  holds: FulfillmentHold[];
  locationName: string | null;
  lines: FulfillmentOrderLineState[];
}

export interface ExistingFulfillment {
  id: string;
  status: string;
  trackingNumbers: string[];
}

export interface OrderState {
  name: string;
  cancelledAt: string | null;
  fulfillments: ExistingFulfillment[];
  /** The fulfillments read may not be all of them (the read's limit was reached). */
  fulfillmentsTruncated: boolean;
}

/** Shopify's answer when the shipment's own fulfillment order was read. */
export interface ShipmentState {
  order: OrderState | null;
  fulfillmentOrder: Omit<FulfillmentOrderState, "lines"> | null;
  /** The shipment's fulfillment order line items as they are now, in the shipment's order; null when gone. */
  lines: Array<FulfillmentOrderLineState | null>;
}

export type WriteBackDecision =
  | { kind: "link"; fulfillmentId: string }
  | { kind: "create"; fulfillmentOrderId: string; lines: ShipmentLine[] }
  | { kind: "locate" }
  | { kind: "fail"; message: string };

const FULFILLABLE = new Set(["OPEN", "IN_PROGRESS"]);
/** Fulfillments that no longer stand for shipped goods. */
const VOID_FULFILLMENT = new Set(["CANCELLED", "ERROR", "FAILURE"]);

function isFulfillable(fo: Pick<FulfillmentOrderState, "status" | "requestStatus" | "supportedActions">): boolean {
  return FULFILLABLE.has(fo.status) && fo.requestStatus === "UNSUBMITTED" && fo.supportedActions.includes("CREATE_FULFILLMENT");
}

function holdText(holds: readonly FulfillmentHold[]): string {
  if (holds.length === 0) return "";
  const reasons = holds.map((hold) => {
    const reason = hold.reason.toLowerCase().replaceAll("_", " ");
    return hold.reasonNotes ? `${reason}: “${hold.reasonNotes}”` : reason;
  });
  return ` (${reasons.join("; ")})`;
}

/**
 * What to do with a label that will not be used. The Shipping API has no way to cancel (void) a label, so
 * Consign cannot take one back: the merchant keeps the parcel back and asks the shipping account's support
 * whether the unused label can be refunded.
 */
export function unusedLabelAdvice(tracking: string): string {
  return `keep the parcel back and ask your shipping account's support whether the unused label (${tracking}) can be refunded; Consign cannot cancel a label once it is bought`;
}

/** " until Nov 30, 2026, 7:00 PM" in the shop's time zone, or nothing when Shopify gave no time. */
function untilText(iso: string | null, timeZone: string): string {
  return iso ? ` until ${formatDateTime(iso, timeZone)}` : "";
}

/**
 * Why nothing can be created on a fulfillment order that is not fulfillable, or null when it is. Times are
 * written in `timeZone`, the shop's.
 */
function blockedMessage(shipment: QueuedShipment, fo: Omit<FulfillmentOrderState, "lines">, timeZone: string): string | null {
  const tracking = `tracking ${shipment.trackingNumber}`;
  if (fo.status === "ON_HOLD") {
    return `${shipment.orderName} is on hold in Shopify${holdText(fo.holds)}, so the fulfillment with ${tracking} was not created. Release the hold in Shopify, then choose Retry.`;
  }
  if (fo.status === "SCHEDULED") {
    return `${shipment.orderName} is scheduled in Shopify and cannot be fulfilled${untilText(fo.fulfillAt, timeZone)}, so the fulfillment with ${tracking} was not created. Choose “Fulfill now” on the order in Shopify, then choose Retry.`;
  }
  if (fo.requestStatus !== "UNSUBMITTED" || (FULFILLABLE.has(fo.status) && !fo.supportedActions.includes("CREATE_FULFILLMENT"))) {
    const where = fo.locationName ? ` (${fo.locationName})` : "";
    return `${shipment.orderName} is assigned to a fulfillment service${where}, which creates its own fulfillments, so Consign did not create one with ${tracking}. If that service ships this order, do not use this label: ${unusedLabelAdvice(tracking)}. Otherwise move the order to one of your locations in Shopify and choose Retry.`;
  }
  return null;
}

function existingFulfillment(order: OrderState, trackingNumber: string): ExistingFulfillment | undefined {
  return order.fulfillments.find((fulfillment) => !VOID_FULFILLMENT.has(fulfillment.status) && fulfillment.trackingNumbers.includes(trackingNumber));
}

/** The shipment's fulfillment order as the order mirror holds it (webhooks keep it current). */
export interface MirroredFulfillmentOrderState {
  status: string;
  requestStatus: string;
  supportedActions: string[];
  holds: FulfillmentHold[];
  assignedToFulfillmentService: boolean;
  orderCancelled: boolean;
  lines: Array<{ id: string; remainingQuantity: number }>;
}

/**
 * Whether a shipment that has never been sent to Shopify may be created straight away: the mirror knows its
 * fulfillment order, and holds it open, unheld, the merchant's own, and still holding every unit of the
 * shipment on the same line items. Anything else (not mirrored, on hold, moved, partly fulfilled) reads first.
 */
export function writeFirstFromMirror(shipment: Pick<QueuedShipment, "lines">, mirrored: MirroredFulfillmentOrderState | null): boolean {
  if (!mirrored || mirrored.orderCancelled || mirrored.assignedToFulfillmentService || mirrored.holds.length > 0) return false;
  if (!isFulfillable(mirrored)) return false;
  return shipment.lines.every((line) => mirrored.lines.some((held) => held.id === line.fulfillmentOrderLineItemId && held.remainingQuantity >= line.quantity));
}

/**
 * Rules 1–3, from the shipment's own fulfillment order; "locate" asks for the order's fulfillment orders (rule 4).
 * Messages write times in `timeZone`, the shop's.
 */
export function decideWriteBack(shipment: QueuedShipment, state: ShipmentState, timeZone: string): WriteBackDecision {
  const { order, fulfillmentOrder } = state;
  const tracking = `tracking ${shipment.trackingNumber}`;
  if (!order) {
    return {
      kind: "fail",
      message: `${shipment.orderName} no longer exists in Shopify, so nothing was fulfilled. If the parcel has not shipped, ${unusedLabelAdvice(tracking)}.`,
    };
  }
  const existing = existingFulfillment(order, shipment.trackingNumber);
  if (existing) return { kind: "link", fulfillmentId: existing.id };
  if (order.fulfillmentsTruncated) {
    return {
      kind: "fail",
      message: `${shipment.orderName} has too many recent fulfillments for Consign to check whether ${tracking} is already among them, so it did not create another. Look for ${tracking} on the order in Shopify and add it to the right fulfillment if it is missing.`,
    };
  }
  if (order.cancelledAt) {
    return {
      kind: "fail",
      message: `${shipment.orderName} was cancelled in Shopify after its label was booked, so nothing was fulfilled. If the parcel has not shipped, ${unusedLabelAdvice(tracking)}.`,
    };
  }
  if (fulfillmentOrder) {
    const blocked = blockedMessage(shipment, fulfillmentOrder, timeZone);
    if (blocked) return { kind: "fail", message: blocked };
    const stillHeld = shipment.lines.every((line, index) => {
      const now = state.lines[index];
      return now !== null && now !== undefined && now.id === line.fulfillmentOrderLineItemId && now.remainingQuantity >= line.quantity;
    });
    if (isFulfillable(fulfillmentOrder) && stillHeld) {
      return { kind: "create", fulfillmentOrderId: fulfillmentOrder.id, lines: shipment.lines };
    }
  }
  return { kind: "locate" };
}

/**
 * Rule 4: the shipment's line items (known from its original fulfillment order line items) followed into the
 * order's current fulfillment orders.
 */
export function locateWriteBack(
  shipment: QueuedShipment,
  originalLines: ShipmentState["lines"],
  current: readonly FulfillmentOrderState[],
  timeZone: string,
): Exclude<WriteBackDecision, { kind: "link" } | { kind: "locate" }> {
  const tracking = `tracking ${shipment.trackingNumber}`;
  const needed = shipment.lines.map((line, index) => ({ line, item: originalLines[index] ?? null }));
  if (needed.some(({ item }) => item === null)) {
    return {
      kind: "fail",
      message: `The items of ${shipment.orderName} in this shipment are no longer on their fulfillment order in Shopify, so Consign cannot tell what to fulfill. Fulfill the parcel in Shopify with ${tracking}. If it will not ship, ${unusedLabelAdvice(tracking)}.`,
    };
  }
  const holds = (fo: FulfillmentOrderState) =>
    needed.every(({ line, item }) => fo.lines.some((candidate) => candidate.lineItemId === item!.lineItemId && candidate.remainingQuantity >= line.quantity));
  const matches = current.filter((fo) => isFulfillable(fo) && holds(fo));
  if (matches.length === 1) {
    const target = matches[0]!;
    return {
      kind: "create",
      fulfillmentOrderId: target.id,
      lines: needed.map(({ line, item }) => {
        const moved = target.lines.find((candidate) => candidate.lineItemId === item!.lineItemId && candidate.remainingQuantity >= line.quantity)!;
        return { fulfillmentOrderLineItemId: moved.id, quantity: line.quantity };
      }),
    };
  }
  const names = needed.map(({ line, item }) => `${line.quantity} × ${item!.name}`).join(", ");
  if (matches.length > 1) {
    const places = matches.map((fo) => fo.locationName ?? fo.id).join(" and ");
    return {
      kind: "fail",
      message: `The items of ${shipment.orderName} in this shipment (${names}) are open at more than one place in Shopify (${places}), so Consign cannot tell which to fulfill. Fulfill them in Shopify with ${tracking} from the place the parcel left.`,
    };
  }
  const elsewhere = current.find((fo) => !isFulfillable(fo) && holds(fo) && blockedMessage(shipment, fo, timeZone) !== null);
  if (elsewhere) return { kind: "fail", message: blockedMessage(shipment, elsewhere, timeZone)! };
  const open = (fo: FulfillmentOrderState) => fo.status !== "CLOSED" && fo.status !== "CANCELLED" && fo.status !== "INCOMPLETE";
  const remaining = needed.reduce(
    (sum, { item }) =>
      sum +
      current
        .filter(open)
        .reduce((inner, fo) => inner + fo.lines.filter((l) => l.lineItemId === item!.lineItemId).reduce((n, l) => n + l.remainingQuantity, 0), 0),
    0,
  );
  if (remaining === 0) {
    return {
      kind: "fail",
      message: `The items of ${shipment.orderName} in this shipment (${names}) were already fulfilled in Shopify without ${tracking}, so nothing new was created. If that fulfillment is this parcel, add ${tracking} to it in Shopify; otherwise ${unusedLabelAdvice(tracking)}.`,
    };
  }
  return {
    kind: "fail",
    message: `The items of ${shipment.orderName} in this shipment (${names}) were moved, split or partly fulfilled in Shopify since the label was booked, so Consign cannot fulfill them as one parcel. Fulfill what the parcel holds in Shopify with ${tracking}. If it will not ship, ${unusedLabelAdvice(tracking)}.`,
  };
}
