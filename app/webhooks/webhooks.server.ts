import { z } from "zod";
import type { Context } from "../context";
import { writeByIds } from "../db/id-lists.server";
import type { Outcome } from "../outcome";
import { defineJob, type JobServices } from "../jobs/job";
import { refreshOrder } from "../orders/mirror.server";
import { mirrorFollowsTopic, orderIdOfWebhook, webhookSubject } from "./webhook-sync.server";
import { stopTrackingFromWebhook } from "../tracking/stops.server";
import { CustomerRedactPayload, DataRequestPayload, redactCustomer, redactShop, reportCustomerData } from "./compliance.server";
import { forgetShopSessions, grantedScopes, recordGrantedScopes, stopShopTracking } from "./shop-lifecycle.server";
import { parseWebhookPayload } from "./webhook-payload";
import { refreshReturn, RETURN_TOPICS, returnPayloadSchema } from "../returns/returns.server";

/**
 * Webhook deliveries, once their HMAC is verified (the webhook routes' helper in app/request-context.server.ts
 * does that and turns what is received here into the answer): each route checks the topic and the payload's
 * shape, records the delivery once by its X-Shopify-Webhook-Id and queues the shop's webhook-deliveries job,
 * which does what the topic says in the shop's Context.
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
    act: async (ctx, payload) => ctx.log.info({ report: await reportCustomerData(ctx, payload) }, "customer data report"),
  },
  CUSTOMERS_REDACT: {
    check: (payload) => void parseWebhookPayload(CustomerRedactPayload, payload),
    act: async (ctx, payload) => ctx.log.info({ ordersErased: await redactCustomer(ctx, payload) }, "customer redacted"),
  },
  SHOP_REDACT: {
    check: () => {},
    act: async (ctx) => {
      await redactShop(ctx);
      ctx.log.info("shop redacted");
    },
  },
};

/**
 * The returns topics (docs/decisions/041): the delivery names a return, which is read again from Shopify into
 * Consign's returns, so a late, repeated or out-of-order delivery changes nothing a fresher read did not.
 */
for (const topic of RETURN_TOPICS) {
  APP_TOPICS[topic] = {
    check: (payload) => void parseWebhookPayload(returnPayloadSchema(topic), payload),
    act: async (ctx, payload) => {
      const returnId = parseWebhookPayload(returnPayloadSchema(topic), payload);
      if (returnId) await refreshReturn(ctx, returnId);
    },
  };
}

/** The app topics the app webhook route takes (app/uninstalled, app/scopes_update). */
export const LIFECYCLE_TOPICS: ReadonlySet<string> = new Set(["APP_UNINSTALLED", "APP_SCOPES_UPDATE"]);
/** Shopify's mandatory compliance topics. */
export const COMPLIANCE_TOPICS: ReadonlySet<string> = new Set(["CUSTOMERS_DATA_REQUEST", "CUSTOMERS_REDACT", "SHOP_REDACT"]);

/** Deliveries read at a time while a run gathers the shop's pending ones (their payloads are dropped once read). */
const DELIVERIES_PER_READ = 500;
/**
 * Orders re-read in one run: a long burst is worked in runs that each end well inside the job's expiry (at
 * the standard plan's 100 points/s, 100 re-reads take about 15 s), each sending the next.
 */
const ORDERS_PER_RUN = 100;

/**
 * The job that works a shop's recorded webhook deliveries, all of them pending at once (one runs per shop
 * at a time, and one more waits: a delivery recorded while a run works is taken by the next). App and
 * compliance topics do what their topic says (forget the sessions, record scopes, report, erase), in the
 * order they arrived. Order topics stop tracking what was cancelled, each delivery on its own, and are
 * coalesced by their order: however many deliveries name an order, it is re-read once per run, and every
 * one of them is marked processed with it. Re-reading makes out-of-order and repeated deliveries harmless,
 * and the re-reads take the pacer's `sync` lane, behind pages and the write-back (app/shopify/pacer.ts).
 * Without an offline session (the app was uninstalled) there is no mirror to keep current.
 */
export const webhookDeliveryJob = defineJob({
  name: "webhook-deliveries",
  data: z.object({ shop: z.string().min(1) }),
  key: ({ shop }) => shop,
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireInSeconds: 5 * 60,
  run: async ({ shop }, { services, signal }) => {
    const more = await workPendingDeliveries(services.context(shop, { lane: "sync" }), signal);
    if (more) await services.jobs.send(webhookDeliveryJob, { shop });
  },
});

/** Deliveries a run could not work (their order's re-read failed, or their topic's act): left pending, and the run fails after the rest so the queue retries it with backoff. */
export class DeliveriesFailedError extends Error {
  override name = "DeliveriesFailedError";
  constructor(readonly failures: readonly unknown[]) {
    super(`${failures.length} webhook deliveries could not be worked and stay pending: ${failures.map((failure) => String(failure)).join("; ")}`);
  }
}

/** The shop's offline session, under the id shopify-app-remix stores it by: the mirror's orders are read through it. */
async function hasOfflineSession(ctx: Pick<Context, "db" | "shop">): Promise<boolean> {
  return (await ctx.db.session.findUnique({ where: { id: `offline_${ctx.shop}` }, select: { id: true } })) !== null;
}

/**
 * Works the shop's pending deliveries, oldest first: every app topic and every delivery of up to
 * ORDERS_PER_RUN orders (each order re-read once). Answers whether deliveries are left for another run. A
 * delivery that cannot be worked stays pending without holding up the others; the run then throws
 * DeliveriesFailedError, once the rest are done.
 */
