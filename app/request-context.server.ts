import { json } from "@remix-run/node";
import { InvalidShopError, ShopifyError } from "@shopify/shopify-api";
import type { Context } from "./context";
import { contextFor } from "./context.server";
import { requireAccount } from "./settings/require-account.server";
import { withShipping, type ShippingContext } from "./shipping/context.server";
import { authenticate } from "./shopify.server";
import { nonFiniteNumberField, WebhookPayloadError } from "./webhooks/webhook-payload";
import { FLOW_ACTION_BODY_LIMIT, WEBHOOK_BODY_LIMIT, WEBHOOK_BYTES_IN_FLIGHT } from "./body-limits";
import { config } from "./config.server";
import { flowSignatureValid } from "./flow/flow-signature";
import { BodyBudget, readBoundedBody, withBudgetedBody } from "./request-body.server";
import { discardBody } from "./posted-form.server";
import { jsonCostProblem } from "../lib/json-cost";
import { isPossibleShopDomain } from "./shopify/shop-domain";
import type { DeliveryReceipt, WebhookDelivery } from "./webhooks/webhooks.server";

const notAShop = () => json({ error: "The session token's dest is not a Shopify shop. Open Consign from your Shopify admin." }, { status: 401 });

/**
 * What the library throws, rather than answers, for an admin request from outside it cannot act on, as the
 * 4xx it is: a session token whose `dest` is not a shop's address (401), an exit-iframe destination on
 * another host (400). Null for anything else.
 */
function refusalOfAdminRequest(error: unknown): Response | null {
  const notAUrl = error instanceof TypeError && (error as TypeError & { code?: string }).code === "ERR_INVALID_URL";
  if (error instanceof InvalidShopError || notAUrl) return notAShop();
  if (error instanceof ShopifyError && /exit-iframe/i.test(error.message)) {
    return json({ error: "exitIframe must be an address of this app or of your Shopify admin." }, { status: 400 });
  }
  return null;
}

/** authenticate.admin, with what it throws for input from outside answered as a 4xx (see refusalOfAdminRequest), never a 500. */
export async function authenticateAdmin(request: Request): ReturnType<typeof authenticate.admin> {
  let admin: Awaited<ReturnType<typeof authenticate.admin>>;
  try {
    admin = await authenticate.admin(request);
  } catch (thrown) {
    throw refusalOfAdminRequest(thrown) ?? thrown;
  }
  if (!isPossibleShopDomain(admin.session.shop)) throw notAShop();
  return admin;
}

/**
 * A customer account extension's request (the order status page): its session token verified as the library
 * verifies one (signed with the app's secret, not expired), then read for the shop (`dest`, the shop's domain)
 * and the signed-in customer (`sub`, a Customer GID). A token without a customer, or whose `dest` is no shop,
 * is 401 like a bad one: the extension asks only once the customer is signed in.
 */
