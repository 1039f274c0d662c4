import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../devstore/webhooks/dispatcher";
import { HOSTILE_FORM_VALUES } from "../fuzz/fuzz-kit";
import { startInstalledStack, type InstalledStack } from "../support/account.js";
import { BROWSER_USER_AGENT } from "../support/stack.js";

/**
 * The app's own outside-facing HTTP surface under hostile input (docs/decisions/009): webhook deliveries with a
 * bad HMAC, a body that is not JSON, a payload of the wrong shape, a topic the route does not take, a replayed
 * delivery; and the embedded pages' form posts with hostile values and content types. Sent over HTTP to the
 * built app. Every answer is a clear 4xx or a page that explains, never a 5xx, and a refused post writes nothing.
 */

let stack: InstalledStack;

beforeAll(async () => {
  stack = await startInstalledStack();
});
afterAll(async () => {
  await stack?.stop();
});

// ---------------------------------------------------------------------------------------------------------
// Webhooks

interface Delivery {
  path: string;
  topic: string;
  body: string;
  shop?: string;
  webhookId?: string;
  secret?: string;
}

async function deliver(delivery: Delivery): Promise<{ status: number; text: string }> {
  const response = await fetch(`${stack.app.url}${delivery.path}`, {
    method: "POST",
    body: delivery.body,
    headers: {
      "content-type": "application/json",
      "user-agent": BROWSER_USER_AGENT,
      "x-shopify-topic": delivery.topic,
      "x-shopify-shop-domain": delivery.shop ?? stack.shop,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": delivery.webhookId ?? randomUUID(),
      "x-shopify-hmac-sha256": signWebhookBody(delivery.body, delivery.secret ?? stack.apiSecret),
    },
  });
  return { status: response.status, text: await response.text() };
}

/** One valid delivery per webhook route, with a payload of the topic's shape. */
const VALID: readonly Delivery[] = [
  { path: "/webhooks/app", topic: "app/scopes_update", body: JSON.stringify({ current: ["read_orders", "write_fulfillments"], previous: ["read_orders"] }) },
  { path: "/webhooks/orders", topic: "orders/updated", body: JSON.stringify({ id: 990_001, admin_graphql_api_id: "gid://shopify/Order/990001" }) },
  {
    path: "/webhooks/fulfillment-orders",
    topic: "fulfillment_orders/placed_on_hold",
    body: JSON.stringify({ fulfillment_order: { id: "gid://shopify/FulfillmentOrder/990001", order_id: "gid://shopify/Order/990001", status: "on_hold" } }),
  },
  { path: "/webhooks/fulfillments", topic: "fulfillments/create", body: JSON.stringify({ id: 1, order_id: 990_001 }) },
  {
    path: "/webhooks/compliance",
    topic: "customers/data_request",
    body: JSON.stringify({ shop_domain: "consign-e2e.myshopify.com", customer: { id: 1, email: "someone@example.com" }, orders_requested: [990_001] }),
  },
  {
    path: "/webhooks/compliance",
    topic: "shop/redact",
    shop: "gone-away.myshopify.com",
    body: JSON.stringify({ shop_id: 1, shop_domain: "gone-away.myshopify.com" }),
  },
];

const UNKNOWN_TOPICS: Record<string, string> = {
  "/webhooks/app": "orders/updated",
  "/webhooks/orders": "products/update",
  "/webhooks/fulfillment-orders": "app/uninstalled",
  "/webhooks/fulfillments": "inventory_levels/update",
  "/webhooks/compliance": "orders/create",
};

const WRONG_SHAPES: Record<string, string> = {
  "/webhooks/app": JSON.stringify({ current: "read_orders" }),
  "/webhooks/orders": JSON.stringify({ id: { nested: true } }),
  "/webhooks/fulfillment-orders": JSON.stringify({ fulfillment_order: { id: "not an id" } }),
  "/webhooks/fulfillments": JSON.stringify({ order_id: { nested: true } }),
  "/webhooks/compliance": JSON.stringify({ shop_domain: 7 }),
};

