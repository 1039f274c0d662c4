import type { Shipment } from "@prisma/client";
import { createPrismaClient } from "../../app/db/db-client.server";
import { describe, expect, it, vi } from "vitest";
import { freshAppDatabase } from "../support/app-env";
import { expectKilledAtCrashPoint, expectRanToEnd, lastJsonLine, runAppProcess, type AppProcessExit } from "../support/app-process";
import { useConnectedShop } from "../support/connected-shop";
import { ok, startService, type RunningService } from "../support/service-harness";

// The app processes are the children: on PostgreSQL they alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";
// On PostgreSQL a killed process's batch job is taken again once its heartbeat is missed (about 12 s).
vi.setConfig({ testTimeout: 90_000 });

// Booking in real processes killed at the dangerous moments (kill -9: no finally, no flush) against the real
// service and a real SQLite file; then a fresh process does what the app does next, and the service is asked
// whether anything was booked twice.
const SHOP = "crash-booking.myshopify.com";
const GRACE_MS = 2 * 60 * 1000;
const service: RunningService = await startService();
const databaseUrl = freshAppDatabase();
const db = createPrismaClient(databaseUrl);
const connected = await useConnectedShop({ service, db, databaseUrl, shop: SHOP });
const { account } = connected;

interface WorkerExit extends AppProcessExit {
  /** The step's result: the last line of stdout as JSON, null when it printed none (it was killed). */
  result: unknown;
}

/** Runs test/support/booking-worker.ts in a new process at the service's time (or `now`), dying at `crashAt` when given. */
async function runWorker(args: string[], options: { crashAt?: string; now?: Date } = {}): Promise<WorkerExit> {
  const exit = await runAppProcess("booking-worker.ts", args, {
    DATABASE_URL: databaseUrl,
    SHIPPING_API_URL: service.baseUrl,
    CONSIGN_TEST_NOW: (options.now ?? service.clock.now()).toISOString(),
    CONSIGN_CRASH_AT: options.crashAt,
  });
  const result = lastJsonLine(exit.stdout);
  return { ...exit, result };
}

/** A step killed at its crash point, before it printed a result. */
function expectKilled(exit: WorkerExit) {
  expectKilledAtCrashPoint(exit);
  expect(exit.result).toBeNull();
}

/** A step that ran to its end: its result. */
function expectFinished(exit: WorkerExit) {
  expectRanToEnd(exit);
  return exit.result;
}

async function quoted(count: number): Promise<Shipment[]> {
  return connected.quoted({ count, serviceCode: "BLP_GROUND" });
}

/** The service booked each order once (Search Shipments by order name) and the app recorded each with its tracking number. */
async function expectBookedOncePerOrder(shipmentIds: readonly string[]) {
  const rows = await db.shipment.findMany({ where: { id: { in: [...shipmentIds] } } });
  expect(rows).toHaveLength(shipmentIds.length);
  for (const row of rows) {
    const found = ok(await account.searchShipments({ body: { keyword: row.orderName } })).shipments.filter(
      (record) => record.shipmentReference === row.orderName,
    );
    expect(found, `${row.orderName} on the service`).toHaveLength(1);
    expect(row, row.orderName).toMatchObject({
      bookingStatus: "BOOKED",
      bookNumber: found[0]!.bookNumber,
      trackingNumber: found[0]!.trackingNumber,
      fulfillmentStatus: "PENDING",
    });
  }
}

async function openBatchOf(name: string, shipments: readonly Shipment[]): Promise<{ id: string; remoteBatchId: number }> {
  const created = expectFinished(await runWorker(["create-batch", SHOP, name, shipments.map((shipment) => shipment.id).join(",")])) as {
    batches: Array<{ id: string }>;
  };
  const batch = await db.batch.findUniqueOrThrow({ where: { id: created.batches[0]!.id } });
  expect(batch.status).toBe("OPEN");
  return { id: batch.id, remoteBatchId: batch.remoteBatchId! };
}

