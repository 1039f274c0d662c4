import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import fc from "fast-check";
import { SignJWT } from "jose";
import { z } from "zod";
import { signWebhookBody } from "../../devstore/webhooks/dispatcher";
import type { LocalAdmin } from "../../devstore/server";
import { DataRequestPayload, CustomerRedactPayload } from "../../app/webhooks/compliance.server";
import { FulfillmentOrderPayload, FulfillmentPayload, OrderPayload } from "../../app/webhooks/webhook-sync.server";
import { ScopesUpdatePayload } from "../../app/webhooks/shop-lifecycle.server";
import { returnPayloadSchema } from "../../app/returns/returns.server";
import { SettingsForm } from "../../app/settings/settings-form";
import { RuleForm } from "../../app/automation/rule-form";
import { PresetForm } from "../../app/automation/presets-page.server";
import { ConnectForm } from "../../app/settings/onboarding-form";
import { FlowActionRequest } from "../../app/flow/flow-action.server";
import { TRIGGER_NAMES } from "../../app/signals/flow-triggers";
import { parseTriggerLifecycle, TriggerLifecycleCallback } from "../../app/signals/trigger-workflows.server";
import { connectTestAccount } from "../support/account";
import { TEST_API_KEY, TEST_API_SECRET } from "../support/app-env";
import { type KeepAliveClient, type ProbeResponse, createKeepAliveClient, rawExchange } from "../support/http-probe";
import { BROWSER_USER_AGENT, STACK_SHOP, type Stack } from "../support/stack";
import {
  BAD_IDS,
  FuzzFailure,
  type FuzzRunOptions,
  HOSTILE_FORM_VALUES,
  JSON_MUTATION_KINDS,
  type FuzzRunSummary,
  ODD_CONTENT_TYPES,
  STRANGE_STRINGS,
  badJsonTexts,
  clip,
  jsonMutations,
  rawRequests,
  runSeeded,
} from "./fuzz-kit";
import { type DeriveOptions, arbitraryFor, validArbitrary } from "./zod-arbitrary";

/**
 * The app's fuzz suite (docs/decisions/009, issue 28): requests to every route of the built app (webhooks,
 * every page's loader and action, the order block's data route, auth, the public tracking page), derived from
 * the app's own zod schemas where it has them (webhook payloads, the Settings and onboarding forms) and
 * mutated the ways a hostile or broken client would, sent over HTTP to the app in production mode with the
 * real local admins (two connected shops, A and B) and the real Shipping API service beside it. Each answer
 * is checked against what the internet may rely on:
 * - never a 5xx, and no stack trace or internal path in any answer;
 * - no connection reset or left hanging under a client that honours `Connection` (one pooled keep-alive
 *   connection), and a hostile request followed by a normal one on the same connection has both answered;
 * - a request that must be refused (a bad HMAC, a payload without its topic's shape, a session token that is
 *   forged, expired, for another audience, shop or `dest`) is never answered 2xx, and what is refused writes
 *   nothing: the app's tables are the same before and after (row hashes);
 * - shop A's session token on shop B's records changes none of B's rows and answers nothing of B.
 */

export const SHOP_A = STACK_SHOP;
export const SHOP_B = "consign-fuzz-b.myshopify.com";
/** A shop that never installed the app: the destructive topics (uninstall, redact) are sent for it alone. */
const GONE_SHOP = "gone-away.myshopify.com";

/** One connected shop's records, as the fuzz names them in paths and forms. */
interface ShopRecords {
  shop: string;
  admin: LocalAdmin;
  customerId: string;
  email: string;
  runId: string;
  batchId: string;
  shipmentIds: string[];
}

export interface AppFuzzWorld {
  stack: Stack;
  /** The app's database, read-only. */
  db: Database.Database;
  a: ShopRecords;
  b: ShopRecords;
}

// ---------------------------------------------------------------------------------------------------------
// The world: two shops past onboarding, each with a quote run and a batch made through the app's own pages

