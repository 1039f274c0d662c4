import { z } from "zod";
import type { Context } from "./context";
import type { Outcome } from "./outcome";
import { defineJob, type JobServices } from "./jobs/job";
import { jobs } from "./jobs/queue.server";
import { mirrorFollowsTopic, syncOrderFromWebhook, webhookSubject } from "./orders/webhook-sync.server";
import { stopTrackingFromWebhook } from "./tracking/stops.server";
import { CustomerRedactPayload, DataRequestPayload, redactCustomer, redactShop, reportCustomerData } from "./compliance.server";
import { forgetShopSessions, grantedScopes, recordGrantedScopes, stopShopTracking } from "./shop-lifecycle.server";
import { parseWebhookPayload } from "./webhook-payload";

/**
 * Webhook deliveries, once their HMAC is verified (the webhook routes' helper in app/request-context.server.ts
 * does that and turns what is received here into the answer): each route checks the topic and the payload's
 * shape, records the delivery once by its X-Shopify-Webhook-Id and queues the webhook-delivery job, which does
 * what the topic says in the shop's Context.
 */

/** A delivery whose HMAC was verified, as authenticate.webhook gives it (topic as ORDERS_UPDATED, the body parsed). */
export interface WebhookDelivery {
  webhookId: string;
  topic: string;
  payload: unknown;
}

/**
 * What a route answers a verified delivery: received (recorded and queued, or a redelivery acknowledged), or
 * refused in words (Shopify shows them in the app's webhook log). A payload without its topic's shape is
 * thrown as a WebhookPayloadError naming the fields.
 */
export type DeliveryReceipt = Outcome;

/**
 * What each app and compliance topic does once its delivery is recorded: the payload was checked against
 * the topic's shape when it arrived (400 otherwise), and is parsed again here (a stored row is input too).
 */
const APP_TOPICS: Record<string, { check: (payload: unknown) => void; act: (ctx: Context, payload: unknown) => Promise<void> }> = {
  APP_UNINSTALLED: {
    check: () => {},
    act: async (ctx) => {
      await forgetShopSessions(ctx);
      await stopShopTracking(ctx);
    },
  },
  APP_SCOPES_UPDATE: {
    check: (payload) => void grantedScopes(payload),
    act: (ctx, payload) => recordGrantedScopes(ctx, grantedScopes(payload)),
  },
  CUSTOMERS_DATA_REQUEST: {
    check: (payload) => void parseWebhookPayload(DataRequestPayload, payload),
    act: async (ctx, payload) => console.info(JSON.stringify({ msg: "customer data report", shop: ctx.shop, report: await reportCustomerData(ctx, payload) })),
  },
  CUSTOMERS_REDACT: {
    check: (payload) => void parseWebhookPayload(CustomerRedactPayload, payload),
    act: async (ctx, payload) => console.info(JSON.stringify({ msg: "customer redacted", shop: ctx.shop, ordersErased: await redactCustomer(ctx, payload) })),
  },
  SHOP_REDACT: {
    check: () => {},
    act: async (ctx) => {
      await redactShop(ctx);
      console.info(JSON.stringify({ msg: "shop redacted", shop: ctx.shop }));
    },
  },
};

/** The app topics the app webhook route takes (app/uninstalled, app/scopes_update). */
export const LIFECYCLE_TOPICS: ReadonlySet<string> = new Set(["APP_UNINSTALLED", "APP_SCOPES_UPDATE"]);
/** Shopify's mandatory compliance topics. */
export const COMPLIANCE_TOPICS: ReadonlySet<string> = new Set(["CUSTOMERS_DATA_REQUEST", "CUSTOMERS_REDACT", "SHOP_REDACT"]);

/**
 * The job that acts on a recorded webhook delivery. App and compliance topics do what their topic says
 * (forget the sessions, record scopes, report, erase). Order topics stop tracking what was cancelled and
 * re-read the order into the mirror (re-reading makes out-of-order and repeated deliveries harmless);
 * without an offline session (the app was uninstalled) there is no mirror to keep current. A delivery
 * processed already is not processed again.
 */
