import { z } from "zod";
import type { Context } from "../context";
import { adminQuery } from "../shopify/gateway.server";
import { ShopifyId } from "../shopify/gid";
import { parseWebhookPayload } from "./webhook-payload";
import type { AdminDocument } from "../shopify/admin-document";
import type { FulfillmentOrderOwnerQuery, FulfillmentOrderOwnerQueryVariables } from "../types/admin.generated";

/**
 * Keeps the order mirror current from webhooks: every order, fulfillment order and fulfillment topic
 * names (directly or through its fulfillment order) one order, which the shop's delivery job re-reads whole
 * (webhooks.server.ts), once however many deliveries name it. Re-reading instead of applying payloads
 * makes out-of-order and duplicate deliveries harmless.
 */

/** What the mirror reads of each webhook topic's payload (the app's fuzz suite derives its deliveries from these). */
export const OrderPayload = z.object({ admin_graphql_api_id: ShopifyId("Order").optional(), id: ShopifyId("Order").optional() });
export const FulfillmentPayload = z.object({ order_id: ShopifyId("Order") });
const FulfillmentOrderRef = z.object({ id: ShopifyId("FulfillmentOrder"), order_id: ShopifyId("Order").optional() }).nullish();
export const FulfillmentOrderPayload = z.object({
  fulfillment_order: FulfillmentOrderRef,
  original_fulfillment_order: FulfillmentOrderRef,
  moved_fulfillment_order: FulfillmentOrderRef,
  remaining_fulfillment_order: FulfillmentOrderRef,
  split_line_items: z.unknown().optional(),
});

const FulfillmentOrderOwner = z.object({ fulfillmentOrder: z.object({ orderId: z.string() }).nullable() });

const FULFILLMENT_ORDER_OWNER = `#graphql
  query FulfillmentOrderOwner($id: ID!) {
    fulfillmentOrder(id: $id) {
      orderId
    }
  }
` as AdminDocument<FulfillmentOrderOwnerQuery, FulfillmentOrderOwnerQueryVariables>;

async function orderOfFulfillmentOrder(ctx: Pick<Context, "db" | "shopify">, ref: NonNullable<z.infer<typeof FulfillmentOrderRef>>): Promise<string | null> {
  if (ref.order_id) return ref.order_id;
  const mirrored = await ctx.db.mirrorFulfillmentOrder.findUnique({ where: { id: ref.id }, select: { orderId: true } });
  if (mirrored) return mirrored.orderId;
  const { fulfillmentOrder } = await adminQuery(await ctx.shopify(), FULFILLMENT_ORDER_OWNER, FulfillmentOrderOwner, { id: ref.id });
  return fulfillmentOrder?.orderId ?? null;
}

const MIRRORED_TOPIC_PREFIXES = ["ORDERS_", "FULFILLMENTS_", "FULFILLMENT_ORDERS_"];

/** Whether the order mirror follows this topic (as authenticate.webhook gives it, e.g. ORDERS_UPDATED). */
export function mirrorFollowsTopic(topic: string): boolean {
  return MIRRORED_TOPIC_PREFIXES.some((prefix) => topic.startsWith(prefix));
}

type WebhookSubject = { orderId: string | null } | { fulfillmentOrder: NonNullable<z.infer<typeof FulfillmentOrderRef>> | null };

/**
 * What a webhook is about, read from its payload alone: the order, or the fulfillment order whose order it
 * is. A payload without its topic's shape is a WebhookPayloadError naming the fields (checked before the
 * delivery is acknowledged). `topic` as authenticate.webhook gives it (ORDERS_UPDATED, FULFILLMENTS_CREATE).
 */
export function webhookSubject(topic: string, payload: unknown): WebhookSubject | null {
  if (topic.startsWith("ORDERS_")) {
    const order = parseWebhookPayload(OrderPayload, payload);
    return { orderId: order.admin_graphql_api_id ?? order.id ?? null };
  }
  if (topic.startsWith("FULFILLMENTS_")) return { orderId: parseWebhookPayload(FulfillmentPayload, payload).order_id };
  if (topic.startsWith("FULFILLMENT_ORDERS_")) {
    const body = parseWebhookPayload(FulfillmentOrderPayload, payload);
    return {
      fulfillmentOrder: body.fulfillment_order ?? body.original_fulfillment_order ?? body.moved_fulfillment_order ?? body.remaining_fulfillment_order ?? null,
    };
  }
  return null;
}

/** The order a webhook is about, or null when the topic is not one the mirror follows. */
export async function orderIdOfWebhook(ctx: Pick<Context, "db" | "shopify">, topic: string, payload: unknown): Promise<string | null> {
  const subject = webhookSubject(topic, payload);
  if (!subject) return null;
  if ("orderId" in subject) return subject.orderId;
  return subject.fulfillmentOrder ? orderOfFulfillmentOrder(ctx, subject.fulfillmentOrder) : null;
}
