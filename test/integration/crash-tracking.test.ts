import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextOf } from "../factories/context";
import { parseGid } from "../../devstore/gid";
import { CLAIM_LEASE_MS } from "../../app/tracking/schedule";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { expectKilledAtCrashPoint, expectRanToEnd, runAppProcess, runUntilSurvived, type AppProcessExit } from "../support/app-process";
import { createBatchBookedBoxes, createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { parseServiceTimestamp } from "../../app/shipping/context.server";
import { SHOP } from "../support/devstore-harness";
import { ok } from "../support/service-harness";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";

// Tracking writes in real processes that die between intent and outcome (kill -9, no cleanup), against the
// local admin over HTTP and a real SQLite file; a fresh process then resumes, as after a crash in production.
const { service, harness, customer, appProcessEnv } = await startServiceAndAdmin({ orders: 30, scope: "write_fulfillments" });
const { default: prisma } = await import("../../app/db/db.server");
const { writeBack } = await import("../../app/fulfillment/write-back.server");
const { unauthenticated } = await import("../../app/shopify.server");
const store = harness.admin.store;
const HOUR = 3_600_000;
const now = () => service.clock.now();

/** One tracking pass in a new process at the service's time, dying at `crashAt` when given. */
function runWorker(crashAt?: string): Promise<AppProcessExit> {
  return runAppProcess("tracking-worker.ts", [SHOP, now().toISOString()], appProcessEnv(crashAt));
}

/** The app's write-back as it runs at start-up, in a new process, dying at `crashAt` when given. */
function runWriteBackProcess(crashAt?: string): Promise<AppProcessExit> {
  return runAppProcess("write-back-worker.ts", [], appProcessEnv(crashAt));
}

/** Tracking passes in new processes, each dying right after a fulfillmentEventCreate, until one finishes. */
function runWorkersDyingAfterEachEvent(): Promise<number> {
  return runUntilSurvived(() => runWorker("tracking:after-event"), {
    maxDeaths: 10,
    // The dead pass's claims run out after their lease; then the next pass takes them.
    afterDeath: () => service.clock.advance(CLAIM_LEASE_MS + 60_000),
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
    expectKilledAtCrashPoint(await runWorker("tracking:before-event"));
    // Polls run a few at a time, so several intents may be recorded; none reached Shopify.
    const writing = await prisma.trackingEvent.findMany({ where: { shipmentId: { in: ids }, writeStatus: "WRITING" }, include: { shipment: true } });
    expect(writing.length).toBeGreaterThanOrEqual(1);
    for (const event of writing) expect(shopifyEvents(event.shipment.fulfillmentId!)).toEqual([]);

    // The crashed pass's claims run out after their lease; then the next pass picks everything up.
    service.clock.advance(CLAIM_LEASE_MS + 60_000);
    expectRanToEnd(await runWorker());
    await expectWrittenOnce(ids);
    for (const row of await prisma.shipment.findMany({ where: { id: { in: ids } } })) expect(shopifyEvents(row.fulfillmentId!)).toHaveLength(1);
  }, 60_000);

  it("GIVEN every process dies right after fulfillmentEventCreate, before recording it THEN each next process reads the event back and none is written twice", async () => {
    // Past pickup: each shipment has a new status (In Transit) to write.
    service.clock.advance(36 * HOUR);
    const crashes = await runUntilSurvived(() => runWorker("tracking:after-event"), {
      maxDeaths: ids.length,
      afterDeath: async () => {
        // Written to Shopify, not yet recorded: events are left WRITING, and Shopify has at least the one that
        // returned (others in flight at the kill may or may not have arrived: the read-back decides).
        const writing = await prisma.trackingEvent.findMany({ where: { shipmentId: { in: ids }, writeStatus: "WRITING" }, include: { shipment: true } });
        const inShopify = writing.filter((event) =>
          shopifyEvents(event.shipment.fulfillmentId!).includes(`${event.shopifyStatus} ${event.eventTime.toISOString()}`),
        );
        expect(inShopify.length).toBeGreaterThanOrEqual(1);
        service.clock.advance(CLAIM_LEASE_MS + 60_000);
      },
    });
    expect(crashes).toBeGreaterThanOrEqual(1);
    await expectWrittenOnce(ids);
    for (const row of await prisma.shipment.findMany({ where: { id: { in: ids } } })) expect(row.shopifyStatus).toBe("IN_TRANSIT");
  }, 120_000);
});