export async function workPendingDeliveries(ctx: Context, signal?: AbortSignal): Promise<boolean> {
  const byOrder = new Map<string, string[]>();
  const failures: unknown[] = [];
  let left = false;
  let after: { receivedAt: Date; id: string } | null = null;
  let mirrorKept = await hasOfflineSession(ctx);
  for (;;) {
    const page: { id: string; topic: string; payload: string; receivedAt: Date }[] = await ctx.db.webhookDelivery.findMany({
      where: {
        shop: ctx.shop,
        processedAt: null,
        ...(after && { OR: [{ receivedAt: { gt: after.receivedAt } }, { receivedAt: after.receivedAt, id: { gt: after.id } }] }),
      },
      orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
      take: DELIVERIES_PER_READ,
      select: { id: true, topic: true, payload: true, receivedAt: true },
    });
    for (const delivery of page) {
      if (signal?.aborted) return true;
      try {
        const payload: unknown = JSON.parse(delivery.payload);
        const appTopic = APP_TOPICS[delivery.topic];
        if (appTopic) {
          await appTopic.act(ctx, payload);
          await markProcessed(ctx, [delivery.id]);
          mirrorKept = await hasOfflineSession(ctx);
          continue;
        }
        // Without an offline session (the app was uninstalled) there is no mirror to keep current.
        const orderId = mirrorKept ? await orderIdOfWebhook(ctx, delivery.topic, payload) : null;
        const coalesced = orderId === null ? null : byOrder.get(orderId);
        if (orderId !== null && !coalesced && byOrder.size >= ORDERS_PER_RUN) {
          left = true;
          continue;
        }
        await stopTrackingFromWebhook(ctx, delivery.topic, payload, delivery.receivedAt);
        if (orderId === null) await markProcessed(ctx, [delivery.id]);
        else if (coalesced) coalesced.push(delivery.id);
        else byOrder.set(orderId, [delivery.id]);
      } catch (error) {
        failures.push(error);
      }
    }
    if (page.length < DELIVERIES_PER_READ) break;
    after = page.at(-1)!;
  }
  for (const [orderId, deliveryIds] of byOrder) {
    if (signal?.aborted) return true;
    try {
      if (mirrorKept) await refreshOrder(ctx, orderId);
      await markProcessed(ctx, deliveryIds);
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw new DeliveriesFailedError(failures);
  return left;
}

/** Marks deliveries processed at `ctx.now()`; updateMany, as a shop/redact may have erased the shop's deliveries with the rest of its data. */
async function markProcessed(ctx: Pick<Context, "db" | "now">, ids: readonly string[]): Promise<void> {
  await writeByIds(ctx, ids, (chunk) => ctx.db.webhookDelivery.updateMany({ where: { id: { in: chunk } }, data: { processedAt: ctx.now() } }));
}

/**
 * Sends the delivery job of every shop with deliveries recorded and not processed (app/recorded-work.server.ts: at
 * start, as the in-process queue keeps nothing across a restart, and every minute, for a shop whose job gave up);
 * answers how many shops.
 */
export async function resumeWebhookDeliveries(services: Pick<JobServices, "db" | "jobs">): Promise<number> {
  const shops = await services.db.webhookDelivery.findMany({ where: { processedAt: null }, distinct: ["shop"], select: { shop: true } });
  for (const { shop } of shops) await services.jobs.send(webhookDeliveryJob, { shop });
  return shops.length;
}

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
 * shop's webhook-deliveries job does the rest; a redelivered id is acknowledged and does nothing.
 */
async function receive(
  ctx: Pick<Context, "db" | "shop" | "now" | "jobs">,
  delivery: WebhookDelivery,
  takes: (topic: string) => boolean,
  check: (topic: string, payload: unknown) => void,
): Promise<DeliveryReceipt> {
  if (!takes(delivery.topic)) return { ok: false, message: `Unexpected topic ${delivery.topic}` };
  check(delivery.topic, delivery.payload);
  if (await recordDelivery(ctx, delivery)) await ctx.jobs.send(webhookDeliveryJob, { shop: ctx.shop });
  return { ok: true };
}

/** orders/*, fulfillment_orders/*, fulfillments/*. */
export function receiveOrderDelivery(ctx: Pick<Context, "db" | "shop" | "now" | "jobs">, delivery: WebhookDelivery): Promise<DeliveryReceipt> {
  return receive(ctx, delivery, mirrorFollowsTopic, (topic, payload) => void webhookSubject(topic, payload));
}

/** A route's receiver for app topics (`topics`, each checked against its shape in APP_TOPICS). */
function receiveAppTopics(topics: ReadonlySet<string>) {
  return (ctx: Pick<Context, "db" | "shop" | "now" | "jobs">, delivery: WebhookDelivery): Promise<DeliveryReceipt> =>
    receive(
      ctx,
      delivery,
      (topic) => topics.has(topic),
      (topic, payload) => APP_TOPICS[topic]!.check(payload),
    );
}

/** app/uninstalled and app/scopes_update. */
export const receiveAppDelivery = receiveAppTopics(LIFECYCLE_TOPICS);

/** returns/* and reverse_deliveries/attach_deliverable. */
export const receiveReturnDelivery = receiveAppTopics(RETURN_TOPICS);

/** customers/data_request, customers/redact, shop/redact. */
export const receiveComplianceDelivery = receiveAppTopics(COMPLIANCE_TOPICS);