async function embedded(stack: Stack, admin: LocalAdmin, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${await admin.mintSessionToken()}`);
  headers.set("user-agent", BROWSER_USER_AGENT);
  return fetch(`${stack.app.url}${path}`, { ...init, headers, redirect: "manual" });
}

async function waitFor<T>(what: string, read: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`the fuzz world's set-up: ${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Connects the shop's account, opens the app (installs it, fills the mirror), quotes two orders and batches them, all as a merchant would. */
async function prepareShop(stack: Stack, db: Database.Database, shop: string, admin: LocalAdmin): Promise<ShopRecords> {
  const { customerId, email } = await connectTestAccount({
    serviceUrl: stack.service.url,
    partnerKey: stack.service.partnerKey,
    databaseUrl: stack.app.databaseUrl,
    shop,
  });
  const opened = await embedded(stack, admin, "/app?_data=routes%2Fapp._index");
  if (opened.status !== 200) throw new Error(`opening the app for ${shop} answered ${opened.status}: ${await opened.text()}`);
  await waitFor(`${shop}'s order mirror`, () =>
    (db.prepare(`SELECT COUNT(*) AS n FROM "MirrorOrder" WHERE shop = ?`).get(shop) as { n: number }).n > 1 ? true : undefined,
  );
  const orders = db.prepare(`SELECT id FROM "MirrorOrder" WHERE shop = ? ORDER BY id LIMIT 2`).all(shop) as { id: string }[];
  const quoted = await embedded(stack, admin, `/app/quotes/new?${new URLSearchParams(orders.map((order) => ["ids[]", order.id]))}`);
  const runId = /\/app\/quotes\/(\w+)/.exec(quoted.headers.get("location") ?? "")?.[1];
  if (!runId) throw new Error(`starting a quote run for ${shop} answered ${quoted.status} ${await quoted.text()}`);
  const shipmentIds = await waitFor(`${shop}'s quotes`, () => {
    const rows = db.prepare(`SELECT id FROM "Shipment" WHERE shop = ? AND "runId" = ? AND "selectedQuoteId" IS NOT NULL`).all(shop, runId) as {
      id: string;
    }[];
    return rows.length >= 1 ? rows.map((row) => row.id) : undefined;
  });
  const batched = await embedded(stack, admin, "/app/batches/new?_data=routes%2Fapp.batches.new", {
    method: "POST",
    body: new URLSearchParams([["name", `Fuzz ${shop}`], ...shipmentIds.map((id) => ["shipmentIds", id])]),
  });
  const batchId = /\/app\/batches\/(\w+)/.exec(batched.headers.get("x-remix-redirect") ?? "")?.[1];
  if (!batchId) throw new Error(`creating a batch for ${shop} answered ${batched.status} ${await batched.text()}`);
  return { shop, admin, customerId, email, runId, batchId, shipmentIds };
}

/** Sets up the world on a stack started with `otherShops: [SHOP_B]`. */
export async function prepareAppWorld(stack: Stack): Promise<AppFuzzWorld> {
  const adminB = stack.otherAdmins.get(SHOP_B);
  if (!adminB) throw new Error(`the app fuzz needs a stack started with otherShops: ["${SHOP_B}"]`);
  const db = new Database(new URL(stack.app.databaseUrl.replace(/^file:/, "file://")).pathname, { readonly: true });
  // B first: the two local admins are seeded alike, so their orders have the same ids (real Shopify's ids are
  // global), and the mirror never lets one shop's write take another shop's row. Once B's records are made
  // (its run, shipments and batch stay), B's mirror is cleared so that A's sync fills it; the fuzz reads A's.
  const b = await prepareShop(stack, db, SHOP_B, adminB);
  const writable = new Database(new URL(stack.app.databaseUrl.replace(/^file:/, "file://")).pathname);
  try {
    writable.prepare(`DELETE FROM "MirrorFulfillmentOrder" WHERE shop = ?`).run(SHOP_B);
    writable.prepare(`DELETE FROM "MirrorOrder" WHERE shop = ?`).run(SHOP_B);
  } finally {
    writable.close();
  }
  const a = await prepareShop(stack, db, SHOP_A, stack.admin);
  return { stack, db, a, b };
}

// ---------------------------------------------------------------------------------------------------------
// Requests

type TokenKind = "valid" | "none" | "forged" | "expired" | "not yet valid" | "other shop" | "wrong audience" | "bad dest" | "alg none" | "garbage";

const BAD_DESTS = [
  "https://evil.example.com",
  "not a url",
  "https://consign-e2e.myshopify.com.evil.example",
  "",
  "javascript:alert(1)",
  `https://${"a".repeat(300)}.myshopify.com`,
  "https://consign-e2e.myshopify.com:99999",
  "https://%00.myshopify.com",
];

interface Signing {
  secret: "app" | "wrong" | "none" | "other body" | "garbage";
}

export interface AppRequest {
  /** The route module the request is for (`routes/app.batches.$id`), or `raw`. */
  route: string;
  method: string;
  /** Path and query, already percent-encoded (mutations may break the encoding). */
  path: string;
  headers: Record<string, string>;
  /** The session token sent as `Authorization: Bearer` (minted when sent), for the app's embedded routes. */
  token?: TokenKind;
  /** The claim a `bad dest` token carries. */
  dest?: string;
  /** How a webhook body is signed (X-Shopify-Hmac-Sha256, computed when sent). */
  signing?: Signing["secret"];
  body?: string;
  /** Bytes for a raw socket (requests an HTTP client would not send). */
  raw?: string;
  mutation: string;
  /** Wrong whatever the app's state: never answered 2xx, and nothing written. */
  mustRefuse: boolean;
  /** Shop A's token names shop B's records: none of B's rows may change, nothing of B may be answered. */
  otherShop: boolean;
  /** A normal request follows on the same connection and must be answered. */
  pair: boolean;
}

const base = (request: Partial<AppRequest> & Pick<AppRequest, "route" | "method" | "path" | "mutation">): AppRequest => ({
  headers: {},
  mustRefuse: false,
  otherShop: false,
  pair: false,
  ...request,
});

// Webhooks --------------------------------------------------------------------------------------------------

interface Topic {
  path: string;
  topic: string;
  schema: z.ZodType;
  /** Destructive for the shop it names (uninstall, redact): sent for a shop that never installed the app. */
  destructive?: boolean;
  /** The app does not read the payload (it acts on the shop alone): any JSON is taken. */
  payloadUnread?: boolean;
}

/**
 * The part of a returns topic's payload the app reads: the app's own schema (app/returns/returns.server.ts
 * returnPayloadSchema), the return it names (ShopifyId("Return"): a positive number or digits). What else Shopify sends
 * (admin_graphql_api_id) is not read, so whatever it holds is no reason to refuse a delivery.
 */
const ReturnPayload = returnPayloadSchema("RETURNS_REQUEST");
const ReverseDeliveryPayload = returnPayloadSchema("REVERSE_DELIVERIES_ATTACH_DELIVERABLE");

/** What Shopify sends with app/uninstalled and shop/redact (the app reads neither: it acts on the shop). */
const ShopPayload = z.object({ shop_id: z.number().int().positive(), shop_domain: z.string() });

const TOPICS: readonly Topic[] = [
  ...["orders/create", "orders/updated", "orders/cancelled", "orders/fulfilled", "orders/paid"].map((topic) => ({
    path: "/webhooks/orders",
    topic,
    schema: OrderPayload,
  })),
  ...["fulfillments/create", "fulfillments/update"].map((topic) => ({ path: "/webhooks/fulfillments", topic, schema: FulfillmentPayload })),
  ...["fulfillment_orders/placed_on_hold", "fulfillment_orders/moved", "fulfillment_orders/cancelled", "fulfillment_orders/split"].map((topic) => ({
    path: "/webhooks/fulfillment-orders",
    topic,
    schema: FulfillmentOrderPayload,
  })),
  ...["returns/request", "returns/approve", "returns/decline", "returns/cancel", "returns/close"].map((topic) => ({
    path: "/webhooks/returns",
    topic,
    schema: ReturnPayload,
  })),
  { path: "/webhooks/returns", topic: "reverse_deliveries/attach_deliverable", schema: ReverseDeliveryPayload },
  { path: "/webhooks/app", topic: "app/scopes_update", schema: ScopesUpdatePayload },
  { path: "/webhooks/app", topic: "app/uninstalled", schema: ShopPayload, destructive: true, payloadUnread: true },
  { path: "/webhooks/compliance", topic: "customers/data_request", schema: DataRequestPayload },
  { path: "/webhooks/compliance", topic: "customers/redact", schema: CustomerRedactPayload, destructive: true },
  { path: "/webhooks/compliance", topic: "shop/redact", schema: ShopPayload, destructive: true, payloadUnread: true },
];

const ORDER_IDS = fc.constantFrom<unknown>(1001, 1002, "1003", "gid://shopify/Order/1001", 424242);

const webhookDerive: DeriveOptions = {
  hints: {
    admin_graphql_api_id: fc.constantFrom("gid://shopify/Order/1001", "gid://shopify/Order/1002"),
    order_id: ORDER_IDS,
    id: fc.constantFrom<unknown>(1001, 1002, "1", 77),
    shop_domain: fc.constant(SHOP_A),
    email: fc.constantFrom("someone@example.com", null),
    phone: fc.constantFrom(null, "+15555550100"),
  },
  maxArray: 3,
};

const ODD_SHOP_DOMAINS = ["", "not a shop", "evil.example.com", `${"a".repeat(300)}.myshopify.com`, "../../etc", "%00.myshopify.com", GONE_SHOP];

/**
 * A signed JSON request's mutations that webhooks and Flow's action share: the body mutated (refused unless
 * `accepts` takes what it parses to) or not JSON at all, the signature wrong or missing, another content type,
 * another method. `withBody` is a body in place of the request's, refused as `accepts` says.
 */
function signedJsonMutations(
  request: AppRequest,
  value: unknown,
  accepts: (parsed: unknown) => boolean,
): { withBody: (body: string, mutation: string) => AppRequest; mutations: fc.Arbitrary<AppRequest>[] } {
  const shapeOk = (text: string): boolean => {
    try {
      return accepts(JSON.parse(text));
    } catch {
      return false;
    }
  };
  const withBody = (body: string, mutation: string): AppRequest => ({ ...request, body, mutation, mustRefuse: !shapeOk(body) });
  return {
    withBody,
    mutations: [
      ...jsonMutations(value).map((arbitrary) => arbitrary.map(({ body, bodyText, mutation }) => withBody(bodyText ?? JSON.stringify(body) ?? "", mutation))),
      fc.constantFrom(...badJsonTexts(request.body!)).map((text) => ({ ...request, body: text, mutation: "bad JSON", mustRefuse: true })),
      fc
        .constantFrom<Signing["secret"]>("wrong", "none", "other body", "garbage")
        .map((signing) => ({ ...request, signing, mutation: `signature ${signing}`, mustRefuse: true })),
      fc
        .constantFrom(...ODD_CONTENT_TYPES)
        .map((type) => ({ ...request, headers: { ...request.headers, "content-type": type }, mutation: `content type ${JSON.stringify(type)}` })),
      fc.constantFrom("GET", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "HEAD").map((method) => ({
        ...request,
        method,
        body: ["GET", "HEAD", "TRACE"].includes(method) ? undefined : request.body,
        mutation: `method ${method}`,
        mustRefuse: true,
      })),
    ],
  };
}

function webhookRequest(topic: Topic): fc.Arbitrary<AppRequest> {
  const payload = validArbitrary(topic.schema, webhookDerive);
  const valid = fc.record({ payload, webhookId: fc.uuid(), pair: fc.integer({ min: 0, max: 5 }) }).map(({ payload: value, webhookId, pair }) => ({
    value,
    request: base({
      route: `webhook ${topic.path}`,
      method: "POST",
      path: topic.path,
      headers: {
        "content-type": "application/json",
        "x-shopify-topic": topic.topic,
        "x-shopify-shop-domain": topic.destructive ? GONE_SHOP : SHOP_A,
        "x-shopify-api-version": "2026-10",
        "x-shopify-webhook-id": webhookId,
        "x-shopify-triggered-at": new Date(0).toISOString(),
      },
      signing: "app",
      body: JSON.stringify(value),
      mutation: "none",
      pair: pair === 0,
    }),
  }));
  return valid.chain(({ value, request }) => {
    const { withBody, mutations } = signedJsonMutations(request, value, (parsed) => topic.payloadUnread === true || topic.schema.safeParse(parsed).success);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(request) },
      ...[
        ...mutations,
        fc.constantFrom(300_000, 3_000_000, 12_000_000).map((size) => ({
          ...withBody(JSON.stringify({ ...(value as object), padding: "x".repeat(size) }), `body of ${size} bytes`),
          pair: true,
        })),
        fc.tuple(fc.constantFrom<Signing["secret"]>("app", "wrong"), fc.constantFrom(300_000, 3_000_000)).map(([signing, size]) => ({
          ...withBody(`${"[".repeat(size / 2)}${"]".repeat(size / 2)}`, `nesting ${size / 2} deep, whole body`),
          signing,
          mustRefuse: true,
          pair: true,
        })),
        fc
          .tuple(
            fc.constantFrom("x-shopify-topic", "x-shopify-shop-domain", "x-shopify-webhook-id", "x-shopify-api-version", "content-type"),
            fc.constantFrom<string | undefined>(undefined, "", "x/y", "ORDERS_UPDATED", "products/update", "\u00ff", "a".repeat(5_000), ...ODD_SHOP_DOMAINS),
          )
          .filter(
            ([name, odd]) => !(topic.destructive && name === "x-shopify-shop-domain" && odd !== undefined && /myshopify\.com$/i.test(odd) && odd !== GONE_SHOP),
          )
          .map(([name, odd]) => {
            const headers = { ...request.headers };
            if (odd === undefined) delete headers[name];
            else headers[name] = odd;
            return { ...request, headers, mutation: `header ${name} ${JSON.stringify(odd?.slice(0, 30))}`, mustRefuse: headerRefused(topic, name, odd) };
          }),
      ].map((arbitrary) => ({ weight: 2, arbitrary })),
    );
  });
}