describe("a shipment of two boxes booked in a batch, across crashes", () => {
  it("GIVEN a two-box shipment booked in a batch WHEN the write-back dies right after fulfillmentCreate and tracking passes die after each event THEN one fulfillment carries both boxes' numbers, and it is Delivered once, only after both boxes are", async () => {
    const client = service.clientFor(customer);
    const [fulfillmentOrder] = shippableFulfillmentOrders(store, 1);
    const row = await createBatchBookedBoxes({ db: prisma, shop: SHOP, client, fulfillmentOrder: fulfillmentOrder!, boxes: 2, bookedAt: now() });
    const [record] = ok(await client.searchShipments({ body: { keyword: row.bookNumber! } })).shipments;
    const numbers = record!.trackingNumbers;
    expect(numbers).toHaveLength(2);
    expect(numbers[0]).toBe(row.trackingNumber);

    // Write-back: the boxes' numbers are read and stored before the create; the process dies right after it.
    expectKilledAtCrashPoint(await runWriteBackProcess("fulfillment:after-create"));
    const afterKill = await prisma.shipment.findUniqueOrThrow({ where: { id: row.id } });
    expect(afterKill).toMatchObject({ fulfillmentStatus: "CREATING", trackingNumbers: JSON.stringify(numbers) });
    const orderId = parseGid(row.orderId)!.id;
    const withBoxes = () =>
      store.listFulfillments(orderId).filter((f) => f.status !== "CANCELLED" && store.listTrackingInfo(f.id).some((t) => t.number === numbers[0]));
    expect(withBoxes()).toHaveLength(1);

    // A fresh write-back at the service's time reads Shopify first and links the fulfillment: still one, with both numbers.
    const { admin } = await unauthenticated.admin(SHOP);
    expect(await writeBack(contextOf({ admin, shop: SHOP }, prisma, now))).toEqual({ fulfilled: 1, failed: 0 });
    const [fulfillment] = withBoxes();
    expect(withBoxes()).toHaveLength(1);
    expect(store.listTrackingInfo(fulfillment!.id).map((t) => t.number)).toEqual(numbers);
    const fulfilled = await prisma.shipment.findUniqueOrThrow({ where: { id: row.id } });
    expect(fulfilled.fulfillmentId).toBe(`gid://shopify/Fulfillment/${fulfillment!.id}`);

    // The boxes' delivery times, as the carrier will report them.
    const start = now();
    service.clock.advance(20 * 24 * HOUR);
    const timeline = ok(await client.trackShipment({ bookNumber: row.bookNumber! }));
    service.clock.set(start);
    const deliveries = numbers.map((number) =>
      parseServiceTimestamp(timeline.find((e) => e.trackingNumber === number && e.eventStatus === "Delivered")!.eventTime),
    );
    const [first, last] = [...deliveries].sort((a, b) => a.getTime() - b.getTime());
    expect(last!.getTime()).toBeGreaterThan(first!.getTime());

    // One box delivered, the other not yet: never Delivered in Shopify, whatever the crashes.
    service.clock.set(new Date(first!.getTime() + 60_000));
    expect(await runWorkersDyingAfterEachEvent()).toBeGreaterThanOrEqual(1);
    await expectWrittenOnce([row.id]);
    const halfway = await prisma.shipment.findUniqueOrThrow({ where: { id: row.id } });
    expect(halfway.trackingState).toBe("ACTIVE");
    expect(halfway.shopifyStatus).not.toBe("DELIVERED");
    expect(shopifyEvents(halfway.fulfillmentId!).some((event) => event.startsWith("DELIVERED"))).toBe(false);
    const pieceEvents = await prisma.trackingEvent.findMany({ where: { shipmentId: row.id } });
    expect(new Set(pieceEvents.map((event) => event.trackingNumber))).toEqual(new Set(numbers));

    // Both delivered: Delivered once, at the last box's delivery.
    service.clock.set(new Date(last!.getTime() + CLAIM_LEASE_MS + 60_000));
    await runWorkersDyingAfterEachEvent();
    service.clock.advance(CLAIM_LEASE_MS + 60_000);
    expectRanToEnd(await runWorker());
    await expectWrittenOnce([row.id]);
    const delivered = await prisma.shipment.findUniqueOrThrow({ where: { id: row.id } });
    expect(delivered).toMatchObject({ trackingState: "DELIVERED", shopifyStatus: "DELIVERED", deliveredAt: last });
    expect(shopifyEvents(delivered.fulfillmentId!).filter((event) => event.startsWith("DELIVERED"))).toEqual([`DELIVERED ${last!.toISOString()}`]);
  }, 180_000);
});
