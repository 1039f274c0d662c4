/**
 * The states tracking sync (docs/decisions/006) keeps: a shipment's (followed, delivered, gone stale, stopped, and
 * why it stopped) and each carrier event's on its way to Shopify (skipped, pending, written: intent before the
 * write, outcome after it). Stored as text columns; pure, so pages read them too.
 */

export const TrackingState = {
  NONE: "NONE",
  ACTIVE: "ACTIVE",
  DELIVERED: "DELIVERED",
  STALE: "STALE",
  STOPPED: "STOPPED",
} as const;
export type TrackingState = (typeof TrackingState)[keyof typeof TrackingState];

export const WriteStatus = {
  SKIPPED: "SKIPPED",
  PENDING: "PENDING",
  WRITING: "WRITING",
  WRITTEN: "WRITTEN",
  FAILED: "FAILED",
} as const;

/**
 * Why tracking stopped. VOIDED: the label was voided at the provider (Search Shipments says `voided`), so the
 * carrier will never move it. NO_LABEL: a followed row with no book number or fulfillment to follow.
 */
export type StopReason = "FULFILLMENT_CANCELLED" | "ORDER_CANCELLED" | "SHOP_UNINSTALLED" | "VOIDED" | "NO_LABEL";

/** Why a shipment is no longer followed, in the merchant's words. */
export const STOP_REASON_TEXT: Readonly<Record<StopReason, string>> = {
  FULFILLMENT_CANCELLED: "The fulfillment was cancelled in Shopify, so Consign stopped following this parcel.",
  ORDER_CANCELLED: "The order was cancelled, so Consign stopped following this parcel.",
  SHOP_UNINSTALLED: "Consign was uninstalled, so tracking stopped.",
  VOIDED: "The label was voided at the Shipping API, so the carrier will not move this parcel and Consign stopped following it.",
  NO_LABEL: "This shipment has no booked label or Shopify fulfillment, so there is nothing to follow.",
};
