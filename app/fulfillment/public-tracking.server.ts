import { describeError } from "../../shipping-api/client";
import type { TrackingEvent } from "../../shipping-api/contract";
import type { Context } from "../context";
import { carrierPlaceName } from "../locale/places";
import { formatDateTime } from "../locale/shop-time";
import { keptShopTimeZone } from "../settings/shop-time-zone.server";
import { parseServiceTimestamp } from "../shipping/context.server";
import { shippingClientFor } from "../shipping/client.server";
import { shipmentOfTrackingPage } from "./tracking-link.server";

/**
 * The public tracking page behind the URL of every fulfillment whose carrier Shopify does not know: the
 * parcel's events from the Shipping API's Track Shipment, read live with the shop's account.
 */

export type PublicTracking =
  | {
      kind: "found";
      orderName: string;
      trackingNumber: string;
      carrier: string;
      /**
       * Most recent first, as Track Shipment answers: `at` in the shop's time zone and the one format ("Nov 27,
       * 2026, 9:10 AM"), `place` in words ("New York, United States" for "US-NY").
       */
      events: Array<Pick<TrackingEvent, "event" | "eventStatus"> & { at: string; place: string }>;
    }
  | { kind: "not_found" }
  | { kind: "unavailable"; trackingNumber: string };

/**
 * The page of the shipment the signed token names. The page has no shop of its own: the shipment says which
 * shop's account reads its tracking, so the context is only the database.
 */
export async function loadPublicTracking(ctx: Pick<Context, "db" | "log">, token: string): Promise<PublicTracking> {
  const { db } = ctx;
  const shipmentId = shipmentOfTrackingPage(token);
  if (!shipmentId) return { kind: "not_found" };
  const shipment = await db.shipment.findUnique({
    where: { id: shipmentId },
    select: { shop: true, orderName: true, bookNumber: true, trackingNumber: true, carrierCode: true },
  });
  if (!shipment?.bookNumber || !shipment.trackingNumber || !shipment.carrierCode) return { kind: "not_found" };
  const unavailable = { kind: "unavailable", trackingNumber: shipment.trackingNumber } as const;
  const account = await db.shippingAccount.findUnique({ where: { shop: shipment.shop }, select: { shop: true } });
  if (!account) return unavailable;
  const client = await shippingClientFor(db, shipment.shop, { timeoutMs: 10_000, retry: { attempts: 2 } });
  const [tracking, services, timeZone] = await Promise.all([
    client.trackShipment({ bookNumber: shipment.bookNumber }),
    client.listServices(),
    keptShopTimeZone({ db, shop: shipment.shop }),
  ]);
  if (!tracking.ok) {
    ctx.log.warn({ shipmentId, shop: shipment.shop }, `tracking page: ${describeError(tracking.error)}`);
    return unavailable;
  }
  const carrier = services.ok ? services.value.services.find((service) => service.carrierCode === shipment.carrierCode)?.carrierLabel : undefined;
  return {
    kind: "found",
    orderName: shipment.orderName,
    trackingNumber: shipment.trackingNumber,
    carrier: carrier ?? shipment.carrierCode,
    events: tracking.value.map(({ event, eventStatus, eventTime, serviceArea, serviceAreaCountry }) => ({
      event,
      eventStatus,
      at: formatDateTime(parseServiceTimestamp(eventTime), timeZone),
      place: carrierPlaceName(serviceArea, serviceAreaCountry),
    })),
  };
}
