import { z } from "zod";
import type { Outcome } from "../outcome";
import { type ShippingContext } from "../shipping/context.server";
import { orderNumber } from "../shopify/gid";
import { explainShippingError } from "../shipping/errors";
import { chargeOf } from "../shipping/scan-charge";

/**
 * The Shipments page: Search Shipments (order number or name, a person's name, tracking or book number) with
 * each result tied back to its order — by book number through the app's own bookings, else by the order
 * name the booking carries as its reference.
 */

export const SearchKeyword = z
  .string()
  .trim()
  .min(1, "Type an order number, a name, a tracking number or a book number.")
  .max(100, "Keep the search under 100 characters.");

export interface ShipmentSearchRow {
  bookNumber: string;
  trackingNumber: string;
  /** Every box's number, as Search Shipments lists them. */
  trackingNumbers: string[];
  carrierCode: string;
  serviceCode: string;
  shippingCost: string;
  currency: string;
  voided: boolean;
  shipmentDate: string;
  receiver: string;
  reference: string;
  order: { orderId: string; orderNumber: string; orderName: string; appPath: string; adminUrl: string } | null;
}

export async function searchBookedShipments(ctx: ShippingContext, keyword: string): Promise<Outcome<{ rows: ShipmentSearchRow[] }>> {
  const found = await ctx.client.searchShipments({ body: { keyword } });
  if (!found.ok) return { ok: false, message: explainShippingError("search", found.error) };
  const records = found.value.shipments;
  const references = [...new Set(records.map((record) => record.shipmentReference).filter((reference) => reference.length > 0))];
  const [byBook, byName] = await Promise.all([
    ctx.db.shipment.findMany({
      where: { shop: ctx.shop, bookNumber: { in: records.map((record) => record.bookNumber) } },
      select: { bookNumber: true, orderId: true, orderName: true },
    }),
    ctx.db.shipment.findMany({ where: { shop: ctx.shop, orderName: { in: references } }, select: { orderId: true, orderName: true }, distinct: ["orderName"] }),
  ]);
  const mirrored = await ctx.db.mirrorOrder.findMany({
    where: { shop: ctx.shop, name: { in: references.filter((name) => !byName.some((row) => row.orderName === name)) } },
    select: { id: true, name: true },
  });
  const orderByBook = new Map(byBook.map((row) => [row.bookNumber!, row]));
  const orderByName = new Map([
    ...mirrored.map((row) => [row.name, { orderId: row.id, orderName: row.name }] as const),
    ...byName.map((row) => [row.orderName, row] as const),
  ]);
  return {
    ok: true,
    rows: records.map((record): ShipmentSearchRow => {
      const order = orderByBook.get(record.bookNumber) ?? orderByName.get(record.shipmentReference);
      const number = order ? orderNumber(order.orderId) : null;
      return {
        bookNumber: record.bookNumber,
        trackingNumbers: record.trackingNumbers.length > 0 ? record.trackingNumbers : [record.trackingNumber],
        trackingNumber: record.trackingNumber,
        carrierCode: record.carrierCode,
        serviceCode: record.serviceCode,
        // A scan-based return label has cost nothing until its first scan, then what it was charged.
        shippingCost: chargeOf(record).shippingCost,
        currency: record.currency,
        voided: record.voided,
        shipmentDate: record.shipmentDate,
        receiver: [record.receiver.name, record.receiver.city, record.receiver.country].filter(Boolean).join(", "),
        reference: record.shipmentReference,
        order:
          order && number
            ? {
                orderId: order.orderId,
                orderNumber: number,
                orderName: order.orderName,
                appPath: `/app/orders/${number}/book`,
                adminUrl: `shopify://admin/orders/${number}`,
              }
            : null,
      };
    }),
  };
}
