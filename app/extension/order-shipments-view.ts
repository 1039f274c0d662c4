import * as z from "zod/mini";

/**
 * What the order-details block (extensions/order-shipments-block) shows for one order, as the app's
 * extension route (`/api/order-shipments/:id`) answers it. zod/mini keeps the extension's module small
 * (Shopify caps an extension's compiled size); the app builds the same shape and the block parses it.
 */

/** The carrier's latest tracking event, once tracking sync has seen one. */
export const LatestTracking = z.object({
  /** The carrier's status ("In Transit", "Delivered"). */
  status: z.string(),
  /** Where, codes in words ("MEMPHIS, Tennessee, United States" for the carrier's "MEMPHIS, TN, US"); null when the event has no place. */
  place: z.nullable(z.string()),
  /** ISO time of the event. */
  at: z.string(),
  /** The same time as the app writes it, in the shop's time zone ("Nov 27, 2026, 9:10 AM"). */
  atText: z.string(),
});
export type LatestTracking = z.infer<typeof LatestTracking>;

export const BlockShipment = z.object({
  id: z.string(),
  /** The carrier's name as List Services gives it ("Globe Parcel Consolidators"); its code when the catalog does not know it. */
  carrier: z.nullable(z.string()),
  /** The service's name as List Services gives it ("International Economy"), else as quoted, else its code in words. */
  service: z.nullable(z.string()),
  /** Formatted for people ("$12.40"); null until booked. */
  cost: z.nullable(z.string()),
  /** The label's state in words ("Label bought", "Booking failed: …"). */
  labelStatus: z.string(),
  /** success (label bought), attention (booking under way), critical (failed), info (not booked). */
  tone: z.enum(["success", "attention", "critical", "info"]),
  trackingNumber: z.nullable(z.string()),
  /** Every box's number, the first being `trackingNumber` (one when the boxes share it; empty before booking). */
  trackingNumbers: z.array(z.string()),
  tracking: z.nullable(LatestTracking),
  /** App path of the label (reprint), when a label was bought. */
  labelPath: z.nullable(z.string()),
});
export type BlockShipment = z.infer<typeof BlockShipment>;

export const OrderShipmentsView = z.object({
  order: z.object({ id: z.string(), name: z.string() }),
  shipments: z.array(BlockShipment),
  /** Why the order cannot be shipped now (on hold, missing weight, …); empty when it can. */
  blockers: z.array(z.string()),
  /** App paths: the order's booking page and the page that quotes it ("Create shipping label"). */
  bookPath: z.string(),
  createLabelPath: z.string(),
});
export type OrderShipmentsView = z.infer<typeof OrderShipmentsView>;