describe("a batch booking killed mid-way", () => {
  it("GIVEN a kill before Batch Book is sent WHEN the app starts again THEN the batch's job finds it open on the service and releases it; booked again, it is booked once, every order recorded", async () => {
    const shipments = await quoted(4);
    const batch = await openBatchOf("Crash before", shipments);

    expectKilled(await runWorker(["book-batch", SHOP, batch.id], { crashAt: "booking:before-call" }));
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("BOOKING");
    expect(await db.shipment.count({ where: { batchId: batch.id, bookingStatus: "BOOKING" } })).toBe(4);
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId }))).toMatchObject({ status: "open", bookedCount: 0 });
    // A booking attempt only reads: the batch is being booked until its job says otherwise.
    expect(expectFinished(await runWorker(["book-batch", SHOP, batch.id]))).toMatchObject({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/being booked already/),
    });

    expect(expectFinished(await runWorker(["resume", "-"]))).toEqual({ batches: 1, shipments: 0 });
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("OPEN");
    expect(expectFinished(await runWorker(["book-batch", SHOP, batch.id]))).toMatchObject({ ok: true, booked: 4, failed: 0 });
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId }))).toMatchObject({ status: "completed", bookedCount: 4 });
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("COMPLETED");
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
  });

  it("GIVEN a kill after Batch Book booked everything WHEN the app starts again THEN the batch's job reads the bookings back with Get Batch, the page shows them and booking again is refused", async () => {
    const shipments = await quoted(4);
    const batch = await openBatchOf("Crash after", shipments);

    expectKilled(await runWorker(["book-batch", SHOP, batch.id], { crashAt: "booking:after-call" }));
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("BOOKING");
    expect(await db.shipment.count({ where: { batchId: batch.id, bookingStatus: "BOOKED" } })).toBe(0);
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId }))).toMatchObject({ status: "completed", bookedCount: 4 });

    // Opening the page settles nothing: it shows the batch being booked.
    expect(expectFinished(await runWorker(["open-batch", SHOP, batch.id]))).toMatchObject({ batch: { status: "BOOKING" }, counts: { booked: 0, booking: 4 } });
    expect(expectFinished(await runWorker(["resume", "-"]))).toEqual({ batches: 1, shipments: 0 });
    const view = expectFinished(await runWorker(["open-batch", SHOP, batch.id])) as { batch: { status: string }; counts: { booked: number } };
    expect(view).toMatchObject({ batch: { status: "COMPLETED" }, counts: { booked: 4 } });
    expect(expectFinished(await runWorker(["book-batch", SHOP, batch.id]))).toMatchObject({
      ok: false,
      reason: "refused",
      message: expect.stringMatching(/booked already/),
    });
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId })).bookedCount).toBe(4);
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
  });

  it("GIVEN a kill right after Create Batch WHEN the app starts again THEN the batch's job finds it by name (not created twice), the page shows it open and it books once", async () => {
    const shipments = await quoted(3);
    expectKilled(
      await runWorker(["create-batch", SHOP, "Crash on create", shipments.map((shipment) => shipment.id).join(",")], { crashAt: "batch-create:after-call" }),
    );
    const local = await db.batch.findFirstOrThrow({ where: { shop: SHOP, name: "Crash on create" } });
    expect(local).toMatchObject({ status: "CREATING", remoteBatchId: null });
    expect(expectFinished(await runWorker(["open-batch", SHOP, local.id]))).toMatchObject({ batch: { status: "CREATING", remoteBatchId: null } });

    expect(expectFinished(await runWorker(["resume", "-"]))).toEqual({ batches: 1, shipments: 0 });
    expect(expectFinished(await runWorker(["open-batch", SHOP, local.id]))).toMatchObject({ batch: { status: "OPEN" }, lines: expect.any(Array) });
    const remote = ok(await account.listBatches({ query: { limit: 100 } })).batches.filter((entry) => entry.name === "Crash on create");
    expect(remote).toHaveLength(1);
    expect((await db.batch.findUniqueOrThrow({ where: { id: local.id } })).remoteBatchId).toBe(remote[0]!.batchId);

    expect(expectFinished(await runWorker(["book-batch", SHOP, local.id]))).toMatchObject({ ok: true, booked: 3 });
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
  });
});

