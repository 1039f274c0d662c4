import type { Shipment } from "@prisma/client";
import type { Context } from "../context";
import { loadOrdersWithCustoms } from "./customs.server";
import { type ShipmentLine, shipmentLines } from "./shipment-lines";

/**
 * The shipments' lines (by shipment id) named from the mirrored orders, each unit's weight as the order was
 * quoted (what was typed in Consign over Shopify's).
 */
export async function loadShipmentLines(
  ctx: Pick<Context, "db" | "shop">,
  shipments: ReadonlyArray<Pick<Shipment, "id" | "orderId" | "fulfillmentOrderId" | "lines" | "request">>,
): Promise<Map<string, ShipmentLine[]>> {
  const mirrored = await loadOrdersWithCustoms(ctx, [...new Set(shipments.map((shipment) => shipment.orderId))]);
  const orders = new Map(mirrored.map((order) => [order.id, order]));
  return new Map(shipments.map((shipment) => [shipment.id, shipmentLines(shipment, orders.get(shipment.orderId))]));
}
