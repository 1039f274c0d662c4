import { afterAll, describe, expect, it } from "vitest";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { syncOrderMirror } from "../support/mirror-sync";
import { contextOf } from "../factories/context";
import { SHOP } from "./devstore-harness";

// 1,200 selected orders (issue 30): past the 999 values SQLite takes in one statement through Prisma, where
// quoting used to fail at about 1,000. Quoted against the real service, the rates page's data loaded, and the
// picks batched as the merchant would: 500 to a batch, "(1/3)" … on the service.
const SELECTED = 1_200;
const { service, harness } = await startServiceAndAdmin({ orders: 1_800, scope: "read_orders" });
const { default: prisma } = await import("../../app/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { loadQuoteRunView } = await import("../../app/quoting/run-view.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");

afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("quoting a busy shop's selection", () => {
  it(`GIVEN ${SELECTED.toLocaleString("en-US")} selected orders WHEN they are quoted THEN every one is quoted or says why not, the rates page loads, and the picks go into batches of 500 named (1/N)`, async () => {
    const { admin } = await unauthenticated.admin(SHOP);
    const ctx = contextOf({ admin, shop: SHOP }, prisma, service.clock.now());
    await syncOrderMirror({ admin, shop: SHOP }, prisma);
    const ids = (await prisma.mirrorOrder.findMany({ where: { shop: SHOP }, orderBy: { orderCreatedAt: "desc" }, select: { id: true }, take: SELECTED })).map(
      (order) => order.id,
    );
    expect(ids).toHaveLength(SELECTED);

    const run = await startQuoteRun(ctx, ids);
    await run.finished;
    const shipments = await prisma.shipment.findMany({
      where: { runId: run.runId },
      select: { id: true, orderId: true, quoteStatus: true, selectedQuoteId: true },
    });
    const blocked = await prisma.blockedOrder.findMany({ where: { runId: run.runId }, select: { orderId: true } });
    expect(new Set([...shipments.map((shipment) => shipment.orderId), ...blocked.map((order) => order.orderId)])).toEqual(new Set(ids));
    expect(shipments.filter((shipment) => shipment.quoteStatus === "PENDING")).toEqual([]);
    const picked = shipments.filter((shipment) => shipment.quoteStatus === "QUOTED" && shipment.selectedQuoteId !== null);
    expect(picked.length).toBeGreaterThan(2 * 400);
    expect(await prisma.quoteRun.findUniqueOrThrow({ where: { id: run.runId } })).toMatchObject({ status: "COMPLETED", shipmentsDone: shipments.length });

    const view = await loadQuoteRunView(ctx, run.runId);
    expect(view.run.status).toBe("COMPLETED");

    const created = await createBatches(await shippingContext(prisma, SHOP, service.clock.now()), {
      name: "Peak week",
      shipmentIds: picked.map((shipment) => shipment.id),
    });
    expect(created.errors).toEqual([]);
    expect(created.refused).toEqual([]);
    const parts = Math.ceil(picked.length / 500);
    expect(created.batches.map((batch) => batch.name)).toEqual(Array.from({ length: parts }, (_, index) => `Peak week (${index + 1}/${parts})`));
    expect(created.batches.map((batch) => batch.orders).reduce((sum, orders) => sum + orders, 0)).toBe(picked.length);
    expect(Math.max(...created.batches.map((batch) => batch.orders))).toBeLessThanOrEqual(500);
    expect(created.batches.every((batch) => batch.status === "OPEN")).toBe(true);
  }, 240_000);
});
