import type { Shipment } from "@prisma/client";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import type { Context } from "../context";
import { orderNumber } from "../shopify/gid";
import { loadMirroredOrders } from "../orders/mirror.server";
import { unshippableReason } from "../orders/orders-to-ship.server";
import { formatMoney } from "../shipping/money";
import { lastQuoteBlockers } from "../quoting/last-quote.server";
import { latestCarrierEvent } from "../tracking/tracking-views.server";
import type { BlockShipment, OrderShipmentsView } from "./order-shipments-view";
import { formatDateTime } from "../locale/shop-time";
import { carrierName, serviceName, type ServiceNames } from "../shipping/service-names";
import { pickedQuote } from "../shipping/stored-rates";

/**
 * The order-details block's data: Consign's shipments of one order of the shop (service, cost, label
 * status, tracking), and why the order cannot be shipped when that applies. Read from the app's own
 * database only, so the block costs Shopify nothing; an order of another shop is simply not found.
 */

function labelStatus(row: Shipment): Pick<BlockShipment, "labelStatus" | "tone"> {
  switch (row.bookingStatus) {
    case "BOOKED":
      if (row.fulfillmentStatus === "FULFILLED") return { labelStatus: "Label bought · fulfilled in Shopify", tone: "success" };
      if (row.fulfillmentStatus === "FAILED")
        return { labelStatus: `Label bought · Shopify fulfillment failed: ${row.fulfillmentError ?? "see Fulfillments"}`, tone: "critical" };
      return { labelStatus: "Label bought · fulfillment pending", tone: "success" };
    case "BOOKING":
      return { labelStatus: "Booking the label…", tone: "attention" };
    case "FAILED":
      return { labelStatus: `Booking failed: ${row.bookingError ?? "see the order's booking page"}`, tone: "critical" };
    default:
      return { labelStatus: "Rates ready, not booked", tone: "info" };
  }
}

/**
 * The view of `orderId` for `shop`, or null when the shop has neither mirrored nor shipped that order
 * (another shop's order, or an unknown id).
 */
export async function orderShipmentsView(
  ctx: Pick<Context, "db" | "shop">,
  orderId: string,
  display: { names: ServiceNames; timeZone: string },
): Promise<OrderShipmentsView | null> {
  const { db, shop } = ctx;
  const [rows, [mirrored], lastQuote] = await Promise.all([
    db.shipment.findMany({
      where: { shop, orderId, kind: "OUTBOUND", OR: [{ bookingStatus: { not: "NONE" } }, { quoteStatus: "QUOTED", batchId: null }] },
      orderBy: { createdAt: "asc" },
    }),
    loadMirroredOrders(ctx, [orderId]),
    lastQuoteBlockers(ctx, [orderId]),
  ]);
  if (rows.length === 0 && !mirrored) return null;
  // Rates that were never booked are shown once per fulfillment order, and only when nothing is booked for it.
  const booked = rows.filter((row) => row.bookingStatus !== "NONE");
  const bookedFos = new Set(booked.map((row) => row.fulfillmentOrderId));
  const waiting = rows.filter((row) => row.bookingStatus === "NONE" && !bookedFos.has(row.fulfillmentOrderId));
  const shown = [...booked, ...waiting.filter((row, index) => waiting.findIndex((other) => other.fulfillmentOrderId === row.fulfillmentOrderId) === index)];

  const number = orderNumber(orderId);

  const shipments = shown.map((row): BlockShipment => {
    const quote = pickedQuote(row);
    const isBooked = row.bookingStatus === "BOOKED";
    const cost = row.shippingCost && row.currency ? formatMoney(row.shippingCost, row.currency) : quote ? formatMoney(quote.totalAmount, quote.currency) : null;
    const carrierCode = row.carrierCode ?? quote?.carrierCode ?? null;
    const serviceCode = row.serviceCode ?? quote?.serviceCode ?? null;
    const latest = isBooked ? latestCarrierEvent(row) : null;
    return {
      id: row.id,
      carrier: carrierCode ? carrierName(display.names, carrierCode) : null,
      service:
        carrierCode && serviceCode
          ? serviceName(display.names, { carrierCode, serviceCode, serviceDescription: quote?.serviceDescription })
          : (quote?.serviceDescription ?? null),
      cost,
      ...labelStatus(row),
      trackingNumber: row.trackingNumber,
      trackingNumbers: trackingNumbersOf(row),
      tracking: latest ? { ...latest, atText: formatDateTime(latest.at, display.timeZone) } : null,
      labelPath: isBooked ? `/app/orders/${number}/label?${new URLSearchParams({ shipment: row.id }).toString()}` : null,
    };
  });

  const blockers: string[] = [];
  const reason = mirrored ? unshippableReason(mirrored) : null;
  if (reason && booked.length === 0) blockers.push(reason);
  if (shown.length === 0) for (const message of lastQuote.get(orderId) ?? []) if (!blockers.includes(message)) blockers.push(message);

  return {
    order: { id: orderId, name: mirrored?.name ?? rows[0]!.orderName },
    shipments,
    blockers,
    bookPath: `/app/orders/${number}/book`,
    createLabelPath: `/app/quotes/new?${new URLSearchParams({ id: orderId }).toString()}`,
  };
}
