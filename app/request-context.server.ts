import type { Context } from "./context";
import { contextFor } from "./context.server";
import { requireAccount } from "./settings/require-account.server";
import { withShipping, type ShippingContext } from "./shipping/context.server";
import { authenticate } from "./shopify.server";
import { WebhookPayloadError } from "./webhook-payload";
import type { DeliveryReceipt, WebhookDelivery } from "./webhooks.server";

/**
 * The routes' one helper for what their domain function needs: the authenticated admin request and the
 * shop's Context (its Shopify gateway is the request's admin).
 */
export async function adminContext(request: Request): Promise<{ ctx: Context; redirect: (url: string) => Response }> {
  const { admin, session, redirect } = await authenticate.admin(request);
  return { ctx: contextFor(session.shop, { shopify: { admin, shop: session.shop } }), redirect: (url: string) => redirect(url) };
}

/**
 * For the batches, booking and shipments pages: adminContext with the Shipping API gateway open; without a
 * Shipping API account the merchant is sent to onboarding (thrown redirect).
 */
export async function requestContext(request: Request): Promise<{ ctx: ShippingContext; redirect: (url: string) => Response }> {
  const { ctx, redirect } = await adminContext(request);
  await requireAccount(ctx, request);
  return { ctx: await withShipping(ctx), redirect };
}

/** A refusal of a signed delivery Consign cannot act on, in words (Shopify shows them in the app's webhook log). */
function refuseDelivery(message: string): Response {
  return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * The webhook routes' one helper: verifies the delivery's HMAC (authenticate.webhook answers 401 itself when
 * it is wrong; a signed body that is not JSON is refused with 400, as the library parses it after checking the
 * HMAC), logs its arrival, and hands it with the shop's Context to `receive` (app/webhooks.server.ts). What that
 * refuses, and a payload without its topic's shape, is answered 400 in words; what it received, 200.
 */
export async function webhookResponse(request: Request, receive: (ctx: Context, delivery: WebhookDelivery) => Promise<DeliveryReceipt>): Promise<Response> {
  let webhook: Awaited<ReturnType<typeof authenticate.webhook>>;
  try {
    webhook = await authenticate.webhook(request);
  } catch (error) {
    if (error instanceof SyntaxError) throw refuseDelivery("The webhook body is not JSON");
    throw error;
  }
  const { shop, topic, payload, webhookId } = webhook;
  console.info(JSON.stringify({ msg: "webhook received", shop, topic, webhookId }));
  try {
    const receipt = await receive(contextFor(shop), { webhookId, topic, payload });
    return receipt.ok ? new Response() : refuseDelivery(receipt.message);
  } catch (error) {
    if (error instanceof WebhookPayloadError) return refuseDelivery(error.message);
    throw error;
  }
}