// Shopify Flow's action ------------------------------------------------------------------------------------

const FLOW_ACTION_PATH = "/flow/actions/buy-label";

const flowDerive: DeriveOptions = {
  hints: {
    shopify_domain: fc.constantFrom(SHOP_A, SHOP_A, SHOP_B, GONE_SHOP),
    action_run_id: fc.uuid(),
    // Orders no shop has: the action runs (a run recorded, the order quoted and found missing, 422) but books
    // nothing, so no fulfillment and no webhook lands later on another request's watch. Booking is the
    // integration tests' (test/integration/order-tags-flow.test.ts).
    order_id: fc.constantFrom<unknown>(424242, "424243", "gid://shopify/Order/424244", 987654321),
    shop_id: fc.constantFrom<unknown>(1, "1"),
  },
  maxArray: 2,
};

/**
 * A request to one of Flow's routes at `path` with a body of `values`, signed as Flow signs it (the app's secret, as
 * the tests hold it), and mutated after signing is settled: each mutated body is signed too, so the parser's refusals
 * are reached, not only the signature's 401. What `taken` does not take must be refused; a body past the bound of
 * Flow's routes (64 KiB) is refused unread, signed or not.
 */
function signedFlowRequest(path: string, values: fc.Arbitrary<unknown>, taken: (parsed: unknown) => boolean): fc.Arbitrary<AppRequest> {
  return fc.record({ value: values, pair: fc.integer({ min: 0, max: 5 }) }).chain(({ value, pair }) => {
    const request = base({
      route: `flow ${path}`,
      method: "POST",
      path,
      headers: { "content-type": "application/json" },
      signing: "app",
      body: JSON.stringify(value),
      mutation: "none",
      mustRefuse: !taken(value),
      pair: pair === 0,
    });
    const { mutations } = signedJsonMutations(request, value, taken);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(request) },
      ...[
        ...mutations,
        fc.constantFrom(70_000, 3_000_000).map((size) => ({
          ...request,
          body: JSON.stringify({ ...(value as object), padding: "x".repeat(size) }),
          mutation: `body of ${size} bytes`,
          mustRefuse: true,
          pair: true,
        })),
      ].map((arbitrary) => ({ weight: 2, arbitrary })),
    );
  });
}