describe("webhook routes", () => {
  it("GIVEN valid signed deliveries THEN each route answers 200 (the baseline the other cases differ from)", async () => {
    for (const delivery of VALID) expect((await deliver(delivery)).status, `${delivery.path} ${delivery.topic}`).toBe(200);
  });

  it("GIVEN a delivery signed with another secret THEN 401 on every route", async () => {
    for (const delivery of VALID) expect((await deliver({ ...delivery, secret: "not-the-app-secret" })).status, delivery.path).toBe(401);
  });

  it("GIVEN a signed body that is not JSON THEN 400 on every route, never a 500", async () => {
    for (const delivery of VALID) expect((await deliver({ ...delivery, body: "{not json" })).status, delivery.path).toBe(400);
  });

  it("GIVEN a signed payload of the wrong shape THEN 400 naming the field", async () => {
    for (const [path, body] of Object.entries(WRONG_SHAPES)) {
      const delivery = VALID.find((candidate) => candidate.path === path)!;
      const answer = await deliver({ ...delivery, body });
      expect(answer.status, path).toBe(400);
      expect(answer.text, path).toMatch(/\w+: /);
    }
  });

  it("GIVEN a signed topic the route does not take THEN 400 naming the topic", async () => {
    for (const [path, topic] of Object.entries(UNKNOWN_TOPICS)) {
      const delivery = VALID.find((candidate) => candidate.path === path)!;
      const answer = await deliver({ ...delivery, topic });
      expect(answer.status, path).toBe(400);
      expect(answer.text, path).toContain(topic.toUpperCase().replace("/", "_"));
    }
  });

  it("GIVEN the same delivery twice (same webhook id) THEN both are answered 200", async () => {
    for (const delivery of VALID) {
      const replayed = { ...delivery, webhookId: randomUUID() };
      expect((await deliver(replayed)).status, delivery.path).toBe(200);
      expect((await deliver(replayed)).status, `${delivery.path} replayed`).toBe(200);
    }
  });

  it("GIVEN 150 mutated signed deliveries (seeded) THEN none is answered 5xx", async () => {
    const mutatedBody = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.constantFrom(
        "",
        "null",
        "[]",
        "{",
        '{"id": 1e400}',
        '{"__proto__": {"polluted": true}, "id": 1}',
        `{"id": "${"9".repeat(5_000)}"}`,
        "\u0000",
        '{"order_id": -1}',
      ),
    );
    const delivery = fc.record({
      base: fc.constantFrom(...VALID),
      topic: fc.option(
        fc.constantFrom(
          "orders/create",
          "orders/cancelled",
          "fulfillments/update",
          "fulfillment_orders/moved",
          "customers/redact",
          "app/scopes_update",
          "x/y",
          "",
          "ORDERS_UPDATED",
        ),
        { nil: undefined },
      ),
      body: fc.option(mutatedBody, { nil: undefined }),
      badSecret: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(delivery, async ({ base, topic, body, badSecret }) => {
        const answer = await deliver({ ...base, topic: topic ?? base.topic, body: body ?? base.body, secret: badSecret ? "wrong" : undefined });
        expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
        // A wrong signature is 401; a delivery without a body is refused (400) before its signature is checked.
        if (badSecret) expect([400, 401]).toContain(answer.status);
      }),
      { seed: 20261124, numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Form posts of the embedded pages

const FORM_ROUTES = [
  { path: "/app/batches/new", route: "routes/app.batches.new" },
  { path: "/app/batches/1", route: "routes/app.batches.$id" },
  { path: "/app/batches/not-a-number", route: "routes/app.batches.$id" },
  { path: "/app/fulfillments", route: "routes/app.fulfillments" },
  { path: "/app/onboarding", route: "routes/app.onboarding" },
  { path: "/app/quotes/1", route: "routes/app.quotes.$runId" },
  { path: "/app/quotes/%F0%9F%93%A6", route: "routes/app.quotes.$runId" },
  { path: "/app/orders/1001/book", route: "routes/app.orders.$id.book" },
  { path: "/app/orders/99999999999999999999/book", route: "routes/app.orders.$id.book" },
  { path: "/app/settings", route: "routes/app.settings" },
  { path: "/app", route: "routes/app._index" },
] as const;

const FIELD_NAMES = [
  "intent",
  "name",
  "shipmentIds",
  "shipmentIds[]",
  "id",
  "ids",
  "customerId",
  "email",
  "password",
  "mode",
  "quoteId",
  "serviceCode",
  "weight",
  "insuranceAmount",
  "__proto__",
  "constructor",
];

type Body = { contentType?: string; body: string | URLSearchParams | FormData };

const formBody: fc.Arbitrary<Body> = fc.oneof(
  fc
    .array(fc.tuple(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...HOSTILE_FORM_VALUES)), { maxLength: 8 })
    .map((fields) => ({ body: new URLSearchParams(fields) })),
  fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES), fc.constantFrom(...HOSTILE_FORM_VALUES)), { maxLength: 8 }).map((fields) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    return { body: form };
  }),
  fc.jsonValue().map((value) => ({ contentType: "application/json", body: JSON.stringify(value) })),
  fc
    .constantFrom("{", "intent=create&name=%ZZ", "\u0000\u0001", "a=1&a=2&a[]=3", "x".repeat(200_000))
    .chain((text) =>
      fc.constantFrom<Body>(
        { contentType: "application/x-www-form-urlencoded", body: text },
        { contentType: "text/plain", body: text },
        { contentType: "application/json", body: text },
        { contentType: "multipart/form-data; boundary=nothing", body: text },
        { body: text },
      ),
    ),
);

function rowCounts(): Record<string, number> {
  return Object.fromEntries(
    ["Batch", "Shipment", "QuoteRun", "ShippingAccount"].map((table) => [
      table,
      (stack.appDb.prepare(`SELECT COUNT(*) AS count FROM "${table}"`).get() as { count: number }).count,
    ]),
  );
}

describe("form posts of the embedded pages", () => {
  it("GIVEN 200 hostile posts (seeded) to every page with an action THEN none is answered 5xx, and a refused post writes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FORM_ROUTES), formBody, async (target, { contentType, body }) => {
        const before = rowCounts();
        const headers: Record<string, string> = { authorization: `Bearer ${await stack.admin.mintSessionToken()}`, "user-agent": BROWSER_USER_AGENT };
        if (contentType) headers["content-type"] = contentType;
        const response = await fetch(`${stack.app.url}${target.path}?_data=${encodeURIComponent(target.route)}`, {
          method: "POST",
          body,
          headers,
          redirect: "manual",
        });
        const text = await response.text();
        expect(response.status, `${target.path}: ${text.slice(0, 300)}`).toBeLessThan(500);
        if (response.status >= 400) expect(rowCounts(), `${target.path} refused with ${response.status} but wrote`).toEqual(before);
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Routes read with a session token from outside the app's pages: the order-details block's data route
// (Shopify's admin calls it from the extension, cross-origin) and the booking page's option price.

const PATH_IDS = fc.oneof(
  fc.constantFrom(
    "1001",
    "0",
    "-1",
    "1e3",
    "99999999999999999999",
    "999999999999999999999999",
    "%00",
    "%F0%9F%93%A6",
    "..%2F..%2Fetc",
    "%ZZ",
    "1001%20OR%201=1",
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.bigInt({ min: 0n, max: 10n ** 22n }).map(String),
);

type Token = "valid" | "none" | "forged" | "expired" | "other-shop" | "garbage";

async function bearer(kind: Token): Promise<string | null> {
  switch (kind) {
    case "valid":
      return stack.admin.mintSessionToken();
    case "none":
      return null;
    case "forged": {
      const [header, payload] = (await stack.admin.mintSessionToken()).split(".");
      return `${header}.${payload}.${Buffer.from("not the app's signature").toString("base64url")}`;
    }
    case "expired":
      return stack.admin.mintSessionToken({ ttlSeconds: -120 });
    case "other-shop":
      return stack.admin.mintSessionToken({ shop: "someone-else.myshopify.com" });
    case "garbage":
      return "\u00ff\u00fe not a jwt";
  }
}

const OUTSIDE_READS = fc.record({
  target: fc.constantFrom("block", "price"),
  id: PATH_IDS,
  token: fc.constantFrom<Token>("valid", "none", "forged", "expired", "other-shop", "garbage"),
  method: fc.constantFrom("GET", "GET", "OPTIONS", "POST", "PUT", "DELETE"),
  query: fc.dictionary(
    fc.constantFrom("shipmentId", "quoteId", "signatureOptionCode", "insuranceAmount", "__proto__", "constructor"),
    fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom("-0.0001", "1e309", "NaN", "99999999999999999999.99", "")),
  ),
});

describe("routes read with a session token from outside the app's pages", () => {
  it("GIVEN the block's data route THEN a valid token is answered (a 404 in words for an order Consign has not seen) and a forged one is refused (the baseline the hostile reads differ from)", async () => {
    const read = async (token: Token) => {
      const authorization = await bearer(token);
      const response = await fetch(`${stack.app.url}/api/order-shipments/424242`, {
        headers: {
          "user-agent": BROWSER_USER_AGENT,
          origin: "https://extensions.shopifycdn.com",
          ...(authorization ? { authorization: `Bearer ${authorization}` } : {}),
        },
      });
      return { status: response.status, text: await response.text() };
    };
    const valid = await read("valid");
    expect(valid.status).toBe(404);
    expect(valid.text).toMatch(/Open Consign once/);
    expect((await read("forged")).status).toBe(401);
  });

  it("GIVEN 200 hostile reads (seeded) of the block's data route and the option price THEN none is answered 5xx, none without a valid token is served, and an invalid id or query is a 4xx", async () => {
    await fc.assert(
      fc.asyncProperty(OUTSIDE_READS, async ({ target, id, token, method, query }) => {
        const path = target === "block" ? `/api/order-shipments/${id}` : `/app/orders/${id}/price?${new URLSearchParams(query).toString()}`;
        const route = target === "block" ? "routes/api.order-shipments.$id" : "routes/app.orders.$id.price";
        const headers: Record<string, string> = { "user-agent": BROWSER_USER_AGENT, origin: "https://extensions.shopifycdn.com" };
        const authorization = await bearer(token);
        if (authorization !== null) headers.authorization = `Bearer ${authorization}`;
        if (method === "OPTIONS") headers["access-control-request-method"] = "GET";
        const url = `${stack.app.url}${path}${target === "price" ? "&" : "?"}_data=${encodeURIComponent(route)}`;
        const response = await fetch(url, { method, headers, redirect: "manual" });
        const text = await response.text();
        const said = `${method} ${path} with ${token} token: ${response.status} ${text.slice(0, 300)}`;
        expect(response.status, said).toBeLessThan(500);
        if (method === "OPTIONS") return;
        if (token !== "valid") expect(response.status, said).not.toBe(200);
        if (token === "valid" && method === "GET" && !/^\d{1,20}$/.test(decodeURIComponent(id))) expect(response.status, said).toBeGreaterThanOrEqual(400);
      }),
      { seed: 20261124, numRuns: 200 },
    );
  });
});
