import { beforeAll, describe, expect, it } from "vitest";
import { TEST_API_SECRET, useAppEnvironment } from "../support/app-env";
import { signedWebhook as signedRequest } from "../support/webhooks";

useAppEnvironment();
const { default: prisma } = await import("../../app/db/db.server");
const { action: appWebhook } = await import("../../app/routes/webhooks.app");
const { action: ordersWebhook } = await import("../../app/routes/webhooks.orders");
const { action: complianceWebhook } = await import("../../app/routes/webhooks.compliance");
const { webhookDeliveryJob, webhookPruneJob } = await import("../../app/webhooks/webhooks.server");
const { processJobs: jobs, processServices } = await import("../../app/context.server");

const SHOP = "webhook-test.myshopify.com";

function signedWebhook(path: string, topic: string, payload: unknown, secret = TEST_API_SECRET): Request {
  return signedRequest({ path, topic, shop: SHOP, payload, secret });
}

async function statusOf(run: () => Promise<Response>): Promise<number> {
  try {
    return (await run()).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const args = (request: Request) => ({ request, params: {}, context: {} });

/** Answers the request with `route` and waits for the shop's delivery job: the route only records and queues. */
async function delivered(route: typeof appWebhook, request: Request): Promise<number> {
  const status = await statusOf(() => route(args(request.clone())));
  await jobs().drained(webhookDeliveryJob, { shop: request.headers.get("X-Shopify-Shop-Domain")! });
  return status;
}

describe("webhook routes", () => {
  beforeAll(async () => {
    await prisma.session.createMany({
      data: [
        { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "shpat_a" },
        { id: "offline_other.myshopify.com", shop: "other.myshopify.com", state: "", accessToken: "shpat_b" },
      ],
    });
  });

  it("GIVEN a webhook signed with another secret THEN it is refused with 401 and nothing changes", async () => {
    const request = signedWebhook("/webhooks/app", "app/uninstalled", { id: 1 }, "not-the-secret");
    expect(await statusOf(() => appWebhook(args(request)))).toBe(401);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("GIVEN a signed app/uninstalled THEN it is recorded by its webhook id and its job forgets that shop's sessions, others stay; the same id again does nothing", async () => {
    const request = signedWebhook("/webhooks/app", "app/uninstalled", { id: 1 });
    const webhookId = request.headers.get("X-Shopify-Webhook-Id")!;
    expect(await delivered(appWebhook, request)).toBe(200);
    expect(await prisma.webhookDelivery.findUniqueOrThrow({ where: { shop_webhookId: { shop: SHOP, webhookId } } })).toMatchObject({
      shop: SHOP,
      topic: "APP_UNINSTALLED",
      processedAt: expect.any(Date),
    });
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: "other.myshopify.com" } })).toBe(1);

    // Shopify redelivers the same id: acknowledged, not processed again (a session made since stays).
    await prisma.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: "shpat_again" } });
    expect(await delivered(appWebhook, request)).toBe(200);
    expect(await prisma.webhookDelivery.count({ where: { webhookId } })).toBe(1);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("GIVEN two shops' app/uninstalled with the same X-Shopify-Webhook-Id THEN each is its own delivery: both are recorded and both shops' sessions are forgotten", async () => {
    const [first, second] = ["same-id-a.myshopify.com", "same-id-b.myshopify.com"];
    await prisma.session.createMany({
      data: [first, second].map((shop) => ({ id: `offline_${shop}`, shop, state: "", accessToken: "shpat_same" })),
    });
    const webhookId = `same-id-${Date.now()}`;
    for (const shop of [first, second]) {
      const request = signedRequest({ path: "/webhooks/app", topic: "app/uninstalled", shop, payload: { id: 1 }, secret: TEST_API_SECRET, webhookId });
      expect(await delivered(appWebhook, request), shop).toBe(200);
    }
    expect((await prisma.webhookDelivery.findMany({ where: { webhookId }, orderBy: { shop: "asc" } })).map((row) => row.shop)).toEqual([first, second]);
    expect(await prisma.session.count({ where: { shop: { in: [first, second] } } })).toBe(0);
  });

  it("GIVEN a signed app/scopes_update THEN stored sessions carry the granted scopes", async () => {
    await prisma.session.create({ data: { id: "offline_scopes", shop: SHOP, state: "", accessToken: "shpat_c", scope: "read_orders" } });
    const request = signedWebhook("/webhooks/app", "app/scopes_update", { current: ["read_orders", "write_fulfillments"], previous: ["read_orders"] });
    expect(await delivered(appWebhook, request)).toBe(200);
    expect((await prisma.session.findUniqueOrThrow({ where: { id: "offline_scopes" } })).scope).toBe("read_orders,write_fulfillments");
    // The same delivery again, after the merchant changed scopes once more: the replay does not undo it.
    await prisma.session.update({ where: { id: "offline_scopes" }, data: { scope: "read_orders" } });
    expect(await delivered(appWebhook, request)).toBe(200);
    expect((await prisma.session.findUniqueOrThrow({ where: { id: "offline_scopes" } })).scope).toBe("read_orders");
  });

  it("GIVEN a signed app/scopes_update without its scopes THEN it is refused with 400 naming the field, and nothing is recorded", async () => {
    const request = signedWebhook("/webhooks/app", "app/scopes_update", { previous: ["read_orders"] });
    const response = await appWebhook(args(request));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/current/);
    expect(await prisma.webhookDelivery.count({ where: { webhookId: request.headers.get("X-Shopify-Webhook-Id")! } })).toBe(0);
  });

  it("GIVEN a signed shop/redact THEN it is recorded and its job erases the shop's data; a replay does nothing; a malformed customers/redact is refused with 400", async () => {
    const shop = "redact-me.myshopify.com";
    await prisma.session.create({ data: { id: `offline_${shop}`, shop, state: "", accessToken: "shpat_r" } });
    const request = signedRequest({
      path: "/webhooks/compliance",
      topic: "shop/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop },
      secret: TEST_API_SECRET,
    });
    expect(await delivered(complianceWebhook, request)).toBe(200);
    expect(await prisma.session.count({ where: { shop } })).toBe(0);
    await prisma.session.create({ data: { id: `offline_${shop}`, shop, state: "", accessToken: "shpat_r2" } });
    expect(await delivered(complianceWebhook, request)).toBe(200);
    expect(await prisma.session.count({ where: { shop } })).toBe(1);

    const malformed = signedRequest({ path: "/webhooks/compliance", topic: "customers/redact", shop, payload: { shop_domain: shop }, secret: TEST_API_SECRET });
    const response = await complianceWebhook(args(malformed));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/customer/);
    expect(await prisma.webhookDelivery.count({ where: { webhookId: malformed.headers.get("X-Shopify-Webhook-Id")! } })).toBe(0);
  });

  it("GIVEN orders/updated with a valid or an invalid HMAC THEN 200 and 401", async () => {
    expect(await statusOf(() => ordersWebhook(args(signedWebhook("/webhooks/orders", "orders/updated", { id: 1001 }))))).toBe(200);
    expect(await statusOf(() => ordersWebhook(args(signedWebhook("/webhooks/orders", "orders/updated", { id: 1001 }, "x"))))).toBe(401);
  });

  it("GIVEN deliveries processed 8 and 1 days ago and one never processed WHEN the daily prune runs THEN only the week-old processed one is forgotten", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const delivery = (id: string, processedAt: Date | null) => ({
      id,
      webhookId: id,
      shop: SHOP,
      topic: "ORDERS_UPDATED",
      payload: "{}",
      receivedAt: daysAgo(9),
      processedAt,
    });
    await prisma.webhookDelivery.createMany({ data: [delivery("old", daysAgo(8)), delivery("recent", daysAgo(1)), delivery("unprocessed", null)] });
    await webhookPruneJob.run({}, { attempt: 1, signal: new AbortController().signal, services: processServices });
    expect(
      (await prisma.webhookDelivery.findMany({ where: { id: { in: ["old", "recent", "unprocessed"] } }, orderBy: { id: "asc" } })).map((row) => row.id),
    ).toEqual(["recent", "unprocessed"]);
  });
});
