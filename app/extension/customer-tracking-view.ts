import * as z from "zod/mini";

/**
 * What the customer tracking extension (extensions/customer-tracking, on the customer's order status page) shows
 * for one fulfillment Consign wrote, as the app's route (`/api/customer-tracking/:fulfillmentId`) answers it.
 * zod/mini keeps the extension's module small; the app builds the same shape and the extension parses it.
 * Times are ISO: the extension writes them in the customer's own locale and time zone.
 */

export const CustomerTrackingEvent = z.object({
  /** The step in the customer's words ("On its way", "Delivered"). */
  status: z.string(),
  /** The carrier's words for the event ("Arrived at facility"). */
  message: z.string(),
  /** Where, in words ("Memphis, TN, United States"); null when the carrier gave no place. */
  place: z.nullable(z.string()),
  at: z.string(),
  /** Which box ("Box 2 of 2"), for a shipment whose boxes have a number each. */
  box: z.nullable(z.string()),
});
export type CustomerTrackingEvent = z.infer<typeof CustomerTrackingEvent>;

export const CustomerTrackingView = z.object({
  /** The carrier by name ("Globe Parcel Consolidators"), and the service ("International Economy"). */
  carrier: z.string(),
  service: z.nullable(z.string()),
  trackingNumbers: z.array(z.string()),
  /** Where the parcel is, in the customer's words ("Out for delivery"). */
  status: z.string(),
  /** critical when the customer may need to act (a failed attempt, a delay), else neutral. */
  tone: z.enum(["neutral", "critical"]),
  /** The carrier's latest event, null before its first scan. */
  latest: z.nullable(CustomerTrackingEvent),
  /** What happens next, or what to do, in one sentence. */
  nextStep: z.string(),
  /** Newest first. */
  events: z.array(CustomerTrackingEvent),
});
export type CustomerTrackingView = z.infer<typeof CustomerTrackingView>;
