import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchQuoteShipment } from "../../shipping-api/contract";
import { useAppEnvironment } from "../support/app-env";
import { signedWebhook as signedRequest } from "../support/webhooks";
import type { Context } from "../../app/context";
import { contextOf } from "../factories/context";
import { buildSettings } from "../factories/orders";
import { SHOP, startHarness, type Harness } from "../support/devstore-harness";

// The app's real stack: shopify-app-remix's unauthenticated.admin (offline session from Prisma), the
// local-admin reroute, the gateway — against the real local admin on the real Admin schema.
const harness: Harness = await startHarness({ orders: 60, throttle: { bucketSize: 1000, restoreRate: 1000 } });
useAppEnvironment({ LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: "consign-test-key", SHOPIFY_API_SECRET: "consign-test-secret" });
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const mirror = await import("../../app/orders/mirror.server");
const { currentMirrorSync, queueFirstMirrorSync } = await import("../../app/orders/mirror-sync.server");
const { processJobs: jobs } = await import("../../app/context.server");
const { orderToShipments } = await import("../../app/orders/shipment-mapping");
const { giftMessageOf } = await import("../../app/orders/order-node");
const { action: ordersWebhook } = await import("../../app/routes/webhooks.orders");
const { action: fulfillmentOrdersWebhook } = await import("../../app/routes/webhooks.fulfillment-orders");

function signedWebhook(topic: string, payload: unknown): Request {
  return signedRequest({ path: `/webhooks/${topic.split("/")[0]}`, topic, shop: SHOP, payload, secret: "consign-test-secret" });
}

interface OrdersPage {
  orders: { nodes: Array<{ id: string; name: string; shippingAddress: { countryCodeV2: string } | null }> };
}