/**
 * Flow's action request: a body that is not the action's shape must be refused (400); a valid one is told why it
 * could not book (422: no such order, the shop is not connected).
 */
const flowActionRequest = signedFlowRequest(
  FLOW_ACTION_PATH,
  validArbitrary(FlowActionRequest, flowDerive),
  (parsed) => FlowActionRequest.safeParse(parsed).success,
);

// Shopify Flow's trigger lifecycle callback -------------------------------------------------------------------

const FLOW_LIFECYCLE_PATH = "/flow/lifecycle";

const lifecycleDerive: DeriveOptions = {
  hints: {
    // Consign's triggers by handle and by name (both are taken), and one that is not Consign's (refused: 404).
    flow_trigger_definition_id: fc.constantFrom<unknown>(...Object.keys(TRIGGER_NAMES), ...Object.values(TRIGGER_NAMES), "order-created"),
    has_enabled_flow: fc.boolean(),
    shopify_domain: fc.constantFrom(SHOP_A, SHOP_B, GONE_SHOP),
    shop_id: fc.constantFrom<unknown>(1, "1", undefined),
    timestamp: fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true }).map((at) => at.toISOString()),
  },
};

/** What the route takes: the callback's shape and one of Consign's triggers (any other is refused, 400 or 404). */
const lifecycleTaken = (parsed: unknown): boolean => parseTriggerLifecycle(JSON.stringify(parsed) ?? "").ok;

/**
 * Flow's trigger lifecycle callback: a callback for a trigger that is not Consign's is refused (404), as is one not of
 * the callback's shape (400); a valid one is recorded (200), for any shop: the signature is the app's.
 */
const flowLifecycleRequest = signedFlowRequest(FLOW_LIFECYCLE_PATH, validArbitrary(TriggerLifecycleCallback, lifecycleDerive), lifecycleTaken);

/** Whether a delivery with header `name` missing (undefined) or set to `odd` must be refused. */
function headerRefused(topic: Topic, name: string, odd: string | undefined): boolean {
  switch (name) {
    case "x-shopify-shop-domain":
      return odd !== GONE_SHOP;
    case "x-shopify-topic":
      // ORDERS_UPDATED is the topic as the library names it: a route may take it as orders/updated.
      return odd !== "ORDERS_UPDATED" && odd !== topic.topic;
    case "x-shopify-webhook-id":
      return odd === undefined || odd === "";
    default:
      // An odd API version or content type does not change what was signed.
      return false;
  }
}

// Pages -----------------------------------------------------------------------------------------------------

type IdKind = "batch" | "run" | "order" | "tracking" | "auth" | "document" | "fulfillment";

interface PageRoute {
  /** The route module's id, as Remix's `_data` names it. */
  route: string;
  /** The path, with `:id` where the route takes one. */
  path: string;
  id?: IdKind;
  /** What its action reads (none: the route has no action). */
  action?: "form" | "json" | "empty form";
  /** Answers without a session token (public, or the auth flow). */
  public?: boolean;
}

/** Every route module of app/routes/ with its path (the webhook routes are fuzzed above). */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { route: "routes/_index", path: "/", public: true },
  { route: "root", path: "/app" },
  { route: "routes/app", path: "/app" },
  { route: "routes/app._index", path: "/app", action: "empty form" },
  { route: "routes/app.batches._index", path: "/app/batches" },
  { route: "routes/app.batches.new", path: "/app/batches/new", action: "form" },
  { route: "routes/app.batches.$id", path: "/app/batches/:id", id: "batch", action: "form" },
  { route: "routes/app.batches.$id.labels", path: "/app/batches/:id/labels", id: "batch" },
  { route: "routes/app.fulfillments", path: "/app/fulfillments", action: "form" },
  { route: "routes/app.onboarding", path: "/app/onboarding", action: "form" },
  { route: "routes/app.orders.$id.book", path: "/app/orders/:id/book", id: "order", action: "form" },
  { route: "routes/app.orders.$id.label", path: "/app/orders/:id/label", id: "order" },
  { route: "routes/app.orders.$id.price", path: "/app/orders/:id/price", id: "order" },
  { route: "routes/app.orders.matching", path: "/app/orders/matching" },
  { route: "routes/app.overview", path: "/app/overview" },
  { route: "routes/app.overview.export", path: "/app/overview/export" },
  { route: "routes/app.quotes._index", path: "/app/quotes" },
  { route: "routes/app.quotes.new", path: "/app/quotes/new" },
  { route: "routes/app.quotes.$runId", path: "/app/quotes/:id", id: "run", action: "form" },
  { route: "routes/app.quotes.$runId.rates", path: "/app/quotes/:id/rates", id: "run" },
  { route: "routes/app.settings", path: "/app/settings", action: "json" },
  { route: "routes/app.rules", path: "/app/rules", action: "json" },
  { route: "routes/app.presets", path: "/app/presets", action: "json" },
  { route: "routes/app.shipments", path: "/app/shipments", action: "form" },
  { route: "routes/app.returns", path: "/app/returns", action: "form" },
  { route: "routes/api.order-shipments.$id", path: "/api/order-shipments/:id", id: "order", action: "form" },
  { route: "routes/api.printable-orders", path: "/api/printable-orders", action: "form" },
  { route: "routes/api.print.$document", path: "/api/print/:id", id: "document", action: "form" },
  { route: "routes/api.label-runs", path: "/api/label-runs", action: "form" },
  { route: "routes/api.label-runs.$runId", path: "/api/label-runs/:id", id: "run", action: "form" },
  // A customer account's route: the fuzz's admin tokens carry no customer, so even a valid one is refused (401).
  { route: "routes/api.customer-tracking.$fulfillmentId", path: "/api/customer-tracking/:id", id: "fulfillment", action: "form" },
  { route: "routes/auth.$", path: "/auth/:id", id: "auth", public: true },
  { route: "routes/auth.login", path: "/auth/login", action: "form", public: true },
  { route: "routes/tracking.$token", path: "/tracking/:id", id: "tracking", public: true },
  { route: "routes/returns.label.$token", path: "/returns/label/:id", id: "tracking", public: true },
  // Shopify Flow's action unsigned, as a page is sent: bounded, then refused 401 (signed requests: flowActionRequest).
  { route: "routes/flow.actions.buy-label", path: "/flow/actions/buy-label", action: "json", public: true },
  // Flow's trigger lifecycle callback unsigned, as a page is sent: bounded, then refused 401 (signed: flowLifecycleRequest).
  { route: "routes/flow.lifecycle", path: "/flow/lifecycle", action: "json", public: true },
];

