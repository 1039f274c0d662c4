import { afterAll, describe, expect, it } from "vitest";
import { contextOf } from "../factories/context";
import { toGid } from "../../devstore/gid";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { syncOrderMirror } from "../support/mirror-sync";
import { observeAdmin } from "../support/observed-admin";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { SHOP } from "../support/devstore-harness";

// A shop on a larger plan (a 2,000-point bucket restoring 300 points/s, as the local admin reports it): the
// write-back keeps three shipments in flight, still through the one pacer, still once each.
const { service, harness, customer } = await startServiceAndAdmin({
  orders: 40,
  throttle: { bucketSize: 2000, restoreRate: 300 },
  scope: "read_orders,write_fulfillments",
});
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const writeBack = await import("../../app/fulfillment/write-back.server");

afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("fulfillment write-back on a larger plan", () => {
  it("GIVEN a bucket restoring 300 points/s WHEN twelve shipments are written back THEN three are in flight at a time, each is fulfilled once, and nothing is THROTTLED", async () => {
    const { admin, seen } = observeAdmin((await unauthenticated.admin(SHOP)).admin);
    const context = { admin, shop: SHOP };
    await syncOrderMirror(context, prisma);
    const shipments = await createBookedShipments({
      db: prisma,
      shop: SHOP,
      client: service.clientFor(customer),
      fulfillmentOrders: shippableFulfillmentOrders(harness.admin.store, 12),
    });

    expect(await writeBack.writeBack(contextOf(context, prisma))).toEqual({ fulfilled: 12, failed: 0 });

    expect(seen.peakInFlight.get("CreateShipmentFulfillment")).toBe(3);
    expect(seen.throttled).toBe(0);
    for (const shipment of shipments) {
      const row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      const orderId = Number(shipment.orderId.split("/").pop());
      const found = harness.admin.store
        .listFulfillments(orderId)
        .filter((f) => harness.admin.store.listTrackingInfo(f.id).some((t) => t.number === shipment.trackingNumber));
      expect(found, shipment.orderName).toHaveLength(1);
      expect(row).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentAttempts: 1, fulfillmentId: toGid("Fulfillment", found[0]!.id) });
    }
  }, 60_000);
});
