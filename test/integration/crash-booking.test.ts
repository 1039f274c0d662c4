import { spawn } from "node:child_process";
import { join } from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient, type Shipment } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTestAccount } from "../support/account";
import { freshAppDatabase, TEST_API_KEY, TEST_API_SECRET, TEST_ENCRYPTION_KEY } from "../support/app-env";
import { quotedShipments, realMapping } from "../factories/shipments";
import type { MappingSettings } from "../../app/orders/shipment-mapping";
import { PARTNER_KEY, ok, startService, type RunningService, type TestCustomer } from "./service-harness";

// Booking in real processes killed at the dangerous moments (kill -9: no finally, no flush) against the real
// service and a real SQLite file; then a fresh process does what the app does next, and the service is asked
// whether anything was booked twice.
const root = join(import.meta.dirname, "..", "..");
const SHOP = "crash-booking.myshopify.com";
const GRACE_MS = 2 * 60 * 1000;
const service: RunningService = await startService();
const databaseUrl = freshAppDatabase();
const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: databaseUrl }) });
let account: TestCustomer["client"];
let mapping: MappingSettings;

beforeAll(async () => {
  const credentials = await connectTestAccount({ serviceUrl: service.baseUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP });
  account = service.clientFor(credentials);
  mapping = await realMapping(account, service.clock.now());
});
afterAll(async () => {
  await db.$disconnect();
  await service.close();
});

interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  result: unknown;
}

/** Runs test/support/booking-worker.ts in a new process (node with tsx as a loader, so the spawned process is the one that dies). */
function runWorker(args: string[], options: { crashAt?: string; now?: Date } = {}): Promise<WorkerExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "test", "support", "booking-worker.ts"), ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "test",
        DATABASE_URL: databaseUrl,
        SHOPIFY_API_KEY: TEST_API_KEY,
        SHOPIFY_API_SECRET: TEST_API_SECRET,
        SHOPIFY_APP_URL: "http://localhost:3000",
        SHIPPING_API_URL: service.baseUrl,
        CONSIGN_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        CONSIGN_TEST_NOW: (options.now ?? service.clock.now()).toISOString(),
        ...(options.crashAt ? { CONSIGN_CRASH_AT: options.crashAt } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      const last = stdout.trim().split("\n").pop() ?? "";
      let result: unknown = null;
      try {
        result = last ? JSON.parse(last) : null;
      } catch {
        result = null;
      }
      resolve({ code, signal, output: stdout + stderr, result });
    });
  });
}

function expectKilled(exit: WorkerExit) {
  expect(exit.signal, exit.output).toBe("SIGKILL");
  expect(exit.result).toBeNull();
}

function expectFinished(exit: WorkerExit) {
  expect(exit.code, exit.output).toBe(0);
  return exit.result;
}

async function quoted(count: number): Promise<Shipment[]> {
  return quotedShipments({ db, shop: SHOP, client: account, mapping, now: service.clock.now(), count, serviceCode: "BLP_GROUND" });
}

/** The service booked each order once (Search Shipments by order name) and the app recorded each with its tracking number. */
async function expectBookedOncePerOrder(shipmentIds: readonly string[]) {
  const rows = await db.shipment.findMany({ where: { id: { in: [...shipmentIds] } } });
  expect(rows).toHaveLength(shipmentIds.length);
  for (const row of rows) {
    const found = ok(await account.searchShipments({ body: { keyword: row.orderName } })).shipments.filter((record) => record.shipmentReference === row.orderName);
    expect(found, `${row.orderName} on the service`).toHaveLength(1);
    expect(row, row.orderName).toMatchObject({ bookingStatus: "BOOKED", bookNumber: found[0]!.bookNumber, trackingNumber: found[0]!.trackingNumber, fulfillmentStatus: "PENDING" });
  }
}

async function openBatchOf(name: string, shipments: readonly Shipment[]): Promise<{ id: string; remoteBatchId: number }> {
  const created = expectFinished(await runWorker(["create-batch", SHOP, name, shipments.map((shipment) => shipment.id).join(",")])) as { batches: Array<{ id: string }> };
  const batch = await db.batch.findUniqueOrThrow({ where: { id: created.batches[0]!.id } });
  expect(batch.status).toBe("OPEN");
  return { id: batch.id, remoteBatchId: batch.remoteBatchId! };
}