/** The route modules the webhook requests cover. */
export const WEBHOOK_ROUTES = [
  "routes/webhooks.app",
  "routes/webhooks.compliance",
  "routes/webhooks.fulfillment-orders",
  "routes/webhooks.fulfillments",
  "routes/webhooks.orders",
  "routes/webhooks.returns",
];

const QUERY_KEYS = [
  "page",
  "after",
  "filter",
  "q",
  "status",
  "find",
  "scope",
  "country",
  "tag",
  "age",
  "quoted",
  "returnTo",
  "shipmentId",
  "quoteId",
  "signatureOptionCode",
  "insuranceAmount",
  "ids[]",
  "ids",
  "orders",
  "id",
  "all",
  "shop",
  "host",
  "embedded",
  "id_token",
  "exitIframe",
  "__proto__",
  "constructor",
];

const HOSTILE_VALUES = [
  ...HOSTILE_FORM_VALUES,
  ...STRANGE_STRINGS,
  "1",
  "2",
  "0.0000001",
  "all",
  "ready",
  "https://evil.example.com/",
  "//evil.example.com",
  "/app/settings",
  "gid://shopify/Order/1001",
  "1001,1002",
  "1001,,1002",
  "customs",
  "rule",
  SHOP_A,
];

const FIELD_NAMES = [
  "intent",
  "name",
  "shipmentIds",
  "shipmentIds[]",
  "shipmentId",
  "id",
  "ids",
  "orderId",
  "customerId",
  "email",
  "password",
  "shop",
  "quoteId",
  "serviceCode",
  "weight",
  "insuranceAmount",
  "overrideManual",
  "__proto__",
  "constructor",
];

function idsOf(world: AppFuzzWorld, kind: IdKind | undefined): { own: string[]; other: string[] } {
  switch (kind) {
    case "batch":
      return { own: [world.a.batchId], other: [world.b.batchId] };
    case "run":
      return { own: [world.a.runId], other: [world.b.runId] };
    case "order":
      return { own: ["1001", "1002"], other: [] };
    case "auth":
      return { own: ["login", "session-token", "exit-iframe", "callback", "shopify"], other: [] };
    case "document":
      return { own: ["labels", "slips", "invoices", "pick-list"], other: [] };
    case "fulfillment":
      return { own: ["1", "2", "4001"], other: [] };
    default:
      return { own: ["not-a-token"], other: [] };
  }
}

// Derived without the refinements' filter: most of what the walker makes breaks a refinement (an email, an address), which is the point here.
const settingsBody = arbitraryFor(SettingsForm, { maxArray: 2 }).map((value) => JSON.stringify(value));
// The rules and presets pages' posts: each intent with a form the walker made, on rules and products of this shop or none.
const rulesBody = fc
  .tuple(
    fc.constantFrom("save", "test", "move", "delete"),
    arbitraryFor(RuleForm, { maxArray: 2 }),
    fc.constantFrom(null, "not-a-rule", "gid://shopify/Order/1001"),
    fc.constantFrom<unknown>("up", "down", 0, -1, 3.5, "sideways"),
  )
  .map(([intent, values, id, to]) => JSON.stringify({ intent, id, ruleId: id, orderId: id ?? "", to, values }));
const presetsBody = fc
  .tuple(
    fc.constantFrom("save", "box"),
    arbitraryFor(PresetForm, { maxArray: 2 }),
    fc.constantFrom("gid://shopify/Product/1", "gid://shopify/ProductVariant/2", "gid://shopify/Order/1001", ""),
    fc.constantFrom<unknown>(null, "Standard box", "No such box", 7),
  )
  .map(([intent, values, targetId, boxName]) =>
    JSON.stringify({ intent, values, boxName, target: { targetId, title: "Mug" }, targets: [{ targetId, title: "Mug" }] }),
  );
const connectForm = arbitraryFor(ConnectForm, { maxArray: 2 }).map((form) => form as Record<string, unknown>);

function formArbitrary(world: AppFuzzWorld): fc.Arbitrary<{ fields: [string, string][]; otherShop: boolean }> {
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_VALUES).map((text) => ({ text, otherShop: false })) },
    { weight: 2, arbitrary: fc.constantFrom(...world.a.shipmentIds, world.a.batchId, world.a.runId).map((text) => ({ text, otherShop: false })) },
    { weight: 2, arbitrary: fc.constantFrom(...world.b.shipmentIds, world.b.batchId, world.b.runId).map((text) => ({ text, otherShop: true })) },
  );
  return fc.oneof(
    fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES), value), { maxLength: 8 }).map((entries) => ({
      fields: entries.map(([name, entry]) => [name, entry.text] as [string, string]),
      otherShop: entries.some(([, entry]) => entry.otherShop),
    })),
    connectForm.map((form) => ({ fields: Object.entries(form).map(([name, text]) => [name, String(text)] as [string, string]), otherShop: false })),
  );
}

