import { randomUUID } from "node:crypto";
import { signWebhookBody } from "../../devstore/webhooks/dispatcher";

/** A webhook request signed and headed as Shopify sends it, for calling the app's webhook routes. */
export function signedWebhook(options: { path: string; topic: string; shop: string; payload: unknown; secret: string; webhookId?: string }): Request {
  const body = JSON.stringify(options.payload);
  return new Request(`http://localhost:3000${options.path}`, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": options.topic,
      "X-Shopify-Shop-Domain": options.shop,
      "X-Shopify-API-Version": "2026-10",
      "X-Shopify-Webhook-Id": options.webhookId ?? randomUUID(),
      "X-Shopify-Hmac-Sha256": signWebhookBody(body, options.secret),
    },
  });
}
