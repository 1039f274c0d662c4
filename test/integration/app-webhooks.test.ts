import { beforeAll, describe, expect, it } from "vitest";
import { noJobServices } from "../../app/jobs/job";
import { TEST_API_SECRET, useAppEnvironment } from "../support/app-env";
import { signedWebhook as signedRequest } from "../support/webhooks";

useAppEnvironment();
const { default: prisma } = await import("../../app/db.server");
const { action: appWebhook } = await import("../../app/routes/webhooks.app");
const { action: ordersWebhook } = await import("../../app/routes/webhooks.orders");
const { webhookPruneJob } = await import("../../app/webhooks.server");

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

  it("GIVEN a signed app/uninstalled THEN that shop's sessions are gone and others stay", async () => {
    const request = signedWebhook("/webhooks/app", "app/uninstalled", { id: 1 });
    expect(await statusOf(() => appWebhook(args(request)))).toBe(200);
    expect(await prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    expect(await prisma.session.count({ where: { shop: "other.myshopify.com" } })).toBe(1);
  });

  it("GIVEN a signed app/scopes_update THEN stored sessions carry the granted scopes", async () => {
    await prisma.session.create({ data: { id: "offline_scopes", shop: SHOP, state: "", accessToken: "shpat_c", scope: "read_orders" } });
    const request = signedWebhook("/webhooks/app", "app/scopes_update", { current: ["read_orders", "write_fulfillments"], previous: ["read_orders"] });
    expect(await statusOf(() => appWebhook(args(request)))).toBe(200);
    expect((await prisma.session.findUniqueOrThrow({ where: { id: "offline_scopes" } })).scope).toBe("read_orders,write_fulfillments");
  });

  it("GIVEN orders/updated with a valid or an invalid HMAC THEN 200 and 401", async () => {
    expect(await statusOf(() => ordersWebhook(args(signedWebhook("/webhooks/orders", "orders/updated", { id: 1001 }))))).toBe(200);
    expect(await statusOf(() => ordersWebhook(args(signedWebhook("/webhooks/orders", "orders/updated", { id: 1001 }, "x"))))).toBe(401);
  });

  it("GIVEN deliveries processed 8 and 1 days ago and one never processed WHEN the daily prune runs THEN only the week-old processed one is forgotten", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const delivery = (id: string, processedAt: Date | null) => ({ id, shop: SHOP, topic: "ORDERS_UPDATED", payload: "{}", receivedAt: daysAgo(9), processedAt });
    await prisma.webhookDelivery.createMany({ data: [delivery("old", daysAgo(8)), delivery("recent", daysAgo(1)), delivery("unprocessed", null)] });
    await webhookPruneJob.run({}, { attempt: 1, signal: new AbortController().signal, services: noJobServices });
    expect((await prisma.webhookDelivery.findMany({ where: { id: { in: ["old", "recent", "unprocessed"] } }, orderBy: { id: "asc" } })).map((row) => row.id)).toEqual(["recent", "unprocessed"]);
  });
});
