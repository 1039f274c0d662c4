import type { Shipment } from "@prisma/client";
import type { EventStatus } from "../../shipping-api/contract";
import { SHOPIFY_STATUS, type ShopifyEventStatus } from "./status";
import { TrackingState, type StopReason } from "./tracking-states";

/**
 * Where a parcel is and what comes next, in the customer's words, for the order status page: the carrier's
 * status read through the one table that also writes Shopify's fulfillment events (SHOPIFY_STATUS), so the
 * customer reads the step Shopify's own timeline shows. Pure; table-tested in customer-status.test.ts.
 */

const STEP: Readonly<Record<ShopifyEventStatus, { status: string; next: string; critical: boolean }>> = {
  CONFIRMED: { status: "Ready to ship", next: "The carrier scans your parcel when they collect it from the shop.", critical: false },
  IN_TRANSIT: { status: "On its way", next: "Next, the carrier takes it out for delivery to your address.", critical: false },
  OUT_FOR_DELIVERY: { status: "Out for delivery", next: "The carrier delivers it today.", critical: false },
  ATTEMPTED_DELIVERY: {
    status: "Delivery attempted",
    next: "The carrier will try again or leave a note saying where to collect your parcel.",
    critical: true,
  },
  DELAYED: { status: "Delayed", next: "The carrier is working on it; this page shows their next update.", critical: true },
  DELIVERED: { status: "Delivered", next: "Your parcel was delivered. If you cannot find it, contact the shop.", critical: false },
};

/** An event's step in the customer's words ("On its way"). */
export function customerEventStatus(carrierStatus: string): string {
  const step = SHOPIFY_STATUS[carrierStatus as EventStatus];
  return step ? STEP[step].status : carrierStatus;
}

const STOPPED: Readonly<Record<StopReason, { status: string; next: string }>> = {
  VOIDED: { status: "Shipment cancelled", next: "The shop cancelled this shipment. Contact the shop for news of your order." },
  FULFILLMENT_CANCELLED: { status: "Shipment cancelled", next: "The shop cancelled this shipment. Contact the shop for news of your order." },
  ORDER_CANCELLED: { status: "Order cancelled", next: "This order was cancelled. Contact the shop if you have questions." },
  SHOP_UNINSTALLED: { status: "No updates", next: "Updates for this parcel have stopped. Contact the shop with your tracking number." },
  NO_LABEL: { status: "No updates", next: "There is no tracking for this shipment. Contact the shop for news of your order." },
};

export interface CustomerStatus {
  status: string;
  tone: "neutral" | "critical";
  nextStep: string;
}

/** A shipment's status and next step for its customer. */
export function customerStatus(row: Pick<Shipment, "trackingState" | "carrierStatus" | "trackingStopReason" | "attentionAction">): CustomerStatus {
  if (row.trackingState === TrackingState.STOPPED) {
    const stopped = STOPPED[row.trackingStopReason as StopReason] ?? STOPPED.NO_LABEL;
    return { status: stopped.status, tone: "neutral", nextStep: stopped.next };
  }
  const shopifyStatus = row.trackingState === TrackingState.DELIVERED ? "DELIVERED" : (SHOPIFY_STATUS[row.carrierStatus as EventStatus] ?? "CONFIRMED");
  const step = STEP[shopifyStatus];
  if (row.trackingState === TrackingState.STALE)
    return { status: step.status, tone: "critical", nextStep: "The carrier has sent no news for a while. Contact the shop with your tracking number." };
  // The carrier's own advice on an attempt or an exception ("Collect it from the post office") beats ours.
  const advice = step.critical && row.attentionAction ? `${row.attentionAction.replace(/\.$/, "")}.` : null;
  return { status: step.status, tone: step.critical ? "critical" : "neutral", nextStep: advice ?? step.next };
}
