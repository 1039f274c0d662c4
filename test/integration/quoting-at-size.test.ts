import { afterAll, describe, expect, it } from "vitest";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { syncOrderMirror } from "../support/mirror-sync";
import { contextOf } from "../factories/context";
import { SHOP } from "../support/devstore-harness";

// 1,200 selected orders (issue 30): past the 999 values SQLite takes in one statement through Prisma, where
// quoting used to fail at about 1,000. Quoted against the real service, the rates page's data loaded, the
// picks batched as the merchant would: 500 to a batch, "(1/3)" … on the service; then every batch booked and
// every label written back to the local admin as one fulfillment, each exactly once. The local admin's bucket is
// large, so the run is bound by the app's own work and not by Shopify's throttle (that is bench:write-back's).
const SELECTED = 1_200;
const { service, harness } = await startServiceAndAdmin({
  orders: 1_800,
  throttle: { bucketSize: 100_000, restoreRate: 100_000 },
  scope: "read_orders,write_fulfillments",
});
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { loadQuoteRunView } = await import("../../app/quoting/run-view.server");
const { shippingContext } = await import("../factories/context");
const { createBatches } = await import("../../app/booking/creation.server");
const { bookBatch } = await import("../../app/booking/batch-booking.server");
const { writeBackSettled } = await import("../../app/fulfillment/write-back.server");

afterAll(async () => {
  await harness.close();
  await service.close();
});

const begun = performance.now();
/** Where the test is, for a run that times out under load. */
const step = (what: string) => console.log(`at size: ${what} after ${Math.round((performance.now() - begun) / 1000)} s`);
const numericId = (gid: string) => Number(gid.split("/").pop());
const servicedShipments = () => Number((service.db.statement(`SELECT COUNT(*) AS "count" FROM "Shipment"`).get() as { count: number | bigint }).count);

describe("quoting and booking a busy shop's selection", () => {
  it(`GIVEN ${SELECTED.toLocaleString("en-US")} selected orders WHEN they are quoted, batched and booked THEN every one is quoted or says why not, the rates page loads, the picks go into batches of 500 named (1/N), and each is booked once and fulfilled once`, async () => {
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
    step(`${picked.length} picks in ${created.batches.length} batches`);

    // Every batch booked; booking one again is refused, so nothing is booked twice.
    const shipping = await shippingContext(prisma, SHOP, service.clock.now());
    const fulfillmentsBefore = harness.admin.store.countRows("fulfillments");
    const servicedBefore = servicedShipments();
    for (const batch of created.batches) {
      expect(await bookBatch(shipping, batch.id)).toMatchObject({ ok: true, booked: batch.orders, failed: 0 });
      expect(await bookBatch(shipping, batch.id)).toMatchObject({ ok: false });
    }
    step("booked");
    await writeBackSettled(shipping);
    step("written back");
    const booked = await prisma.shipment.findMany({
      where: { runId: run.runId, batchId: { not: null } },
      select: { orderId: true, bookingStatus: true, fulfillmentStatus: true, fulfillmentId: true, bookNumber: true, trackingNumber: true },
    });
    expect(booked).toHaveLength(picked.length);
    expect(booked.filter((shipment) => shipment.bookingStatus !== "BOOKED" || shipment.fulfillmentStatus !== "FULFILLED")).toEqual([]);
    // Once on the service: one label per shipment, each its own.
    expect(new Set(booked.map((shipment) => shipment.bookNumber)).size).toBe(picked.length);
    expect(servicedShipments() - servicedBefore).toBe(picked.length);
    // Once in Shopify: one fulfillment per shipment, carrying its tracking number, and no other.
    expect(harness.admin.store.countRows("fulfillments") - fulfillmentsBefore).toBe(picked.length);
    expect(new Set(booked.map((shipment) => shipment.fulfillmentId)).size).toBe(picked.length);
    for (const shipment of booked) {
      const carrying = harness.admin.store
        .listFulfillments(numericId(shipment.orderId))
        .filter((fulfillment) => harness.admin.store.listTrackingInfo(fulfillment.id).some((info) => info.number === shipment.trackingNumber));
      expect(carrying).toHaveLength(1);
    }
  }, 900_000);
});
