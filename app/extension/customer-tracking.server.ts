import type { Context } from "../context";
import type { CustomerTrackingEvent, CustomerTrackingView } from "./customer-tracking-view";
import { loadServiceNames } from "../quoting/service-names.server";
import { carrierName, serviceName } from "../shipping/service-names";
import { customerEventStatus, customerStatus } from "../tracking/customer-status";
import { fulfillmentTimeline } from "../tracking/tracking-views.server";

/**
 * The customer's view of one fulfillment Consign wrote, for the order status page (extensions/customer-tracking):
 * the carrier by name, where the parcel is and what comes next, and the carrier's events newest first. Read from
 * Consign's own database (tracking sync keeps it), so the customer's page costs the shop no Shopify call and no
 * carrier lookup (only the carrier names, which the app keeps a few minutes). Only the customer who placed the order sees it: for anyone else, as for a fulfillment Consign did not
 * write, there is nothing (null), and the route answers 404 without saying which.
 */
export async function customerTracking(
  ctx: Pick<Context, "db" | "shop" | "now" | "log">,
  request: { customerId: string; fulfillmentId: string },
): Promise<CustomerTrackingView | null> {
  const { db, shop } = ctx;
  const shipment = await db.shipment.findFirst({
    where: { shop, fulfillmentId: request.fulfillmentId, fulfillmentStatus: "FULFILLED" },
    select: { orderId: true, trackingState: true, carrierStatus: true, trackingStopReason: true, attentionAction: true, carrierCode: true, serviceCode: true },
  });
  if (!shipment) return null;
  const mine = await db.mirrorOrder.count({ where: { shop, id: shipment.orderId, customerId: request.customerId } });
  const timeline = mine > 0 ? await fulfillmentTimeline(ctx, request.fulfillmentId) : null;
  if (!timeline) return null;
  const events = timeline.events.map((event): CustomerTrackingEvent => ({
    status: customerEventStatus(event.carrierStatus),
    message: event.message,
    place: event.place,
    at: event.at,
    box: event.box,
  }));
  const { carrierCode, serviceCode } = shipment;
  // Names only for the customer whose parcel it is (the shop's List Services, kept a few minutes).
  const names = await loadServiceNames(ctx);
  return {
    carrier: carrierCode ? carrierName(names, carrierCode) : "The carrier",
    service: carrierCode && serviceCode ? serviceName(names, { carrierCode, serviceCode }) : null,
    trackingNumbers: timeline.trackingNumbers,
    ...customerStatus(shipment),
    latest: events[0] ?? null,
    events,
  };
}
