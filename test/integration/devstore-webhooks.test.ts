import "@shopify/shopify-api/adapters/node";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { temporaryDirectory } from "../support/temporary-directory";
import { API_KEY, API_SECRET, manualClock, readDoc, SHOP, startHarness, type Harness } from "../support/devstore-harness.js";

interface Received {
  path: string;
  topic: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  valid: boolean;
  validWithOtherSecret: boolean;
}

const api = (secret: string) =>
  shopifyApi({
    apiKey: API_KEY,
    apiSecretKey: secret,
    apiVersion: ApiVersion.October26,
    hostName: "localhost:3000",
    isEmbeddedApp: true,
    logger: { level: 0 },
  });

/** A stand-in for the app's webhook routes: validates each delivery with shopify-api and answers with a scripted status. */
async function startReceiver() {
  const shopify = api(API_SECRET);
  const impostor = api("some-other-secret");
  const received: Received[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const rawBody = Buffer.concat(chunks).toString("utf8");
        const check = await shopify.webhooks.validate({ rawBody, rawRequest: req, rawResponse: res });
        const other = await impostor.webhooks.validate({ rawBody, rawRequest: req, rawResponse: res });
        received.push({
          path: req.url ?? "",
          topic: String(req.headers["x-shopify-topic"]),
          headers: req.headers,
          body: JSON.parse(rawBody) as Record<string, unknown>,
          valid: check.valid,
          validWithOtherSecret: other.valid,
        });
        res.statusCode = statuses.shift() ?? 200;
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, statuses, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("local admin webhooks", () => {
  let h: Harness;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const clock = manualClock(Date.now());
  beforeEach(async () => {
    receiver = await startReceiver();
    h = await startHarness({ clock, orders: 20, appUrl: receiver.url, webhookRetry: { maxAttempts: 3, baseDelayMs: 10 } });
  });
  afterEach(async () => {
    await h.close();
    await receiver.close();
  });

  it("GIVEN a seeded store THEN seeding sent nothing; WHEN a fulfillment is created THEN signed fulfillments/create and orders/updated arrive at the TOML uris", async () => {
    expect(h.admin.webhooks.deliveries()).toEqual([]);
    const fo = await h.gql<{ order: { fulfillmentOrders: { nodes: { id: string }[] } } }>(
      `{ order(id: "gid://shopify/Order/1001") { fulfillmentOrders(first: 1) { nodes { id } } } }`,
    );
    const foId = fo.body.data?.order.fulfillmentOrders.nodes[0]?.id;
    const created = await h.gql(readDoc("04"), {
      fulfillment: {
        notifyCustomer: true,
        trackingInfo: { company: "UPS", number: "1Z999AA10123456784" },
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: foId }],
      },
    });
    expect(created.body.errors).toBeUndefined();
    await h.admin.webhooks.drain();
    expect(receiver.received.map((r) => [r.topic, r.path]).sort()).toEqual([
      ["fulfillments/create", "/webhooks/fulfillments"],
      ["orders/updated", "/webhooks/orders"],
    ]);
    for (const r of receiver.received) {
      expect(r.valid).toBe(true);
      expect(r.validWithOtherSecret).toBe(false);
      expect(r.headers["x-shopify-shop-domain"]).toBe(SHOP);
      expect(r.headers["x-shopify-api-version"]).toBe("2026-10");
      expect(r.headers["x-shopify-webhook-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers["x-shopify-event-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number.isNaN(Date.parse(String(r.headers["x-shopify-triggered-at"])))).toBe(false);
    }
    const order = receiver.received.find((r) => r.topic === "orders/updated")?.body;
    expect(order).toMatchObject({ id: 1001, admin_graphql_api_id: "gid://shopify/Order/1001", name: "#1001", fulfillment_status: "fulfilled" });
    const fulfillment = receiver.received.find((r) => r.topic === "fulfillments/create")?.body;
    expect(fulfillment).toMatchObject({
      order_id: 1001,
      status: "success",
      tracking_company: "UPS",
      tracking_number: "1Z999AA10123456784",
      notify_customer: true,
    });
    expect(h.admin.webhooks.deliveries().every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
  });

  it("GIVEN the app answers 500 twice WHEN a webhook is delivered THEN it is retried with backoff until it succeeds, and the log shows three attempts", async () => {
    receiver.statuses.push(500, 500);
    h.admin.store.uninstallApp();
    await h.admin.webhooks.drain();
    expect(receiver.received.map((r) => r.topic)).toEqual(["app/uninstalled", "app/uninstalled", "app/uninstalled"]);
    expect(new Set(receiver.received.map((r) => r.headers["x-shopify-webhook-id"])).size).toBe(1);
    expect(receiver.received[0]?.body).toMatchObject({ myshopify_domain: SHOP, name: "Consign Demo Store" });
    const [delivery] = h.admin.webhooks.deliveries();
    expect(delivery).toMatchObject({ topic: "app/uninstalled", status: "delivered", attempts: 3, last_status_code: 200 });
  });

  it("GIVEN the app keeps failing WHEN the attempts run out THEN the delivery is logged as failed", async () => {
    receiver.statuses.push(500, 503, 500, 500);
    h.admin.webhooks.triggerCompliance("customers/redact", { id: 42, email: "zoe.mueller@example.de" });
    await h.admin.webhooks.drain();
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received[0]?.path).toBe("/webhooks/compliance");
    expect(receiver.received[0]?.body).toMatchObject({ shop_domain: SHOP, customer: { id: 42, email: "zoe.mueller@example.de" }, orders_to_redact: [1011] });
    expect(h.admin.webhooks.deliveries()[0]).toMatchObject({ status: "failed", attempts: 3, last_status_code: 500 });
  });

  it("GIVEN holds and new orders WHEN they happen THEN fulfillment_orders/* and orders/create are delivered", async () => {
    const foRes = await h.gql<{ order: { fulfillmentOrders: { nodes: { id: string }[] } } }>(
      `{ order(id: "gid://shopify/Order/1003") { fulfillmentOrders(first: 1) { nodes { id } } } }`,
    );
    const foId = foRes.body.data?.order.fulfillmentOrders.nodes[0]?.id;
    const hold = await h.gql(`mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: AWAITING_PAYMENT }) { userErrors { message } } }`, {
      id: foId,
    });
    expect(hold.body.errors).toBeUndefined();
    await h.gql(`mutation($id: ID!) { fulfillmentOrderReleaseHold(id: $id) { userErrors { message } } }`, { id: foId });
    const variant = h.admin.store.listVariants(1)[0];
    h.admin.store.createOrder({
      shippingAddress: { firstName: "Ada", lastName: "Byron", address1: "1 Main St", city: "Boston", provinceCode: "MA", zip: "02108", countryCode: "US" },
      shippingLine: null,
      lines: [{ variantId: variant?.id ?? 1, quantity: 1 }],
    });
    await h.admin.webhooks.drain();
    const topics = receiver.received.map((r) => `${r.topic} ${r.path}`).sort();
    expect(topics).toEqual([
      "fulfillment_orders/hold_released /webhooks/fulfillment-orders",
      "fulfillment_orders/placed_on_hold /webhooks/fulfillment-orders",
      "orders/create /webhooks/orders",
    ]);
    const placed = receiver.received.find((r) => r.topic === "fulfillment_orders/placed_on_hold")?.body;
    expect(placed).toMatchObject({ fulfillment_order: { id: foId, status: "on_hold" }, created_fulfillment_hold: { reason: "awaiting_payment" } });
    expect(receiver.received.every((r) => r.valid)).toBe(true);
  });
});

describe("local admin webhooks for carrier events", () => {
  it("GIVEN an app subscribed to fulfillment_events/create WHEN a carrier event is recorded THEN it and fulfillments/update (shipment_status) arrive with Shopify's bodies", async () => {
    const receiver = await startReceiver();
    const dir = temporaryDirectory("devstore-toml-");
    const toml = path.join(dir, "shopify.app.toml");
    fs.writeFileSync(
      toml,
      `[access_scopes]\nscopes = "write_fulfillments"\n[webhooks]\napi_version = "2026-10"\n[[webhooks.subscriptions]]\ntopics = ["fulfillment_events/create", "fulfillments/update"]\nuri = "/webhooks/tracking"\n`,
    );
    const h = await startHarness({ orders: 20, appUrl: receiver.url, appTomlPath: toml });
    try {
      const fo = await h.gql<{ order: { fulfillmentOrders: { nodes: { id: string }[] } } }>(
        `{ order(id: "gid://shopify/Order/1001") { fulfillmentOrders(first: 1) { nodes { id } } } }`,
      );
      const created = await h.gql<{ fulfillmentCreate: { fulfillment: { id: string } } }>(readDoc("04"), {
        fulfillment: {
          trackingInfo: { company: "UPS", number: "1Z999AA10123456784" },
          lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.body.data?.order.fulfillmentOrders.nodes[0]?.id }],
        },
      });
      const fulfillmentId = created.body.data?.fulfillmentCreate.fulfillment.id;
      await h.admin.webhooks.drain();
      receiver.received.length = 0;
      const event = await h.gql(readDoc("07"), {
        fulfillmentEvent: {
          fulfillmentId,
          status: "OUT_FOR_DELIVERY",
          happenedAt: "2026-11-20T08:00:00Z",
          message: "On vehicle for delivery",
          city: "BOSTON",
          province: "MA",
          country: "US",
        },
      });
      expect(event.body.errors).toBeUndefined();
      await h.admin.webhooks.drain();
      expect(receiver.received.map((r) => r.topic).sort()).toEqual(["fulfillment_events/create", "fulfillments/update"]);
      expect(receiver.received.every((r) => r.valid && r.path === "/webhooks/tracking")).toBe(true);
      expect(receiver.received.find((r) => r.topic === "fulfillment_events/create")?.body).toMatchObject({
        fulfillment_id: Number(String(fulfillmentId).split("/").pop()),
        order_id: 1001,
        status: "out_for_delivery",
        message: "On vehicle for delivery",
        happened_at: "2026-11-20T08:00:00Z",
        city: "BOSTON",
        province: "MA",
        country: "US",
      });
      expect(receiver.received.find((r) => r.topic === "fulfillments/update")?.body).toMatchObject({ status: "success", shipment_status: "out_for_delivery" });
    } finally {
      await h.close();
      await receiver.close();
    }
  });
});
