import { createPrismaClient } from "../../app/db/db-client.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toGid } from "../../devstore/gid";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { syncOrderMirror } from "../support/mirror-sync";
import { expectKilledAtCrashPoint, expectRanToEnd, runAppProcess, runUntilSurvived, type AppProcessExit } from "../support/app-process";
import { createBookedShipments, shippableFulfillmentOrders, type FulfillmentOrderToShip } from "../factories/booked-shipments";
import { SHOP } from "../support/devstore-harness";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";

// The write-back in real processes that die at the dangerous moments (kill -9, no cleanup), against the local
// admin over HTTP and a real SQLite file; then a fresh process picks up as the app does at startup.
// This process reads the orders into the mirror through the app's own client, with the children's environment.
const { service, harness, databaseUrl, customer, appProcessEnv } = await startServiceAndAdmin({ orders: 40, scope: "write_fulfillments" });
const db = createPrismaClient(databaseUrl);
const store = harness.admin.store;
const available = shippableFulfillmentOrders(store);

function take(count: number): FulfillmentOrderToShip[] {
  return available.splice(0, count);
}

/** Runs test/support/write-back-worker.ts in a new process, dying at `crashAt` when given. */
function runWorker(crashAt?: string): Promise<AppProcessExit> {
  return runAppProcess("write-back-worker.ts", [], appProcessEnv(crashAt));
}

/** Fulfillments (not cancelled) of the order that carry this tracking number, as the local admin holds them. */
function fulfillmentsWith(orderId: string, trackingNumber: string) {
  const id = Number(orderId.split("/").pop());
  return store.listFulfillments(id).filter((f) => f.status !== "CANCELLED" && store.listTrackingInfo(f.id).some((t) => t.number === trackingNumber));
}

async function expectExactlyOncePerShipment(ids: string[]) {
  const rows = await db.shipment.findMany({ where: { id: { in: ids } } });
  expect(rows).toHaveLength(ids.length);
  for (const row of rows) {
    const found = fulfillmentsWith(row.orderId, row.trackingNumber!);
    expect(found, `${row.orderName} ${row.trackingNumber}`).toHaveLength(1);
    expect(row).toMatchObject({ fulfillmentStatus: "FULFILLED", fulfillmentId: toGid("Fulfillment", found[0]!.id), fulfillmentError: null });
  }
}

beforeAll(async () => {
  // The orders are in the mirror, as after quoting: a shipment never sent is created without reading first,
  // so the processes below die around that unread create.
  const { unauthenticated } = await import("../../app/shopify.server");
  await syncOrderMirror({ admin: (await unauthenticated.admin(SHOP)).admin, shop: SHOP }, db);
});
afterAll(async () => {
  await db.$disconnect();
  await harness.close();
  await service.close();
});

describe("fulfillment write-back across crashes", () => {
  it("GIVEN the process dies after recording intent, before fulfillmentCreate THEN a fresh process fulfils every shipment once", async () => {
    const shipments = await createBookedShipments({ db, shop: SHOP, client: service.clientFor(customer), fulfillmentOrders: take(3) });

    expectKilledAtCrashPoint(await runWorker("fulfillment:before-create"));
    const first = await db.shipment.findUniqueOrThrow({ where: { id: shipments[0]!.id } });
    expect(first.fulfillmentStatus).toBe("CREATING");
    expect(fulfillmentsWith(first.orderId, first.trackingNumber!)).toEqual([]);

    expectRanToEnd(await runWorker());
    await expectExactlyOncePerShipment(shipments.map((s) => s.id));
  }, 60_000);

  it("GIVEN every process dies right after fulfillmentCreate, before recording it THEN each next process links the last one and none is duplicated or missing", async () => {
    const shipments = await createBookedShipments({ db, shop: SHOP, client: service.clientFor(customer), fulfillmentOrders: take(4) });

    const crashes = await runUntilSurvived(() => runWorker("fulfillment:after-create"), {
      maxDeaths: shipments.length,
      afterDeath: async () => {
        // Created in Shopify, not yet recorded: exactly one shipment is left CREATING, and its fulfillment exists.
        const creating = await db.shipment.findMany({ where: { id: { in: shipments.map((s) => s.id) }, fulfillmentStatus: "CREATING" } });
        expect(creating).toHaveLength(1);
        expect(fulfillmentsWith(creating[0]!.orderId, creating[0]!.trackingNumber!)).toHaveLength(1);
      },
    });
    // One death per shipment: each process linked the previous one's fulfillment, then created the next.
    expect(crashes).toBe(shipments.length);
    await expectExactlyOncePerShipment(shipments.map((s) => s.id));
  }, 120_000);
});
