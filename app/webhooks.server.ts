import prisma from "./db.server";
import { mirrorFollowsTopic, syncOrderFromWebhook } from "./orders/webhook-sync.server";
import { authenticate } from "./shopify.server";
import { stopTrackingFromWebhook } from "./tracking/stops.server";
import { WebhookPayloadError } from "./webhook-payload";

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
 * orders/*, fulfillment_orders/*, fulfillments/*: stops tracking what was cancelled, and re-reads the order
 * into the mirror. Without an offline session (the app was uninstalled) there is nothing to keep current.
 */
export async function receiveOrderWebhook(request: Request): Promise<Response> {
  const { admin, session, shop, topic, payload } = await receiveWebhook(request);
  if (!mirrorFollowsTopic(topic)) return unexpectedTopic(topic);
  await stopTrackingFromWebhook(prisma, shop, topic, payload);
  if (!admin || !session) return new Response();
  return handleWebhookPayload(async () => {
    await syncOrderFromWebhook({ admin, shop: session.shop }, prisma, topic, payload);
    return new Response();
  });
}
