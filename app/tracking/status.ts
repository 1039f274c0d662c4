import type { EventStatus } from "../../shipping-api/contract";

/**
 * The carrier's nine `eventStatus` values in Shopify's words (docs/decisions/006), and the rule that keeps
 * the fulfillment's status moving forward only. Pure: no I/O, table-tested in status.test.ts.
 */

/** FulfillmentEventStatus values the app sends (the schema's enum; CARRIER_PICKED_UP etc. are never produced). */
export type ShopifyEventStatus = "CONFIRMED" | "IN_TRANSIT" | "OUT_FOR_DELIVERY" | "ATTEMPTED_DELIVERY" | "DELAYED" | "DELIVERED";

/** The one table: carrier status → Shopify event status. */
export const SHOPIFY_STATUS: Readonly<Record<EventStatus, ShopifyEventStatus>> = {
  "Info Received": "CONFIRMED",
  "In Transit": "IN_TRANSIT",
  "Delivered to Broker": "IN_TRANSIT",
  "Out for Delivery": "OUT_FOR_DELIVERY",
  "With Delivery Courier": "OUT_FOR_DELIVERY",
  "Failed Attempt": "ATTEMPTED_DELIVERY",
  "Delivery Arragned": "DELAYED",
  Exception: "DELAYED",
  Delivered: "DELIVERED",
};

/**
 * How far along the parcel is. A status with no stage of its own (DELAYED) takes the stage the parcel had
 * reached, so it can be reported at any point but never moves the parcel back.
 */
const STAGE: Readonly<Record<ShopifyEventStatus, number | null>> = {
  CONFIRMED: 0,
  IN_TRANSIT: 1,
  OUT_FOR_DELIVERY: 2,
  ATTEMPTED_DELIVERY: 2,
  DELAYED: null,
  DELIVERED: 3,
};

/** Statuses that ask the merchant to look (listed under Needs attention). */
export const ATTENTION_CARRIER_STATUSES: readonly EventStatus[] = ["Failed Attempt", "Exception"];

export interface StatusPosition {
  status: ShopifyEventStatus;
  stage: number;
  /** The carrier time of the event that set it. */
  at: Date;
}

export interface CarrierEvent {
  carrierStatus: EventStatus;
  eventTime: Date;
  /**
   * The shipment's status with this event when it is not the event's own (a shipment of several pieces is at its
   * least advanced piece's: `shipmentSteps`); null while some piece has no event yet, so it changes nothing.
   */
  shipmentStatus?: ShopifyEventStatus | null;
}

/** The position a shipment starts from before any event was written (nothing, stage -1). */
export function stageOf(status: ShopifyEventStatus, current: number): number {
  return STAGE[status] ?? current;
}

/**
 * Which of `events` (any order, duplicates allowed) are changes of status after `from`: each a later carrier
 * time than the last change, a different Shopify status, and not an earlier stage; nothing after Delivered.
 * Returns the indices of the events to write, oldest first.
 */
export function statusChanges(from: StatusPosition | null, events: readonly CarrierEvent[]): number[] {
  const order = events.map((_, index) => index).sort((a, b) => events[a]!.eventTime.getTime() - events[b]!.eventTime.getTime() || a - b);
  let position = from;
  const changes: number[] = [];
  for (const index of order) {
    const event = events[index]!;
    if (position?.status === "DELIVERED") break;
    if (event.shipmentStatus === null) continue;
    const status = event.shipmentStatus ?? SHOPIFY_STATUS[event.carrierStatus];
    const current = position?.stage ?? -1;
    const stage = stageOf(status, Math.max(current, 0));
    if (position && event.eventTime.getTime() <= position.at.getTime()) continue;
    if (stage < current || status === position?.status) continue;
    changes.push(index);
    position = { status, stage, at: event.eventTime };
  }
  return changes;
}

/** A carrier event of one piece of a shipment (a shipment has one tracking number per piece, or one for all). */
export interface PieceEvent extends CarrierEvent {
  trackingNumber: string;
}

/** Where a shipment stands after one of its events: its status and the piece event that holds it there. */
export interface ShipmentStep<E extends PieceEvent> {
  event: E;
  /** Null while some piece has no event yet. */
  status: ShopifyEventStatus | null;
  /** The latest event of the piece the shipment's status is: the one that is behind or in trouble. */
  holder: E | null;
}

/** The pieces' numbers: those the shipment expects, then any other its events name. */
export function pieceNumbers(pieces: readonly string[], events: readonly { trackingNumber: string }[]): string[] {
  const numbers = new Set(pieces);
  for (const event of events) numbers.add(event.trackingNumber);
  return [...numbers];
}

/** A piece in trouble speaks for the whole shipment: an exception first, then a failed attempt. */
const TROUBLE: readonly ShopifyEventStatus[] = ["DELAYED", "ATTEMPTED_DELIVERY"];

/**
 * The status of a shipment of several tracked pieces after each of its events (given in any order; the steps come
 * oldest first): the least advanced piece's status, so Delivered only when every piece is delivered, except that
 * an exception (then a failed attempt) on any piece is the shipment's status while it lasts. `pieces` are the
 * numbers expected (a piece that has had no event yet holds the shipment at no status); numbers the events name
 * are pieces too. A shipment of one number steps through its own events' statuses.
 */
export function shipmentSteps<E extends PieceEvent>(pieces: readonly string[], events: readonly E[]): ShipmentStep<E>[] {
  const order = [...events].sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime());
  const numbers = pieceNumbers(pieces, order);
  const latest = new Map<string, E>();
  return order.map((event) => {
    const previous = latest.get(event.trackingNumber);
    // A late scan (earlier than the piece's latest) does not move the piece back.
    if (!previous || previous.eventTime.getTime() <= event.eventTime.getTime()) latest.set(event.trackingNumber, event);
    if (latest.size < numbers.length) return { event, status: null, holder: null };
    const current = numbers.map((number) => latest.get(number)!);
    const holder =
      TROUBLE.map((status) => current.find((piece) => SHOPIFY_STATUS[piece.carrierStatus] === status)).find((piece) => piece !== undefined) ??
      current.reduce((least, piece) => (stageOf(SHOPIFY_STATUS[piece.carrierStatus], 0) < stageOf(SHOPIFY_STATUS[least.carrierStatus], 0) ? piece : least));
    return { event, status: SHOPIFY_STATUS[holder.carrierStatus], holder };
  });
}
