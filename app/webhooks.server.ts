import { authenticate } from "./shopify.server";

/**
 * Verifies a webhook's HMAC (authenticate.webhook answers 401 itself when it is wrong) and records its
 * arrival. Topic handlers that act on the payload (order mirror, fulfillment links, compliance) build on it.
 */
export async function receiveWebhook(request: Request) {
  const webhook = await authenticate.webhook(request);
  console.info(JSON.stringify({ msg: "webhook received", shop: webhook.shop, topic: webhook.topic, webhookId: webhook.webhookId }));
  return webhook;
}