export const webhookDeliveryJob = defineJob({
  name: "webhook-delivery",
  data: z.object({ deliveryId: z.string().min(1) }),
  key: ({ deliveryId }) => deliveryId,
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireInSeconds: 5 * 60,
  run: async ({ deliveryId }, { services }) => {
    const delivery = await services.db.webhookDelivery.findUnique({ where: { id: deliveryId } });
    if (!delivery || delivery.processedAt) return;
    const ctx = services.context(delivery.shop);
    const payload: unknown = JSON.parse(delivery.payload);
    const appTopic = APP_TOPICS[delivery.topic];
    if (appTopic) await appTopic.act(ctx, payload);
    else {
      await stopTrackingFromWebhook(ctx, delivery.topic, payload, delivery.receivedAt);
      // The offline session, under the id shopify-app-remix stores it by: the order is read through it.
      if (await ctx.db.session.findUnique({ where: { id: `offline_${ctx.shop}` }, select: { id: true } })) {
        await syncOrderFromWebhook(ctx, delivery.topic, payload);
      }
    }
    // updateMany: a shop/redact may have erased the shop's deliveries with the rest of its data.
    await ctx.db.webhookDelivery.updateMany({ where: { id: deliveryId }, data: { processedAt: ctx.now() } });
  },
});

/** Shopify retries a delivery for up to 48 hours; a processed delivery's id is kept well beyond that. */
const DELIVERY_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** Daily: forgets processed deliveries older than a week (a redelivery can no longer come). */
export const webhookPruneJob = defineJob({
  name: "webhook-delivery-prune",
  data: z.object({}),
  key: () => "daily",
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { cron: "17 3 * * *", data: {} },
  run: async (_, { services }) => {
    await forgetProcessedDeliveries(services);
  },
});

/** Forgets every shop's deliveries processed more than a week before the services' `now()`; answers how many. */
export async function forgetProcessedDeliveries(services: Pick<JobServices, "db" | "now">): Promise<number> {
  const { count } = await services.db.webhookDelivery.deleteMany({ where: { processedAt: { lt: new Date(services.now().getTime() - DELIVERY_KEPT_MS) } } });
  return count;
}

/**
 * Records a delivery of the shop by its X-Shopify-Webhook-Id, received at `ctx.now()`, and answers the
 * recorded row's id; null when the shop's delivery of that id was recorded already (Shopify delivers again
 * when an answer is late or lost), so it is acknowledged without being processed twice. The id is the
 * shop's: another shop's delivery with the same id is recorded as its own.
 */
export async function recordDelivery(ctx: Pick<Context, "db" | "shop" | "now">, delivery: WebhookDelivery): Promise<string | null> {
  try {
    const { id } = await ctx.db.webhookDelivery.create({
      data: { webhookId: delivery.webhookId, shop: ctx.shop, topic: delivery.topic, payload: JSON.stringify(delivery.payload), receivedAt: ctx.now() },
      select: { id: true },
    });
    return id;
  } catch (error) {
    // P2002, a unique constraint: by code, as the SQLite and the PostgreSQL clients each have their own error classes.
    if (typeof error === "object" && error !== null && "code" in error && error.code === "P2002") return null;
    throw error;
  }
}

/**
 * A webhook route's whole work once the HMAC is verified, answered well inside Shopify's 5 seconds: the topic
 * and the payload's shape are checked here, the delivery is recorded once by its X-Shopify-Webhook-Id and the
 * webhook-delivery job does the rest; a redelivered id is acknowledged and does nothing.
 */
async function receive(
  ctx: Pick<Context, "db" | "shop" | "now">,
  delivery: WebhookDelivery,
  takes: (topic: string) => boolean,
  check: (topic: string, payload: unknown) => void,
): Promise<DeliveryReceipt> {
  if (!takes(delivery.topic)) return { ok: false, message: `Unexpected topic ${delivery.topic}` };
  check(delivery.topic, delivery.payload);
  const deliveryId = await recordDelivery(ctx, delivery);
  if (deliveryId) await jobs().send(webhookDeliveryJob, { deliveryId });
  return { ok: true };
}

/** orders/*, fulfillment_orders/*, fulfillments/*. */
export function receiveOrderDelivery(ctx: Pick<Context, "db" | "shop" | "now">, delivery: WebhookDelivery): Promise<DeliveryReceipt> {
  return receive(ctx, delivery, mirrorFollowsTopic, (topic, payload) => void webhookSubject(topic, payload));
}

/** A route's receiver for app topics (`topics`, each checked against its shape in APP_TOPICS). */
function receiveAppTopics(topics: ReadonlySet<string>) {
  return (ctx: Pick<Context, "db" | "shop" | "now">, delivery: WebhookDelivery): Promise<DeliveryReceipt> =>
    receive(
      ctx,
      delivery,
      (topic) => topics.has(topic),
      (topic, payload) => APP_TOPICS[topic]!.check(payload),
    );
}

/** app/uninstalled and app/scopes_update. */
export const receiveAppDelivery = receiveAppTopics(LIFECYCLE_TOPICS);

/** customers/data_request, customers/redact, shop/redact. */
export const receiveComplianceDelivery = receiveAppTopics(COMPLIANCE_TOPICS);