describe("the order mirror against the local admin", () => {
  let ctx: Context;
  let seeded: OrdersPage["orders"]["nodes"];

  async function shopAdmin() {
    const { admin, session } = await unauthenticated.admin(SHOP);
    return { admin, shop: session.shop };
  }

  beforeAll(async () => {
    await prisma.session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: "read_orders" },
    });
    ctx = contextOf(await shopAdmin(), prisma);
    const page = await harness.gql<OrdersPage>(`{ orders(first: 100, query: "status:open") { nodes { id name shippingAddress { countryCodeV2 } } } }`);
    seeded = page.body.data?.orders.nodes ?? [];
  });
  afterAll(() => harness.close());

  it("GIVEN a seeded US order WHEN refreshed THEN it is mirrored and maps to a valid quote request", async () => {
    const domestic = seeded.find((order) => order.shippingAddress?.countryCodeV2 === "US");
    expect(domestic).toBeDefined();
    const mirrored = await mirror.refreshOrder(ctx, domestic!.id);
    expect(mirrored?.name).toBe(domestic!.name);

    const [loaded] = await mirror.loadMirroredOrders(ctx, [domestic!.id]);
    expect(loaded).toEqual(mirrored);
    const result = orderToShipments(loaded!, buildSettings());
    if (result.ok) {
      expect(result.shipments[0]?.shipment.shipmentReference).toBe(domestic!.name);
      expect(BatchQuoteShipment.safeParse(result.shipments[0]?.shipment).success).toBe(true);
    } else {
      // Some seeded orders are unshippable on purpose; their reasons must be merchant-readable.
      expect(result.issues[0]?.message).toMatch(/\w+/);
    }
  });

  it("GIVEN an id Shopify does not know WHEN refreshed THEN it is not (or no longer) mirrored", async () => {
    expect(await mirror.refreshOrder(ctx, "gid://shopify/Order/999999999")).toBeNull();
    expect(await mirror.loadMirroredOrders(ctx, ["gid://shopify/Order/999999999"])).toEqual([]);
  });

  it("GIVEN the install backfill WHEN the bulk operation completes THEN every order with work left is mirrored", async () => {
    const { syncId } = await mirror.startMirrorSync(ctx);
    let progress = await mirror.advanceMirrorSync(ctx, syncId);
    for (let attempt = 0; progress.status === "RUNNING" && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      progress = await mirror.advanceMirrorSync(ctx, syncId);
    }
    expect(progress.status).toBe("COMPLETED");
    const ordersSeen = progress.status === "COMPLETED" ? progress.ordersSeen : 0;
    expect(ordersSeen).toBeGreaterThan(30);
    expect(await prisma.mirrorOrder.count({ where: { shop: SHOP } })).toBe(ordersSeen);

    // International seeded orders come with HS codes and origin for the invoice.
    const international = await prisma.mirrorOrder.findMany({ where: { shop: SHOP, destinationCountry: { in: ["GB", "CA", "DE", "AU", "JP"] } } });
    expect(international.length).toBeGreaterThan(0);
    const orders = await mirror.loadMirroredOrders(
      ctx,
      international.map((row) => row.id),
    );
    const lines = orders.flatMap((order) => order.fulfillmentOrders.flatMap((fo) => fo.lines));
    expect(lines.some((line) => line.hsCode && line.countryOfOrigin)).toBe(true);

    // The seeded gift orders bring their note and custom attributes through the export.
    const gifts = (
      await mirror.loadMirroredOrders(
        ctx,
        (await prisma.mirrorOrder.findMany({ where: { shop: SHOP, note: { not: null } } })).map((row) => row.id),
      )
    ).filter((order) => order.customAttributes.length > 0);
    expect(gifts.map((order) => [order.note, giftMessageOf(order.customAttributes)])).toEqual(
      expect.arrayContaining([
        [
          "Please leave the parcel with the neighbour at number 12 if nobody is home, not on the porch.",
          "Happy birthday, Sam! A tote for the farmers' market on Saturdays. Love, Aunt Ruth",
        ],
        [
          "Bitte beim Nachbarn im Erdgeschoss abgeben, falls niemand zu Hause ist.",
          "Alles Gute zum Geburtstag, liebe Zoë! Viel Freude mit der Mütze im Winter. Deine Łucja",
        ],
      ]),
    );

    // Calling it again is harmless.
    expect(await mirror.advanceMirrorSync(ctx, syncId)).toEqual(progress);
  });

  it("GIVEN orders/updated for an order not yet mirrored WHEN the webhook arrives THEN the order is mirrored", async () => {
    const order = seeded.at(-1)!;
    await prisma.mirrorOrder.deleteMany({ where: { id: order.id } });
    const response = await ordersWebhook({
      request: signedWebhook("orders/updated", { id: Number(order.id.split("/").pop()), admin_graphql_api_id: order.id }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    await jobs().idle(); // the delivery's job re-reads the order after the answer
    expect((await prisma.mirrorOrder.findUnique({ where: { id: order.id } }))?.name).toBe(order.name);
  });

  it("GIVEN an order with a note and a gift message WHEN orders/updated re-reads it THEN the mirror keeps both", async () => {
    const [gift] = (
      await harness.gql<{ orders: { nodes: Array<{ id: string; note: string | null }> } }>(`{ orders(first: 5, query: "status:open") { nodes { id note } } }`)
    ).body.data!.orders.nodes.filter((order) => order.note?.includes("Aunt") || order.note?.startsWith("Please leave the parcel"));
    expect(gift).toBeDefined();
    await prisma.mirrorOrder.deleteMany({ where: { id: gift!.id } });
    const response = await ordersWebhook({
      request: signedWebhook("orders/updated", { id: Number(gift!.id.split("/").pop()), admin_graphql_api_id: gift!.id }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(200);
    await jobs().idle();
    const [mirrored] = await mirror.loadMirroredOrders(ctx, [gift!.id]);
    expect(mirrored?.note).toBe(gift!.note);
    expect(mirrored?.customAttributes).toEqual([
      { key: "Gift message", value: "Happy birthday, Sam! A tote for the farmers' market on Saturdays. Love, Aunt Ruth" },
    ]);
  });

  it("GIVEN orders/updated WHEN it arrives, and again with the same X-Shopify-Webhook-Id THEN it is answered before the order is read, recorded once, and the redelivery is acknowledged without reading it again", async () => {
    const order = seeded.at(-2)!;
    await prisma.mirrorOrder.deleteMany({ where: { id: order.id } });
    const request = signedWebhook("orders/updated", { id: Number(order.id.split("/").pop()), admin_graphql_api_id: order.id });
    const again = request.clone();
    const started = performance.now();
    const response = await ordersWebhook({ request, params: {}, context: {} });
    const answeredInMs = performance.now() - started;
    expect(response.status).toBe(200);
    expect(answeredInMs).toBeLessThan(1_000);
    expect(await prisma.mirrorOrder.findUnique({ where: { id: order.id } })).toBeNull(); // answered first, worked after
    await jobs().idle();
    expect((await prisma.mirrorOrder.findUnique({ where: { id: order.id } }))?.name).toBe(order.name);
    const webhookId = request.headers.get("X-Shopify-Webhook-Id")!;
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { shop_webhookId: { shop: SHOP, webhookId } } })).toMatchObject({
      shop: SHOP,
      topic: "ORDERS_UPDATED",
      processedAt: expect.any(Date),
    });

    await prisma.mirrorOrder.deleteMany({ where: { id: order.id } });
    expect((await ordersWebhook({ request: again, params: {}, context: {} })).status).toBe(200);
    await jobs().idle();
    expect(await prisma.mirrorOrder.findUnique({ where: { id: order.id } })).toBeNull();
    expect(await prisma.webhookDelivery.count({ where: { webhookId } })).toBe(1);
  });

  it("GIVEN a hold placed in Shopify WHEN fulfillment_orders/placed_on_hold arrives THEN the mirror shows the hold", async () => {
    const row = await prisma.mirrorFulfillmentOrder.findFirstOrThrow({ where: { shop: SHOP, status: "OPEN" } });
    const hold = await harness.gql<{ fulfillmentOrderHold: { userErrors: unknown[] } }>(
      `mutation($id: ID!) { fulfillmentOrderHold(id: $id, fulfillmentHold: { reason: OTHER, reasonNotes: "Address check" }) { userErrors { message } } }`,
      { id: row.id },
    );
    expect(hold.body.data?.fulfillmentOrderHold.userErrors).toEqual([]);
    // Shopify's payload names the fulfillment order only; the app finds its order through the mirror.
    const request = signedWebhook("fulfillment_orders/placed_on_hold", { fulfillment_order: { id: row.id, status: "on_hold" } });
    expect((await fulfillmentOrdersWebhook({ request, params: {}, context: {} })).status).toBe(200);
    await jobs().idle();
    const after = await prisma.mirrorFulfillmentOrder.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.status).toBe("ON_HOLD");
    expect(JSON.parse(after.holds)).toEqual([{ reason: "OTHER", reasonNotes: "Address check" }]);
  });

  it("GIVEN a shop never synced THEN Orders to ship starts nothing (NONE); WHEN installation queues the first sync THEN the page shows it queued or running, its job completes it, and loading the page again starts no other", async () => {
    await prisma.mirrorSync.deleteMany({ where: { shop: SHOP } });
    expect(await currentMirrorSync(ctx)).toEqual({ status: "NONE", error: null, saved: null });
    expect(await prisma.mirrorSync.count({ where: { shop: SHOP } })).toBe(0);

    await queueFirstMirrorSync(ctx);
    let sync = await currentMirrorSync(ctx);
    expect(["QUEUED", "RUNNING"]).toContain(sync.status);
    for (let attempt = 0; (sync.status === "RUNNING" || sync.status === "QUEUED") && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sync = await currentMirrorSync(ctx);
    }
    expect(sync).toEqual({ status: "COMPLETED", error: null, saved: 1 });
    expect(await currentMirrorSync(ctx)).toEqual(sync);
    expect(await prisma.mirrorSync.count({ where: { shop: SHOP } })).toBe(1);
  });
});
