import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toGid } from "../../devstore/gid";
import { fulfillmentOrderHold } from "../../devstore/store/fulfillment-ops";
import { useAppEnvironment } from "../support/app-env";
import { expectMirrorOfAdmin, openFulfillmentOrders } from "../support/mirror-expectations";
import { contextOf } from "../factories/context";
import { API_KEY, API_SECRET, SHOP, startHarness, type Harness } from "../support/devstore-harness";

// A shop of more than 3,000 open orders (issue 30): the first sync and a reconcile through the real bulk
// operation of the local admin, on SQLite and (vitest.postgres.config.ts) PostgreSQL, where the sync used to
// die in one interactive transaction at about 2,000 orders.
const harness: Harness = await startHarness({ orders: 4_200, throttle: { bucketSize: 2000, restoreRate: 1000 } });
useAppEnvironment({ LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET });
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const mirror = await import("../../app/orders/mirror.server");
const store = harness.admin.store;

async function completeSync(ctx: Parameters<typeof mirror.advanceMirrorSync>[0], syncId: string) {
  let progress = await mirror.advanceMirrorSync(ctx, syncId);
  while (progress.status === "RUNNING") {
    await new Promise((resolve) => setTimeout(resolve, 50));
    progress = await mirror.advanceMirrorSync(ctx, syncId);
  }
  return progress;
}

describe("the order mirror at a busy shop's size", () => {
  let shopAdmin: { admin: Awaited<ReturnType<typeof unauthenticated.admin>>["admin"]; shop: string };

  beforeAll(async () => {
    await prisma.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: "read_orders" } });
    const { admin, session } = await unauthenticated.admin(SHOP);
    shopAdmin = { admin, shop: session.shop };
  });
  afterAll(() => harness.close());

  it("GIVEN more than 3,000 open orders WHEN the first sync runs THEN every open fulfillment order is mirrored under its order, saved piece by piece to the end of the export", async () => {
    expect(new Set(openFulfillmentOrders(store).values()).size).toBeGreaterThan(3_000);
    const ctx = contextOf(shopAdmin, prisma);
    const { syncId } = await mirror.startMirrorSync(ctx);
    const progress = await completeSync(ctx, syncId);

    const orders = await expectMirrorOfAdmin(prisma, store, SHOP);
    expect(progress).toEqual({ status: "COMPLETED", ordersSeen: orders });
    const sync = await prisma.mirrorSync.findUniqueOrThrow({ where: { id: syncId } });
    expect(sync.exportLines).toBeGreaterThan(orders);
    expect(sync.linesSaved).toBe(sync.exportLines);
  }, 120_000);

  it("GIVEN a reconcile whose export was read before a hold was placed WHEN the hold's webhook re-reads the order during the sync THEN the export's older row does not overwrite it, and an order fulfilled since leaves the mirror", async () => {
    const open = [...openFulfillmentOrders(store)];
    const [heldFo, heldOrder] = open[10]!;
    const fulfilledOrder = open.find(([, order]) => order !== heldOrder)![1];

    const syncCtx = contextOf(shopAdmin, prisma);
    const { syncId } = await mirror.startMirrorSync(syncCtx);
    await harness.admin.bulkOperations.idle();
    // After the export read it: the hold, and the webhook's re-read of the order a moment later.
    const held = fulfillmentOrderHold(store, Number(heldFo.split("/").pop()), { reason: "OTHER", reasonNotes: "Checking stock" });
    expect(held.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await mirror.refreshOrder(contextOf(shopAdmin, prisma), heldOrder);
    // Also after the export read it: every fulfillment order of another order closed in Shopify, with no webhook.
    const fulfilledId = Number(fulfilledOrder.split("/").pop());
    store.sql("UPDATE fulfillment_orders SET status = 'CLOSED' WHERE order_id = ?").run(fulfilledId);

    expect((await completeSync(syncCtx, syncId)).status).toBe("COMPLETED");
    const [order] = await mirror.loadMirroredOrders(syncCtx, [heldOrder]);
    expect(order?.fulfillmentOrders.find((fo) => fo.id === heldFo)).toMatchObject({
      status: "ON_HOLD",
      holds: [{ reason: "OTHER", reasonNotes: "Checking stock" }],
    });
    // That order was open in this export, so it stays until a webhook or the next sync says otherwise: the next sync removes it.
    const next = await mirror.startMirrorSync(contextOf(shopAdmin, prisma));
    expect((await completeSync(contextOf(shopAdmin, prisma), next.syncId)).status).toBe("COMPLETED");
    expect(await prisma.mirrorOrder.findUnique({ where: { id: toGid("Order", fulfilledId) } })).toBeNull();
    await expectMirrorOfAdmin(prisma, store, SHOP);
  }, 120_000);
});
