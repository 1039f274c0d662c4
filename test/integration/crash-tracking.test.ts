import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextOf } from "../factories/context";
import { parseGid } from "../../devstore/gid";
import { CLAIM_LEASE_MS } from "../../app/tracking/schedule";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { runAppProcess, type AppProcessExit } from "../support/app-process";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { API_KEY, API_SECRET, SHOP } from "./devstore-harness";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";

// Tracking writes in real processes that die between intent and outcome (kill -9, no cleanup), against the
// local admin over HTTP and a real SQLite file; a fresh process then resumes, as after a crash in production.
const { service, harness, databaseUrl, customer } = await startServiceAndAdmin({ orders: 30, scope: "write_fulfillments" });
const { default: prisma } = await import("../../app/db.server");
const { writeBack } = await import("../../app/fulfillment/write-back.server");
const { unauthenticated } = await import("../../app/shopify.server");
const store = harness.admin.store;
const HOUR = 3_600_000;
const now = () => service.clock.now();

/** One tracking pass in a new process at the service's time, dying at `crashAt` when given. */
function runWorker(crashAt?: string): Promise<AppProcessExit> {
  return runAppProcess("tracking-worker.ts", [SHOP, now().toISOString()], {
    DATABASE_URL: databaseUrl,
    LOCAL_ADMIN_URL: harness.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHIPPING_API_URL: service.baseUrl,
    CONSIGN_CRASH_AT: crashAt,
  });
}

/** The local admin's events of the fulfillment as [status, happenedAt]. */
function shopifyEvents(fulfillmentGid: string): string[] {
  return store.listFulfillmentEvents(parseGid(fulfillmentGid)!.id).map((e) => `${e.status} ${new Date(e.happened_at).toISOString()}`);
}

async function expectWrittenOnce(ids: string[]) {
  for (const row of await prisma.shipment.findMany({ where: { id: { in: ids } }, include: { trackingEvents: true } })) {
    const inShopify = shopifyEvents(row.fulfillmentId!);
    expect(new Set(inShopify).size, `${row.orderName}: ${inShopify.join(", ")}`).toBe(inShopify.length);
    const written = row.trackingEvents.filter((e) => e.writeStatus === "WRITTEN").map((e) => `${e.shopifyStatus} ${e.eventTime.toISOString()}`);
    expect(written.sort()).toEqual([...inShopify].sort());
    expect(row.trackingEvents.filter((e) => e.writeStatus === "PENDING" || e.writeStatus === "WRITING")).toEqual([]);
  }
}

let ids: string[] = [];
beforeAll(async () => {
  const rows = await createBookedShipments({
    db: prisma,
    shop: SHOP,
    client: service.clientFor(customer),
    fulfillmentOrders: shippableFulfillmentOrders(store, 3),
    bookedAt: now(),
  });
  const { admin } = await unauthenticated.admin(SHOP);
  expect(await writeBack(contextOf({ admin, shop: SHOP }, prisma, now))).toEqual({ fulfilled: 3, failed: 0 });
  ids = rows.map((row) => row.id);
});
afterAll(async () => {
  await harness.close();
  await service.close();
});

describe("tracking writes across crashes", () => {
  it("GIVEN the process dies after recording intent, before fulfillmentEventCreate THEN a fresh process writes the event exactly once", async () => {
    service.clock.advance(HOUR);
    const crashed = await runWorker("tracking:before-event");
    expect(crashed.signal, crashed.output).toBe("SIGKILL");
    // Polls run a few at a time, so several intents may be recorded; none reached Shopify.
    const writing = await prisma.trackingEvent.findMany({ where: { shipmentId: { in: ids }, writeStatus: "WRITING" }, include: { shipment: true } });
    expect(writing.length).toBeGreaterThanOrEqual(1);
    for (const event of writing) expect(shopifyEvents(event.shipment.fulfillmentId!)).toEqual([]);

    // The crashed pass's claims run out after their lease; then the next pass picks everything up.
    service.clock.advance(CLAIM_LEASE_MS + 60_000);
    const resumed = await runWorker();
    expect(resumed.code, resumed.output).toBe(0);
    await expectWrittenOnce(ids);
    for (const row of await prisma.shipment.findMany({ where: { id: { in: ids } } })) expect(shopifyEvents(row.fulfillmentId!)).toHaveLength(1);
  }, 60_000);

  it("GIVEN every process dies right after fulfillmentEventCreate, before recording it THEN each next process reads the event back and none is written twice", async () => {
    // Past pickup: each shipment has a new status (In Transit) to write.
    service.clock.advance(36 * HOUR);
    let crashes = 0;
    for (;;) {
      const run = await runWorker("tracking:after-event");
      if (run.signal === null) {
        expect(run.code, run.output).toBe(0);
        break;
      }
      expect(run.signal, run.output).toBe("SIGKILL");
      crashes++;
      // Written to Shopify, not yet recorded: events are left WRITING, and Shopify has at least the one that
      // returned (others in flight at the kill may or may not have arrived: the read-back decides).
      const writing = await prisma.trackingEvent.findMany({ where: { shipmentId: { in: ids }, writeStatus: "WRITING" }, include: { shipment: true } });
      const inShopify = writing.filter((event) =>
        shopifyEvents(event.shipment.fulfillmentId!).includes(`${event.shopifyStatus} ${event.eventTime.toISOString()}`),
      );
      expect(inShopify.length).toBeGreaterThanOrEqual(1);
      expect(crashes).toBeLessThanOrEqual(ids.length);
      service.clock.advance(CLAIM_LEASE_MS + 60_000);
    }
    expect(crashes).toBeGreaterThanOrEqual(1);
    await expectWrittenOnce(ids);
    for (const row of await prisma.shipment.findMany({ where: { id: { in: ids } } })) expect(row.shopifyStatus).toBe("IN_TRANSIT");
  }, 120_000);
});
