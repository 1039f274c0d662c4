import { z } from "zod";
import prisma from "./db.server";
import { defineJob } from "./jobs/job";
import { jobs } from "./jobs/queue.server";
import { mirrorFollowsTopic, syncOrderFromWebhook, webhookSubject } from "./orders/webhook-sync.server";
import { authenticate, unauthenticated } from "./shopify.server";
import { stopTrackingFromWebhook } from "./tracking/stops.server";
import { CustomerRedactPayload, DataRequestPayload, redactCustomer, redactShop, reportCustomerData } from "./compliance.server";
import { forgetShopSessions, grantedScopes, recordGrantedScopes, stopShopTracking } from "./shop-lifecycle.server";
import { parseWebhookPayload, WebhookPayloadError } from "./webhook-payload";

/** A refusal of a signed delivery Consign cannot act on, in words (Shopify shows them in the app's webhook log). */
function refuseDelivery(message: string): Response {
  return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** The answer to a delivery whose topic the route does not take. */
export function unexpectedTopic(topic: string): Response {
  return refuseDelivery(`Unexpected topic ${topic}`);
}

/**
 * Verifies a webhook's HMAC (authenticate.webhook answers 401 itself when it is wrong) and records its
 * arrival. Topic handlers that act on the payload build on it. A signed body that is not JSON is refused
 * with 400 (the library parses it after checking the HMAC).
 */
export async function receiveWebhook(request: Request) {
  let webhook: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    webhook = await authenticate.webhook(request);
  } catch (error) {
    if (error instanceof SyntaxError) throw refuseDelivery("The webhook body is not JSON");
    throw error;
  }
  console.info(JSON.stringify({ msg: "webhook received", shop: webhook.shop, topic: webhook.topic, webhookId: webhook.webhookId }));
  return webhook;
}

/** Runs a topic's handler; a payload without the topic's shape is answered 400 naming the fields. */
export async function handleWebhookPayload(handle: () => Promise<Response>): Promise<Response> {
  try {
    return await handle();
  } catch (error) {
    if (error instanceof WebhookPayloadError) return refuseDelivery(error.message);
    throw error;
  }
}

/**
 * What each app and compliance topic does once its delivery is recorded: the payload was checked against
 * the topic's shape when it arrived (400 otherwise), and is parsed again here (a stored row is input too).
 */
const APP_TOPICS: Record<string, { check: (payload: unknown) => void; act: (shop: string, payload: unknown) => Promise<void> }> = {
  APP_UNINSTALLED: {
    check: () => {},
    act: async (shop) => {
      await forgetShopSessions(shop);
      await stopShopTracking(shop);
    },
  },
  APP_SCOPES_UPDATE: {
    check: (payload) => void grantedScopes(payload),
    act: (shop, payload) => recordGrantedScopes(shop, grantedScopes(payload)),
  },
  CUSTOMERS_DATA_REQUEST: {
    check: (payload) => void parseWebhookPayload(DataRequestPayload, payload),
    act: async (shop, payload) => console.info(JSON.stringify({ msg: "customer data report", shop, report: await reportCustomerData(prisma, shop, payload) })),
  },
  CUSTOMERS_REDACT: {
    check: (payload) => void parseWebhookPayload(CustomerRedactPayload, payload),
    act: async (shop, payload) => console.info(JSON.stringify({ msg: "customer redacted", shop, ordersErased: await redactCustomer(prisma, shop, payload) })),
  },
  SHOP_REDACT: {
    check: () => {},
    act: async (shop) => {
      await redactShop(prisma, shop);
      console.info(JSON.stringify({ msg: "shop redacted", shop }));
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
  run: async ({ deliveryId }) => {
    const delivery = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId } });
    if (!delivery || delivery.processedAt) return;
    const payload: unknown = JSON.parse(delivery.payload);
    const appTopic = APP_TOPICS[delivery.topic];
    if (appTopic) await appTopic.act(delivery.shop, payload);
    else {
      await stopTrackingFromWebhook(prisma, delivery.shop, delivery.topic, payload, delivery.receivedAt);
      // The offline session, under the id shopify-app-remix stores it by.
      if (await prisma.session.findUnique({ where: { id: `offline_${delivery.shop}` }, select: { id: true } })) {
        const { admin, session } = await unauthenticated.admin(delivery.shop);
        await syncOrderFromWebhook({ admin, shop: session.shop }, prisma, delivery.topic, payload);
      }
    }
    // updateMany: a shop/redact may have erased the shop's deliveries with the rest of its data.
    await prisma.webhookDelivery.updateMany({ where: { id: deliveryId }, data: { processedAt: new Date() } });
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
  run: async () => {
    await prisma.webhookDelivery.deleteMany({ where: { processedAt: { lt: new Date(Date.now() - DELIVERY_KEPT_MS) } } });
  },
});

/**
 * Records a delivery by its X-Shopify-Webhook-Id; false when that id was recorded already (Shopify
 * delivers again when an answer is late or lost), so it is acknowledged without being processed twice.
 */
export async function recordDelivery(delivery: { webhookId: string; shop: string; topic: string; payload: unknown }, now: Date = new Date()): Promise<boolean> {
  try {
    await prisma.webhookDelivery.create({
      data: { id: delivery.webhookId, shop: delivery.shop, topic: delivery.topic, payload: JSON.stringify(delivery.payload), receivedAt: now },
    });
    return true;
  } catch (error) {
    // P2002, a unique constraint: by code, as the SQLite and the PostgreSQL clients each have their own error classes.
    if (typeof error === "object" && error !== null && "code" in error && error.code === "P2002") return false;
    throw error;
  }
}

/**
 * A webhook route's whole work, answered well inside Shopify's 5 seconds: the HMAC (401), the topic and
 * the payload's shape (400) are checked here, the delivery is recorded once by its X-Shopify-Webhook-Id
 * and the webhook-delivery job does the rest; a redelivered id is acknowledged and does nothing.
 */
async function receiveAndQueue(request: Request, takes: (topic: string) => boolean, check: (topic: string, payload: unknown) => void): Promise<Response> {
  const { shop, topic, payload, webhookId } = await receiveWebhook(request);
  if (!takes(topic)) return unexpectedTopic(topic);
  return handleWebhookPayload(async () => {
    check(topic, payload);
    if (await recordDelivery({ webhookId, shop, topic, payload })) await jobs().send(webhookDeliveryJob, { deliveryId: webhookId });
    return new Response();
  });
}

/** orders/*, fulfillment_orders/*, fulfillments/*. */
export function receiveOrderWebhook(request: Request): Promise<Response> {
  return receiveAndQueue(request, mirrorFollowsTopic, (topic, payload) => void webhookSubject(topic, payload));
}

/** app/uninstalled and app/scopes_update. */
export function receiveAppWebhook(request: Request): Promise<Response> {
  return receiveAndQueue(
    request,
    (topic) => LIFECYCLE_TOPICS.has(topic),
    (topic, payload) => APP_TOPICS[topic]!.check(payload),
  );
}

/** customers/data_request, customers/redact, shop/redact. */
export function receiveComplianceWebhook(request: Request): Promise<Response> {
  return receiveAndQueue(
    request,
    (topic) => COMPLIANCE_TOPICS.has(topic),
    (topic, payload) => APP_TOPICS[topic]!.check(payload),
  );
}
