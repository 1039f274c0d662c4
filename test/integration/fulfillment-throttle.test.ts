import { afterAll, describe, expect, it } from "vitest";
import { contextOf } from "../factories/context";
import { z } from "zod";
import type { AdminDocument } from "../../app/shopify/admin-document";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { observeAdmin } from "../support/observed-admin";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { SHOP } from "../support/devstore-harness";

// A local admin with a small, slow cost bucket that something else has just emptied: the write-back must wait
// for points instead of failing, and no THROTTLED may ever reach a shipment's outcome.
const THROTTLE = { bucketSize: 250, restoreRate: 50 };
const { service, harness, customer } = await startServiceAndAdmin({ orders: 40, throttle: THROTTLE, scope: "write_fulfillments" });
const { default: prisma } = await import("../../app/db/db.server");
const writeBack = await import("../../app/fulfillment/write-back.server");
const { processServices } = await import("../../app/context.server");

afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("fulfillment write-back under a low throttle", () => {
  it("GIVEN an emptied 250-point bucket restoring 50 points/s WHEN eight shipments are written back THEN all are fulfilled after waiting, none failed", async () => {
    const shipments = await createBookedShipments({
      db: prisma,
      shop: SHOP,
      client: service.clientFor(customer),
      fulfillmentOrders: shippableFulfillmentOrders(harness.admin.store, 8),
    });
    const fulfillmentsBefore = harness.admin.store.countRows("fulfillments");
    const bucket = harness.admin.throttle;
    expect(bucket.tryCharge(bucket.status().currentlyAvailable)).toBe(true);

    const started = performance.now();
    await writeBack.startWriteBack(processServices.context(SHOP));
    const elapsedMs = performance.now() - started;

    const rows = await prisma.shipment.findMany({ where: { id: { in: shipments.map((s) => s.id) } } });
    expect(rows.map((row) => [row.fulfillmentStatus, row.fulfillmentError])).toEqual(rows.map(() => ["FULFILLED", null]));
    // Every fulfillmentCreate alone is charged 11 points, so the run had to wait for at least this many points.
    expect(elapsedMs).toBeGreaterThanOrEqual(((shipments.length * 11) / THROTTLE.restoreRate) * 1000);
    expect(harness.admin.store.countRows("fulfillments") - fulfillmentsBefore).toBe(shipments.length);
  }, 60_000);

  it("GIVEN another writer spending the same shop's bucket at the same time (as tracking-event writes do) THEN both wait their turn and Shopify never answers THROTTLED", async () => {
    const { unauthenticated } = await import("../../app/shopify.server");
    const { adminQuery } = await import("../../app/shopify/gateway.server");
    const { admin, seen } = observeAdmin((await unauthenticated.admin(SHOP)).admin);
    const context = { admin, shop: SHOP };
    // About 50 points a call: with the write-back's creates, more than the 250-point bucket holds.
    const OTHER_WRITER = `query OtherWriterOfTheShop { orders(first: 50) { nodes { id } } }` as AdminDocument<
      { orders: { nodes: Array<{ id: string }> } },
      Record<string, never>
    >;
    const Orders = z.object({ orders: z.object({ nodes: z.array(z.object({ id: z.string() })) }) });
    // Each operation's cost is learnt from its first answer, as in a running app.
    await adminQuery(context, OTHER_WRITER, Orders);
    const shipments = await createBookedShipments({
      db: prisma,
      shop: SHOP,
      client: service.clientFor(customer),
      fulfillmentOrders: shippableFulfillmentOrders(harness.admin.store, 16).slice(8),
    });
    seen.throttled = 0;

    const other = (async () => {
      for (let call = 0; call < 8; call++) await adminQuery(context, OTHER_WRITER, Orders);
    })();
    const [summary] = await Promise.all([writeBack.writeBack(contextOf(context, prisma)), other]);

    expect(summary).toEqual({ fulfilled: shipments.length, failed: 0 });
    expect(seen.throttled).toBe(0);
  }, 60_000);
});
