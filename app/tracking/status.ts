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
    const status = SHOPIFY_STATUS[event.carrierStatus];
    const current = position?.stage ?? -1;
    const stage = stageOf(status, Math.max(current, 0));
    if (position && event.eventTime.getTime() <= position.at.getTime()) continue;
    if (stage < current || status === position?.status) continue;
    changes.push(index);
    position = { status, stage, at: event.eventTime };
  }
  return changes;
}
