import prisma from "./db.server";
import { syncOrderFromWebhook } from "./orders/webhook-sync.server";
import { authenticate } from "./shopify.server";
import { stopTrackingFromWebhook } from "./tracking/stops.server";

/**
 * Verifies a webhook's HMAC (authenticate.webhook answers 401 itself when it is wrong) and records its
 * arrival. Topic handlers that act on the payload build on it.
 */
export async function receiveWebhook(request: Request) {
  const webhook = await authenticate.webhook(request);
  console.info(JSON.stringify({ msg: "webhook received", shop: webhook.shop, topic: webhook.topic, webhookId: webhook.webhookId }));
  return webhook;
}

/**
 * orders/*, fulfillment_orders/*, fulfillments/*: stops tracking what was cancelled, and re-reads the order
 * into the mirror. Without an offline session (the app was uninstalled) there is nothing to keep current.
 */
export async function receiveOrderWebhook(request: Request): Promise<Response> {
  const { admin, session, shop, topic, payload } = await receiveWebhook(request);
  await stopTrackingFromWebhook(prisma, shop, topic, payload);
  if (!admin || !session) return new Response();
  await syncOrderFromWebhook({ admin, shop: session.shop }, prisma, topic, payload);
  return new Response();
}