export async function authenticateCustomer(request: Request): Promise<{ shop: string; customerId: string; cors: (response: Response) => Response }> {
  const { sessionToken, cors } = await authenticate.public.customerAccount(request);
  const shop = String(sessionToken.dest ?? "")
    .replace(/^https?:\/\//, "")
    .split("/")[0]!;
  const customerId = typeof sessionToken.sub === "string" ? sessionToken.sub : "";
  if (!/^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+$/i.test(shop) || !isPossibleShopDomain(shop))
    throw cors(json({ error: "The session token's dest is not a Shopify shop." }, { status: 401 }));
  if (!/^gid:\/\/shopify\/Customer\/\d{1,20}$/.test(customerId))
    throw cors(json({ error: "Sign in to your customer account to see your parcel's tracking." }, { status: 401 }));
  return { shop, customerId, cors };
}

/**
 * The action of a route the admin's extensions read with GET (the order-details block's data, the print
 * actions' documents): the CORS preflight (OPTIONS) is answered inside authenticate.admin; any other method is
 * 405, its body read (up to what the address takes) so the client's connection stays usable.
 */
export async function extensionGetOnly({ request }: { request: Request }): Promise<Response> {
  const { cors } = await authenticateAdmin(request);
  await discardBody(request);
  return cors(json({ error: "Only GET is served here." }, { status: 405, headers: { allow: "GET, OPTIONS" } }));
}

/**
 * The routes' one helper for what their domain function needs: the authenticated admin request and the
 * shop's Context (its Shopify gateway is the request's admin).
 */
export async function adminContext(request: Request): Promise<{ ctx: Context; redirect: (url: string) => Response }> {
  const { admin, session, redirect } = await authenticateAdmin(request);
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

/**
 * The Shopify Flow routes' one helper (its action's requests, its trigger lifecycle callbacks; docs/decisions/043,
 * 047), before anything else: a method other than POST is answered 405 with `says` (what the address takes), the body
 * is bounded (413 past FLOW_ACTION_BODY_LIMIT, thrown, the rest unread), then its HMAC is verified over the bytes read
 * (401). Answers the body's text (a byte order mark kept, which no JSON parser takes), or the refusal to answer with.
 */
export async function signedFlowBody(request: Request, says: string): Promise<string | Response> {
  if (request.method !== "POST") return json({ message: says }, { status: 405, headers: { allow: "POST" } });
  const body = await readBoundedBody(request, FLOW_ACTION_BODY_LIMIT);
  if (!flowSignatureValid(body, request.headers.get("x-shopify-hmac-sha256"), config().SHOPIFY_API_SECRET)) {
    return json({ message: "The request is not signed by Shopify Flow for this app." }, { status: 401 });
  }
  // A byte order mark is kept, so a body that starts with one is not JSON (RFC 8259: JSON is sent without one), as
  // for the webhooks.
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(body);
}

/** A refusal of a signed delivery Consign cannot act on, in words (Shopify shows them in the app's webhook log). */
function refuseDelivery(message: string): Response {
  return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** The webhook bodies being read, before their HMAC is checked, against what the app may hold of them at once. */
const webhookBodies = new BodyBudget(WEBHOOK_BYTES_IN_FLIGHT);

/** Webhook payloads nest a few levels (an order's tax line's price set is 6 deep); a deeper one is not Shopify's. */
const WEBHOOK_JSON_LIMITS = { maxDepth: 64, maxStringChars: WEBHOOK_BODY_LIMIT };

/**
 * The webhook routes' one helper. The body is bounded before its HMAC is checked (413 over
 * {@link WEBHOOK_BODY_LIMIT}, unread; 503 while the webhook bodies being read fill their budget) and a body
 * nested deeper than a payload is refused with 400 before it is parsed; then authenticate.webhook verifies
 * the HMAC over the bounded body (401 when it is wrong; a signed body that is not JSON, a shop domain that is
 * not a shop or a number JSON cannot hold are refused with 400), the arrival is logged, and the delivery is
 * handed with the shop's Context to `receive` (app/webhooks/webhooks.server.ts). What that refuses, and a payload
 * without its topic's shape, is answered 400 in words; what it received, 200.
 */
export function webhookResponse(request: Request, receive: (ctx: Context, delivery: WebhookDelivery) => Promise<DeliveryReceipt>): Promise<Response> {
  if (request.method !== "POST") throw new Response("Webhooks are delivered with POST", { status: 405, headers: { allow: "POST" } });
  return withBudgetedBody(request, WEBHOOK_BODY_LIMIT, webhookBodies, async (body) => {
    const costly = jsonCostProblem(new TextDecoder().decode(body), WEBHOOK_JSON_LIMITS);
    if (costly) throw refuseDelivery(costly);
    let webhook: Awaited<ReturnType<typeof authenticate.webhook>>;
    try {
      webhook = await authenticate.webhook(new Request(request.url, { method: "POST", headers: request.headers, body }));
    } catch (error) {
      if (error instanceof SyntaxError) throw refuseDelivery("The webhook body is not JSON");
      if (error instanceof InvalidShopError) throw refuseDelivery("X-Shopify-Shop-Domain is not a shop's domain");
      throw error;
    }
    const { shop, topic, payload, webhookId } = webhook;
    if (!isPossibleShopDomain(shop)) throw refuseDelivery("X-Shopify-Shop-Domain is not a shop's domain");
    const outOfRange = nonFiniteNumberField(payload);
    if (outOfRange !== null) throw refuseDelivery(`${outOfRange || "The payload"}: the number is larger than a number Shopify sends`);
    const ctx = contextFor(shop);
    ctx.log.info({ topic, webhookId }, "webhook received");
    try {
      const receipt = await receive(ctx, { webhookId, topic, payload });
      return receipt.ok ? new Response() : refuseDelivery(receipt.message);
    } catch (error) {
      if (error instanceof WebhookPayloadError) return refuseDelivery(error.message);
      throw error;
    }
  });
}
