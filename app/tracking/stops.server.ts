import { z } from "zod";
import type { Context } from "../context";
import { ShopifyId } from "../shopify/gid";
import { stopTracking } from "./following.server";

/**
 * What ends tracking from Shopify's side (docs/decisions/006): a fulfillment cancelled in Shopify
 * (fulfillments/update with status cancelled) and a cancelled order (orders/cancelled). The uninstall is
 * handled with the app's other app/uninstalled work. Payloads are Shopify's REST webhook bodies.
 */

const FulfillmentPayload = z.object({ id: ShopifyId("Fulfillment"), admin_graphql_api_id: z.string().optional(), status: z.string() });
const OrderPayload = z.object({ id: ShopifyId("Order"), admin_graphql_api_id: z.string().optional() });

/**
 * Stops the shipments a webhook says are over; returns how many stopped. Topics as authenticate.webhook gives
 * them. A cancelled fulfillment is also recorded on its shipments at `at` (the delivery's receipt) whatever
 * tracking was doing, so a voided label whose fulfillment is gone leaves Needs attention.
 */
export async function stopTrackingFromWebhook(ctx: Pick<Context, "db" | "shop">, topic: string, payload: unknown, at: Date): Promise<number> {
  const { db, shop } = ctx;
  if (topic === "FULFILLMENTS_UPDATE" || topic === "FULFILLMENTS_CREATE") {
    const fulfillment = FulfillmentPayload.safeParse(payload);
    if (!fulfillment.success || fulfillment.data.status !== "cancelled") return 0;
    const fulfillmentId = fulfillment.data.admin_graphql_api_id ?? fulfillment.data.id;
    await db.shipment.updateMany({ where: { shop, fulfillmentId, fulfillmentCancelledAt: null }, data: { fulfillmentCancelledAt: at } });
    return stopTracking(ctx, { fulfillmentId }, "FULFILLMENT_CANCELLED");
  }
  if (topic === "ORDERS_CANCELLED") {
    const order = OrderPayload.safeParse(payload);
    if (!order.success) return 0;
    return stopTracking(ctx, { orderId: order.data.admin_graphql_api_id ?? order.data.id }, "ORDER_CANCELLED");
  }
  return 0;
}