describe("a batch booking killed mid-way", () => {
  it("GIVEN a kill before Batch Book is sent WHEN a fresh process books again THEN the batch is found open on the service, booked once, every order recorded", async () => {
    const shipments = await quoted(4);
    const batch = await openBatchOf("Crash before", shipments);

    expectKilled(await runWorker(["book-batch", SHOP, batch.id], { crashAt: "booking:before-call" }));
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("BOOKING");
    expect(await db.shipment.count({ where: { batchId: batch.id, bookingStatus: "BOOKING" } })).toBe(4);
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId }))).toMatchObject({ status: "open", bookedCount: 0 });

    expect(expectFinished(await runWorker(["book-batch", SHOP, batch.id]))).toMatchObject({ status: "booked", booked: 4, failed: 0 });
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId }))).toMatchObject({ status: "completed", bookedCount: 4 });
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("COMPLETED");
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
  });

  it("GIVEN a kill after Batch Book booked everything WHEN a fresh process opens the batch THEN the bookings are read back with Get Batch and booking again is refused", async () => {
    const shipments = await quoted(4);
    const batch = await openBatchOf("Crash after", shipments);

    expectKilled(await runWorker(["book-batch", SHOP, batch.id], { crashAt: "booking:after-call" }));
    expect((await db.batch.findUniqueOrThrow({ where: { id: batch.id } })).status).toBe("BOOKING");
    expect(await db.shipment.count({ where: { batchId: batch.id, bookingStatus: "BOOKED" } })).toBe(0);
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId }))).toMatchObject({ status: "completed", bookedCount: 4 });

    const view = expectFinished(await runWorker(["open-batch", SHOP, batch.id])) as { batch: { status: string }; counts: { booked: number } };
    expect(view).toMatchObject({ batch: { status: "COMPLETED" }, counts: { booked: 4 } });
    expect(expectFinished(await runWorker(["book-batch", SHOP, batch.id]))).toMatchObject({ status: "refused", message: expect.stringMatching(/booked already/) });
    expect(ok(await account.getBatch({ batchId: batch.remoteBatchId })).bookedCount).toBe(4);
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
  });

  it("GIVEN a kill right after Create Batch WHEN a fresh process opens the batch THEN it is found by name (not created twice) and books once", async () => {
    const shipments = await quoted(3);
    expectKilled(await runWorker(["create-batch", SHOP, "Crash on create", shipments.map((shipment) => shipment.id).join(",")], { crashAt: "batch-create:after-call" }));
    const local = await db.batch.findFirstOrThrow({ where: { shop: SHOP, name: "Crash on create" } });
    expect(local).toMatchObject({ status: "CREATING", remoteBatchId: null });

    expect(expectFinished(await runWorker(["open-batch", SHOP, local.id]))).toMatchObject({ batch: { status: "OPEN" }, lines: expect.any(Array) });
    const remote = ok(await account.listBatches({ query: { limit: 100 } })).batches.filter((entry) => entry.name === "Crash on create");
    expect(remote).toHaveLength(1);
    expect((await db.batch.findUniqueOrThrow({ where: { id: local.id } })).remoteBatchId).toBe(remote[0]!.batchId);

    expect(expectFinished(await runWorker(["book-batch", SHOP, local.id]))).toMatchObject({ status: "booked", booked: 3 });
    await expectBookedOncePerOrder(shipments.map((shipment) => shipment.id));
  });
});

describe("a single booking killed mid-way", () => {
  it("GIVEN a kill before Book Shipment is sent WHEN a fresh process books again THEN it waits while the call could be in flight, then searches, finds nothing and books once", async () => {
    const [shipment] = await quoted(1);
    const args = ["book-shipment", SHOP, shipment!.id, String(shipment!.selectedQuoteId)];
    const killedAt = service.clock.now();
    expectKilled(await runWorker(args, { crashAt: "booking:before-call", now: killedAt }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).bookingStatus).toBe("BOOKING");

    expect(expectFinished(await runWorker(args, { now: killedAt }))).toMatchObject({ status: "pending" });
    expect(ok(await account.searchShipments({ body: { keyword: shipment!.id } })).shipments).toEqual([]);
    expect(expectFinished(await runWorker(args, { now: new Date(killedAt.getTime() + GRACE_MS) }))).toMatchObject({ status: "booked" });
    await expectBookedOncePerOrder([shipment!.id]);
  });

  it("GIVEN a kill after Book Shipment booked WHEN a fresh process books again THEN Search Shipments finds it by reference, it is recorded and not booked again", async () => {
    const [shipment] = await quoted(1);
    const args = ["book-shipment", SHOP, shipment!.id, String(shipment!.selectedQuoteId)];
    expectKilled(await runWorker(args, { crashAt: "booking:after-call" }));
    expect((await db.shipment.findUniqueOrThrow({ where: { id: shipment!.id } })).bookingStatus).toBe("BOOKING");
    const [onService] = ok(await account.searchShipments({ body: { keyword: shipment!.id } })).shipments;

    expect(expectFinished(await runWorker(args))).toEqual({ status: "refused", message: `Already booked (tracking ${onService!.trackingNumber}).` });
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