function multipart(fields: [string, string][]): { type: string; body: string } {
  const boundary = "----consignfuzz";
  const parts = fields.map(([name, text]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n`);
  return { type: `multipart/form-data; boundary=${boundary}`, body: `${parts.join("")}--${boundary}--\r\n` };
}

function pageRequest(world: AppFuzzWorld, page: PageRoute): fc.Arbitrary<AppRequest> {
  const ids = idsOf(world, page.id);
  const id = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ids.own).map((text) => ({ text, otherShop: false })) },
    ...(ids.other.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...ids.other).map((text) => ({ text, otherShop: true })) }] : []),
    { weight: 2, arbitrary: fc.constantFrom(...BAD_IDS).map((text) => ({ text, otherShop: false })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ text: encodeURIComponent(text), otherShop: false })) },
  );
  const query = fc.dictionary(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...HOSTILE_VALUES), { maxKeys: 4 });
  const token = fc.oneof(
    { weight: 8, arbitrary: fc.constant<TokenKind>("valid") },
    {
      weight: 4,
      arbitrary: fc.constantFrom<TokenKind>("none", "forged", "expired", "not yet valid", "other shop", "wrong audience", "bad dest", "alg none", "garbage"),
    },
  );
  const body = fc.oneof(
    formArbitrary(world).map(({ fields, otherShop }) => ({
      type: "application/x-www-form-urlencoded",
      body: new URLSearchParams(fields).toString(),
      otherShop,
      what: "form",
    })),
    formArbitrary(world).map(({ fields, otherShop }) => ({ ...multipart(fields), otherShop, what: "multipart form" })),
    fc
      .oneof(
        settingsBody,
        rulesBody,
        presetsBody,
        fc.jsonValue().map((json) => JSON.stringify(json)),
      )
      .map((text) => ({ type: "application/json", body: text, otherShop: false, what: "JSON" })),
    fc
      .tuple(fc.constantFrom("{", "intent=create&name=%ZZ", "\u0000\u0001", "a=1&a=2&a[]=3", `--x\r\nbroken`), fc.constantFrom(...ODD_CONTENT_TYPES))
      .map(([text, type]) => ({ type, body: text, otherShop: false, what: `odd body as ${JSON.stringify(type)}` })),
    fc
      .constantFrom(300_000, 3_000_000)
      .map((size) => ({ type: "application/x-www-form-urlencoded", body: `intent=${"x".repeat(size)}`, otherShop: false, what: `form of ${size} bytes` })),
  );
  const methods = page.action
    ? ["POST", "POST", "POST", "GET", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "HEAD"]
    : ["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE"];
  return fc
    .record({
      id,
      query,
      token,
      dest: fc.constantFrom(...BAD_DESTS),
      method: fc.constantFrom(...methods),
      data: fc.constantFrom(true, true, false),
      body,
      pair: fc.integer({ min: 0, max: 5 }),
    })
    .map(({ id: chosen, query: params, token: kind, dest, method, data, body: sent, pair }) => {
      const path = page.path.replace(":id", chosen.text);
      const search = new URLSearchParams(params);
      if (data) search.set("_data", page.route);
      const withBody = method !== "GET" && method !== "HEAD" && method !== "TRACE";
      const headers: Record<string, string> = {};
      if (withBody) headers["content-type"] = sent.type;
      if (page.route.startsWith("routes/api.")) headers.origin = "https://extensions.shopifycdn.com";
      if (method === "OPTIONS") headers["access-control-request-method"] = "GET";
      const otherShop = kind === "valid" && (chosen.otherShop || (withBody && sent.otherShop));
      return base({
        route: page.route,
        method,
        path: `${path}${search.size > 0 ? `?${search}` : ""}`,
        headers,
        token: page.route === "routes/_index" || page.route === "routes/tracking.$token" ? undefined : kind,
        dest: kind === "bad dest" ? dest : undefined,
        body: withBody ? sent.body : undefined,
        mutation: `${page.public ? "public " : ""}${method} ${kind} token${withBody ? `, ${sent.what}` : ""}${chosen.otherShop ? ", shop B's id" : ""}`,
        mustRefuse: !page.public && kind !== "valid",
        otherShop,
        pair: pair === 0 || (sent.body.length > 100_000 && withBody),
      });
    });
}

// Raw bytes -------------------------------------------------------------------------------------------------

const rawRequest: fc.Arbitrary<AppRequest> = fc
  .constantFrom(...rawRequests("/", "/webhooks/orders"))
  .map((raw) => base({ route: "raw", method: "RAW", path: "", raw, mutation: `raw bytes ${JSON.stringify(raw.slice(0, 60))}`, mustRefuse: true }));

/** One fuzz request: a webhook delivery, a page's loader or action, or raw bytes. */
export function appRequestArbitrary(world: AppFuzzWorld): fc.Arbitrary<AppRequest> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...TOPICS).chain(webhookRequest) },
    { weight: 2, arbitrary: flowActionRequest },
    { weight: 1, arbitrary: flowLifecycleRequest },
    { weight: 12, arbitrary: fc.constantFrom(...PAGE_ROUTES).chain((page) => pageRequest(world, page)) },
    { weight: 1, arbitrary: rawRequest },
  );
}

// ---------------------------------------------------------------------------------------------------------
// Sending and judging

const encoder = new TextEncoder();

async function signedToken(claims: { dest: string; aud?: string; ttlSeconds?: number; notBefore?: number }, secret = TEST_API_SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  let iss = claims.dest;
  try {
    iss = `${new URL(claims.dest).origin}/admin`;
  } catch {
    // not a URL: the token carries it as it is
  }
  return new SignJWT({ dest: claims.dest, sid: randomUUID().replace(/-/g, "") })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(iss)
    .setAudience(claims.aud ?? TEST_API_KEY)
    .setSubject("1")
    .setIssuedAt(now)
    .setNotBefore(now + (claims.notBefore ?? 0))
    .setExpirationTime(now + (claims.ttlSeconds ?? 60))
    .setJti(randomUUID())
    .sign(encoder.encode(secret));
}

/** The session token of the kind asked for, minted now: shop A's from its local admin, the hostile ones forged here. */
async function bearer(world: AppFuzzWorld, kind: TokenKind, dest = BAD_DESTS[0]!): Promise<string | null> {
  const admin = world.a.admin;
  switch (kind) {
    case "valid":
      return admin.mintSessionToken();
    case "none":
      return null;
    case "forged":
      return signedToken({ dest: `https://${SHOP_A}` }, "not-the-app-secret");
    case "expired":
      return admin.mintSessionToken({ ttlSeconds: -120 });
    case "not yet valid":
      return signedToken({ dest: `https://${SHOP_A}`, notBefore: 600, ttlSeconds: 1_200 });
    case "other shop":
      return admin.mintSessionToken({ shop: "someone-else.myshopify.com" });
    case "wrong audience":
      return signedToken({ dest: `https://${SHOP_A}`, aud: "someone-elses-api-key" });
    case "bad dest":
      return signedToken({ dest });
    case "alg none": {
      const [, payload] = (await admin.mintSessionToken()).split(".");
      return `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    }
    case "garbage":
      return "\u00ff\u00fe not a jwt";
  }
}

function hmacOf(request: AppRequest): string | undefined {
  const body = request.body ?? "";
  switch (request.signing) {
    case undefined:
    case "none":
      return undefined;
    case "app":
      return signWebhookBody(body, TEST_API_SECRET);
    case "wrong":
      return signWebhookBody(body, "not-the-app-secret");
    case "other body":
      return signWebhookBody(`${body} `, TEST_API_SECRET);
    case "garbage":
      return "!!not base64!!";
  }
}

/** The request as a person reads it, long values cut: what a failure prints after shrinking. */
export function describeAppRequest(request: AppRequest): string {
  if (request.raw !== undefined) return `raw bytes (${request.mutation}):\n${clip(JSON.stringify(request.raw))}`;
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 120)}`);
  if (request.token)
    headers.push(`authorization: Bearer <${request.token} session token${request.dest !== undefined ? ` for dest ${JSON.stringify(request.dest)}` : ""}>`);
  if (request.signing) headers.push(`x-shopify-hmac-sha256: <${request.signing}>`);
  return [
    `${request.method} ${clip(request.path, 300)}   [${request.route}; mutation: ${request.mutation}${request.pair ? "; then a normal request on the same connection" : ""}]`,
    ...headers,
    request.body === undefined ? "(no body)" : clip(request.body, 400),
  ].join("\n");
}

/**
 * Tables a request writes a merchant's work to (the order mirror, sessions and job bookkeeping are background work's),
 * and what Flow's trigger lifecycle callback records.
 */
const WATCHED_TABLES = [
  "ShippingAccount",
  "ShopSettings",
  "QuoteRun",
  "Shipment",
  "Batch",
  "OrderCustoms",
  "BlockedOrder",
  "TrackingEvent",
  "FlowTriggerWorkflow",
];

/** Which of a table's rows are a shop's (most tables have its domain; a blocked order belongs to its run). */
function shopRows(table: string): string {
  return table === "BlockedOrder" ? `"runId" IN (SELECT id FROM "QuoteRun" WHERE shop = ?)` : "shop = ?";
}

/** Each watched table's rows (of one shop, when given) by id, as JSON, and the deliveries recorded (not their processing). */
type Snapshot = Record<string, Map<string, string>>;

function snapshot(db: Database.Database, shop?: string): Snapshot {
  const tables: Snapshot = {};
  const read = (table: string, columns: string) => {
    const rows = db.prepare(`SELECT ${columns} FROM "${table}"${shop ? ` WHERE ${shopRows(table)}` : ""}`).all(...(shop ? [shop] : [])) as Record<
      string,
      unknown
    >[];
    // A row's key: its id, or its shop (and handle, for a shop's Flow trigger), or its place.
    const key = (row: Record<string, unknown>, index: number) =>
      row.id !== undefined ? String(row.id) : row.shop !== undefined ? [row.shop, row.handle].filter((part) => part !== undefined).join(" ") : String(index);
    tables[table] = new Map(rows.map((row, index) => [key(row, index), JSON.stringify(row)]));
  };
  for (const table of WATCHED_TABLES) read(table, "*");
  read("WebhookDelivery", "id, shop, topic");
  return tables;
}

/** What changed between two snapshots, row by row: what a failure names. */
function changed(before: Snapshot, after: Snapshot): string[] {
  const changes: string[] = [];
  for (const [table, rows] of Object.entries(before)) {
    const later = after[table]!;
    for (const [id, row] of rows) {
      const now = later.get(id);
      if (now === row) continue;
      if (now === undefined) {
        changes.push(`${table} ${id}: deleted`);
        continue;
      }
      const [was, is] = [JSON.parse(row) as Record<string, unknown>, JSON.parse(now) as Record<string, unknown>];
      const columns = Object.keys(is).filter((column) => JSON.stringify(was[column]) !== JSON.stringify(is[column]));
      changes.push(
        `${table} ${id}: ${columns.map((column) => `${column} ${clip(JSON.stringify(was[column]), 80)} → ${clip(JSON.stringify(is[column]), 80)}`).join(", ")}`,
      );
    }
    for (const [id, row] of later) if (!rows.has(id)) changes.push(`${table} ${id}: (new) ${clip(row, 300)}`);
  }
  return changes;
}

/**
 * Work an accepted request left running in the background: a quote run, a batch being created or booked, a
 * booking or a fulfillment under way, a webhook delivery not yet processed (its job may stop tracking), a booking's
 * order signals not yet recorded (a Flow action's label).
 */
const WORK_UNDER_WAY = `SELECT
  (SELECT COUNT(*) FROM "QuoteRun" WHERE status = 'RUNNING') +
  (SELECT COUNT(*) FROM "Batch" WHERE status IN ('CREATING', 'BOOKING')) +
  (SELECT COUNT(*) FROM "Shipment" WHERE "bookingStatus" = 'BOOKING' OR "fulfillmentStatus" IN ('PENDING', 'CREATING')) +
  (SELECT COUNT(*) FROM "WebhookDelivery" WHERE "processedAt" IS NULL) +
  (SELECT COUNT(*) FROM "Shipment" WHERE "signalsDueAt" IS NOT NULL) AS n`;

/** The watched tables once no work an earlier request started is under way (at most 15 s: then as they are). */
async function settledSnapshot(db: Database.Database): Promise<Snapshot> {
  const deadline = Date.now() + 15_000;
  while ((db.prepare(WORK_UNDER_WAY).get() as { n: number }).n > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return snapshot(db);
}

const root = join(import.meta.dirname, "..", "..");
/** What must never be in an answer: a stack frame, the app's own paths. */
const LEAKS: readonly RegExp[] = [
  /^\s*at .+:\d+:\d+\)?$/m,
  new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  /node_modules\//,
  /build\/server\//,
  /file:\/\/\//,
];

/** What of shop B an answer to shop A must never hold. */
function shopBMarks(world: AppFuzzWorld): string[] {
  return [world.b.runId, world.b.batchId, ...world.b.shipmentIds, world.b.customerId, world.b.email];
}

/** The answer to a normal request after a hostile one on the same connection: shop A's batches list. */
async function normalRequest(world: AppFuzzWorld, client: KeepAliveClient): Promise<ProbeResponse> {
  return client.request({
    method: "GET",
    path: "/app/batches?_data=routes%2Fapp.batches._index",
    headers: { authorization: `Bearer ${await world.a.admin.mintSessionToken()}`, "user-agent": BROWSER_USER_AGENT },
  });
}

function judge(world: AppFuzzWorld, request: AppRequest, response: ProbeResponse): void {
  const fail = (why: string) => {
    throw new FuzzFailure(`${why}\nanswer: ${response.status} ${clip(response.text, 600)}`);
  };
  if (response.status >= 500 || response.status === 0) fail(`a ${response.status} answer`);
  for (const leak of LEAKS) if (leak.test(response.text)) fail(`the answer shows a stack trace or an internal path (${leak})`);
  // A 204 with X-Remix-Redirect is Remix's redirect of a data request: it serves nothing.
  const answered2xx = response.status >= 200 && response.status < 300 && response.headers["x-remix-redirect"] === undefined;
  if (request.mustRefuse && answered2xx && !["OPTIONS", "HEAD"].includes(request.method)) {
    // The embedded routes answer a document request without a valid token with the session-token bounce page
    // (a 200 that serves nothing: the marks below check it); a data request or a post must not be served.
    const bounce = request.token !== undefined && request.method === "GET" && !request.path.includes("_data=");
    if (!bounce) fail("a request that must be refused was answered 2xx");
  }
  // A record's id the request itself named may be said back ("there is no batch … in this shop"); any other is served.
  const served = (mark: string) => response.text.includes(mark) && !request.path.includes(mark) && !(request.body ?? "").includes(mark);
  if (request.token && request.token !== "valid") {
    for (const mark of [world.a.runId, world.a.batchId, world.a.customerId, ...shopBMarks(world)])
      if (served(mark)) fail(`a ${request.token} session token was served a shop's record (${mark})`);
  }
  if (request.otherShop) for (const mark of shopBMarks(world)) if (served(mark)) fail(`shop A's token was answered shop B's record (${mark})`);
  if (request.route.startsWith("webhook") && request.signing === "app" && request.mutation === "none" && response.status !== 200)
    fail("a valid signed delivery was not answered 200");
  // Flow's valid action books, or says why it could not (422), or to come back (503); never a refusal of its input.
  if (request.route.startsWith("flow") && request.signing === "app" && request.mutation === "none" && !request.mustRefuse) {
    const answers = request.path === FLOW_LIFECYCLE_PATH ? [200] : [200, 422, 503];
    if (!answers.includes(response.status)) fail(`a valid signed Flow ${request.path === FLOW_LIFECYCLE_PATH ? "lifecycle callback" : "action"} was refused`);
  }
}

/**
 * Sends one request (over the pooled keep-alive connection, or raw bytes on a socket of their own), judges the
 * answer, the connection and the database, and when asked sends a normal request after it on the same
 * connection; throws {@link FuzzFailure}.
 */
export async function sendAndJudgeApp(world: AppFuzzWorld, client: KeepAliveClient, request: AppRequest): Promise<void> {
  const url = world.stack.app.url;
  if (request.raw !== undefined) {
    const exchange = await rawExchange(url, request.raw);
    if (!exchange.response) throw new FuzzFailure(`no answer before the connection ${exchange.ending === "reset" ? "was reset" : "closed"}`);
    if (exchange.ending === "reset") throw new FuzzFailure("the connection was reset after the answer");
    return judge(world, request, exchange.response);
  }
  const before = await settledSnapshot(world.db);
  const beforeB = request.otherShop ? snapshot(world.db, SHOP_B) : undefined;
  const headers: Record<string, string> = { "user-agent": BROWSER_USER_AGENT, ...request.headers };
  if (request.token) {
    const token = await bearer(world, request.token, request.dest);
    if (token !== null) headers.authorization = `Bearer ${token}`;
  }
  const hmac = hmacOf(request);
  if (hmac !== undefined) headers["x-shopify-hmac-sha256"] = hmac;
  let response: ProbeResponse;
  try {
    response = await client.request({ method: request.method, path: request.path, headers, body: request.body });
  } catch (error) {
    throw new FuzzFailure(`the connection failed: ${(error as Error).message}`);
  }
  judge(world, request, response);
  // Flow's action answers 422 or 503 once it has run (a run recorded, maybe a quote): it did not refuse the request.
  const ran = request.path === FLOW_ACTION_PATH && request.route.startsWith("flow") && (response.status === 422 || response.status === 503);
  if (response.status >= 400 && !ran) {
    const writes = changed(before, snapshot(world.db));
    if (writes.length > 0) throw new FuzzFailure(`refused with ${response.status} but wrote: ${writes.join("; ")}\nanswer: ${clip(response.text, 300)}`);
  }
  if (beforeB) {
    const writes = changed(beforeB, snapshot(world.db, SHOP_B));
    if (writes.length > 0) throw new FuzzFailure(`shop A's token changed shop B's rows: ${writes.join("; ")}`);
  }
  if (request.pair) {
    let next: ProbeResponse;
    try {
      next = await normalRequest(world, client);
    } catch (error) {
      throw new FuzzFailure(`the normal request after it on the same connection failed: ${(error as Error).message}`);
    }
    if (next.status !== 200) throw new FuzzFailure(`the normal request after it on the same connection was answered ${next.status}: ${clip(next.text, 300)}`);
  }
}

/** The kinds of request, as their descriptions begin: each is exercised by a run of a few hundred. */
export const APP_MUTATION_KINDS = [
  "none",
  ...JSON_MUTATION_KINDS,
  "body of",
  "signature",
  "header",
  "content type",
  "method",
  "page",
  "public page",
  "raw bytes",
] as const;

/** A request's kind: its mutation without the values. */
export function appMutationKind(request: AppRequest): string {
  if (!request.route.startsWith("webhook") && !request.route.startsWith("flow") && request.raw === undefined)
    return request.mutation.startsWith("public") ? "public page" : "page";
  const description = request.mutation.replace(/^\d+-character string/, "long string");
  return APP_MUTATION_KINDS.find((kind) => description.startsWith(kind)) ?? description;
}

/** Runs the app's fuzz suite against a prepared world; then the app must still answer shop A's pages. */
export async function runAppFuzz(world: AppFuzzWorld, options: FuzzRunOptions): Promise<FuzzRunSummary> {
  const client = createKeepAliveClient(world.stack.app.url, { timeoutMs: 15_000 });
  try {
    const summary = await runSeeded({
      ...options,
      requests: appRequestArbitrary(world),
      send: (request) => sendAndJudgeApp(world, client, request),
      kindOf: appMutationKind,
      describe: describeAppRequest,
      replay: (seed, runs) => `npm run fuzz:app -- --seed ${seed} --runs ${runs}`,
    });
    const after = await normalRequest(world, client);
    if (after.status !== 200) throw new FuzzFailure(`after the run shop A's batches list answered ${after.status}: ${clip(after.text, 300)}`);
    return summary;
  } finally {
    client.close();
  }
}
