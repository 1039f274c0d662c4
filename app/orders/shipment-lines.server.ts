import type { Shipment } from "@prisma/client";
import type { Context } from "../context";
import { loadOrdersWithCustoms } from "./customs.server";
import { linesOfShipments, type ShipmentLine } from "./shipment-lines";

/**
 * The shipments' lines (by shipment id) named from the mirrored orders, each unit's weight as the order was
 * quoted (what was typed in Consign over Shopify's).
 */
export async function loadShipmentLines(
  ctx: Pick<Context, "db" | "shop">,
  shipments: ReadonlyArray<Pick<Shipment, "id" | "orderId" | "fulfillmentOrderId" | "lines" | "request">>,
): Promise<Map<string, ShipmentLine[]>> {
  const mirrored = await loadOrdersWithCustoms(ctx, [...new Set(shipments.map((shipment) => shipment.orderId))]);
  return linesOfShipments(shipments, new Map(mirrored.map((order) => [order.id, order])));
}
