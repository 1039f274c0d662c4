import { afterAll, describe, expect, it } from "vitest";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { syncOrderMirror } from "../support/mirror-sync";
import { contextOf } from "../factories/context";
import { SHOP } from "./devstore-harness";

// Booking more than 500 selected orders (issue 30): the picks of a selection of 800 orders go into batches of 500
// named "(1/N)", each batch is booked on the real Shipping API service, and every booked label is written back to
// the local admin as one fulfillment, each exactly once. The local admin's bucket is large, so the run is bound
// by the app's own work and not by Shopify's throttle (that is bench:write-back's).
const SELECTED = 800;
const { service, harness } = await startServiceAndAdmin({
  orders: 1_300,
  throttle: { bucketSize: 100_000, restoreRate: 100_000 },
  scope: "read_orders,write_fulfillments",
});
const { default: prisma } = await import("../../app/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { shippingContext } = await import("../../app/shipping/context.server");
const { createBatches } = await import("../../app/booking/creation.server");
const { bookBatch } = await import("../../app/booking/batch-booking.server");
const { writeBackSettled } = await import("../../app/fulfillment/write-back.server");

afterAll(async () => {
  await harness.close();
  await service.close();
});

const begun = performance.now();
/** Where the test is, for a run that times out under load. */
const step = (what: string) => console.log(`booking at size: ${what} after ${Math.round((performance.now() - begun) / 1000)} s`);
const numericId = (gid: string) => Number(gid.split("/").pop());

describe("booking a busy shop's selection", () => {
  it(`GIVEN ${SELECTED.toLocaleString("en-US")} selected orders quoted WHEN their picks (over 500) are batched and every batch booked THEN each is booked once on the service and fulfilled once in Shopify`, async () => {
    const { admin } = await unauthenticated.admin(SHOP);
    const ctx = contextOf({ admin, shop: SHOP }, prisma, service.clock.now());
    await syncOrderMirror({ admin, shop: SHOP }, prisma);
    const ids = (await prisma.mirrorOrder.findMany({ where: { shop: SHOP }, orderBy: { orderCreatedAt: "desc" }, select: { id: true }, take: SELECTED })).map(
      (order) => order.id,
    );
    expect(ids).toHaveLength(SELECTED);
    const run = await startQuoteRun(ctx, ids);
    await run.finished;
    const picked = await prisma.shipment.findMany({
      where: { runId: run.runId, quoteStatus: "QUOTED", selectedQuoteId: { not: null } },
      select: { id: true },
    });
    expect(picked.length).toBeGreaterThan(500);
    step(`quoted: ${picked.length} picks`);

    const shipping = await shippingContext(prisma, SHOP, service.clock.now());
    const created = await createBatches(shipping, { name: "Peak week", shipmentIds: picked.map((shipment) => shipment.id) });
    expect(created.errors).toEqual([]);
    expect(created.refused).toEqual([]);
    const parts = Math.ceil(picked.length / 500);
    expect(created.batches.map((batch) => batch.name)).toEqual(Array.from({ length: parts }, (_, index) => `Peak week (${index + 1}/${parts})`));

    step(`${created.batches.length} batches created`);
    const fulfillmentsBefore = harness.admin.store.countRows("fulfillments");
    const servicedBefore = (service.db.statement(`SELECT COUNT(*) AS "count" FROM "Shipment"`).get() as { count: number | bigint }).count;
    for (const batch of created.batches) {
      expect(await bookBatch(shipping, batch.id)).toMatchObject({ ok: true, booked: batch.orders, failed: 0 });
      // Booking the same batch again is refused: nothing is booked twice.
      expect(await bookBatch(shipping, batch.id)).toMatchObject({ ok: false });
    }
    step("booked");
    await writeBackSettled({ shop: SHOP });
    step("written back");

    const shipments = await prisma.shipment.findMany({
      where: { id: { in: picked.map((shipment) => shipment.id) } },
      select: { orderId: true, bookingStatus: true, fulfillmentStatus: true, fulfillmentId: true, bookNumber: true, trackingNumber: true },
    });
    expect(shipments.filter((shipment) => shipment.bookingStatus !== "BOOKED" || shipment.fulfillmentStatus !== "FULFILLED")).toEqual([]);
    // Once on the service: one label per shipment, each its own.
    expect(new Set(shipments.map((shipment) => shipment.bookNumber)).size).toBe(picked.length);
    const serviced = (service.db.statement(`SELECT COUNT(*) AS "count" FROM "Shipment"`).get() as { count: number | bigint }).count;
    expect(Number(serviced) - Number(servicedBefore)).toBe(picked.length);
    // Once in Shopify: one fulfillment per shipment, carrying its tracking number, and no other.
    expect(harness.admin.store.countRows("fulfillments") - fulfillmentsBefore).toBe(picked.length);
    expect(new Set(shipments.map((shipment) => shipment.fulfillmentId)).size).toBe(picked.length);
    for (const shipment of shipments) {
      const carrying = harness.admin.store
        .listFulfillments(numericId(shipment.orderId))
        .filter((fulfillment) => harness.admin.store.listTrackingInfo(fulfillment.id).some((info) => info.number === shipment.trackingNumber));
      expect(carrying).toHaveLength(1);
    }
  }, 600_000);
});