describe("a batch with a shipment of two boxes killed mid-way", () => {
  it("GIVEN a kill after Batch Book booked a two-box postal shipment WHEN the app starts again THEN it is recorded booked once with the number Get Batch gives, every box's left for the write-back to read, and the service has a number per box", async () => {
    const shipments = await connected.quoted({ count: 2, serviceCode: "NPS_PRIORITY", boxes: 2 });
    for (const shipment of shipments) expect(JSON.parse(shipment.request).pieces).toHaveLength(2);
    const batch = await openBatchOf("Two boxes each", shipments);

    expectKilled(await runWorker(["book-batch", SHOP, batch.id], { crashAt: "booking:after-call" }));
    expect(await db.shipment.count({ where: { batchId: batch.id, bookingStatus: "BOOKED" } })).toBe(0);
    expect(expectFinished(await runWorker(["resume", "-"]))).toEqual({ batches: 1, shipments: 0 });
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
    for (const row of await db.shipment.findMany({ where: { id: { in: shipments.map((shipment) => shipment.id) } } })) {
      expect(row.trackingNumbers, row.orderName).toBeNull();
      const [record] = ok(await account.searchShipments({ body: { keyword: row.bookNumber! } })).shipments;
      expect(record!.trackingNumbers, row.orderName).toHaveLength(2);
      expect(record!.trackingNumbers[0]).toBe(row.trackingNumber);
    }
  });
});

describe("a single booking killed mid-way", () => {
  it("GIVEN a kill before Book Shipment is sent WHEN a fresh process books again THEN it waits while the call could be in flight, then searches, finds nothing and books once", async () => {
    const [shipment] = await quoted(1);
    const args = ["book-shipment", SHOP, shipment!.id, String(shipment!.selectedQuoteId)];
    const killedAt = service.clock.now();
    expectKilled(await runWorker(args, { crashAt: "booking:before-call", now: killedAt }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).bookingStatus).toBe("BOOKING");

    expect(expectFinished(await runWorker(args, { now: killedAt }))).toMatchObject({ ok: false, reason: "pending" });
    expect(ok(await account.searchShipments({ body: { keyword: shipment!.id } })).shipments).toEqual([]);
    expect(expectFinished(await runWorker(args, { now: new Date(killedAt.getTime() + GRACE_MS) }))).toMatchObject({ ok: true });
    await expectBookedOncePerOrder([shipment!.id]);
  });

  it("GIVEN a kill after Book Shipment booked WHEN a fresh process books again THEN Search Shipments finds it by reference, it is recorded and not booked again", async () => {
    const [shipment] = await quoted(1);
    const args = ["book-shipment", SHOP, shipment!.id, String(shipment!.selectedQuoteId)];
    expectKilled(await runWorker(args, { crashAt: "booking:after-call" }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).bookingStatus).toBe("BOOKING");
    const [onService] = ok(await account.searchShipments({ body: { keyword: shipment!.id } })).shipments;

    expect(expectFinished(await runWorker(args))).toEqual({ ok: false, reason: "refused", message: `Already booked (tracking ${onService!.trackingNumber}).` });
    await expectBookedOncePerOrder([shipment!.id]);
  });
});

describe("a restart", () => {
  it("GIVEN a batch and a single booking killed after the service booked them WHEN the app starts THEN both are recorded before anyone opens a page, each booked once", async () => {
    const inBatch = await quoted(2);
    const batch = await openBatchOf("Crash then restart", inBatch);
    expectKilled(await runWorker(["book-batch", SHOP, batch.id], { crashAt: "booking:after-call" }));
    const [single] = await quoted(1);
    expectKilled(await runWorker(["book-shipment", SHOP, single!.id, String(single!.selectedQuoteId)], { crashAt: "booking:after-call" }));

    expect(expectFinished(await runWorker(["resume", "-"]))).toEqual({ batches: 1, shipments: 1 });
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("COMPLETED");
    await expectBookedOncePerOrder([...inBatch.map((shipment) => shipment.id), single!.id]);
    // Nothing is left to settle.
    expect(expectFinished(await runWorker(["resume", "-"]))).toEqual({ batches: 0, shipments: 0 });
  });
});
