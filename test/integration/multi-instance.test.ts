import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppProcess, type AppProcess } from "../support/app-process";
import { syncOrderMirror } from "../support/mirror-sync";
import { postgresRun } from "../support/postgres";
import { SHOP, type Harness } from "../support/devstore-harness";
import { startServiceAndAdmin, type ServiceAndAdmin } from "../support/service-and-admin";
import type { RunningService } from "../support/service-harness";

// Two app instances share one PostgreSQL database: 200 orders are quoted, batched, booked and written back
// while one instance at a time is killed with SIGKILL at seeded random moments and started again. Every
// order must be booked once on the service and fulfilled once in the local admin, with nothing left in the
// queue or in an intent state. The instances are the real worker (scripts/worker.ts, CONSIGN_ROLE=worker); this test's
// process is the web side, which only sends jobs. PostgreSQL tier only (vitest.postgres.config.ts).

const onPostgres = postgresRun() !== undefined;
if (!onPostgres) console.info("multi-instance test: skipped, it needs the PostgreSQL tier (vitest.postgres.config.ts)");
// The instances are this file's children: they alone take its jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";

const ORDERS = 200;
const SEED = 11;
/** At most this many kills, each 0.2–2.2 s after the instance began taking jobs, while the work lasts. */
const KILLS = 8;

/** mulberry32: the kill moments are random but the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker instance (scripts/worker.ts) and when it said it takes jobs (or exited first). */
interface Instance extends AppProcess {
  takingJobs: Promise<void>;
}

async function startInstance(env: Record<string, string | undefined>): Promise<Instance> {
  const instance = await startAppProcess("scripts/worker.ts", [], env);
  const takingJobs = new Promise<void>((resolve) => {
    instance.child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("worker: taking jobs")) resolve();
    });
    void instance.exited.then(() => resolve());
  });
  return { ...instance, takingJobs };
}

describe.skipIf(!onPostgres)("two app instances on one PostgreSQL database", () => {
  let service: RunningService;
  let harness: Harness;
  let databaseUrl: string;
  let instanceEnv: Record<string, string | undefined>;
  let credentials: ServiceAndAdmin["customer"];
  const instances: Instance[] = [];

  beforeAll(async () => {
    // Shopify's standard throttle (the local admin's default): the write-back of 200 takes long enough for kills.
    const parts = await startServiceAndAdmin({ orders: 400, scope: "write_fulfillments,read_orders" });
    ({ service, harness, databaseUrl, customer: credentials } = parts);
    const { default: prisma } = await import("../../app/db/db.server");
    const { unauthenticated } = await import("../../app/shopify.server");
    await syncOrderMirror({ admin: (await unauthenticated.admin(SHOP)).admin, shop: SHOP }, prisma);
    instanceEnv = parts.appProcessEnv();
  });

  afterAll(async () => {
    if (!onPostgres) return;
    for (const instance of instances) if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill("SIGKILL");
    const { processJobs: jobs } = await import("../../app/context.server");
    await jobs().stop({ timeoutMs: 5_000 });
    const { default: prisma } = await import("../../app/db/db.server");
    await prisma.$disconnect();
    await harness.close();
    await service.close();
  });

  it("GIVEN 200 orders quoted, batched, booked and written back WHILE one instance is killed at random moments and restarted THEN every order is booked once and fulfilled once and nothing is left pending", async () => {
    const { default: prisma } = await import("../../app/db/db.server");
    const { processJobs: jobs } = await import("../../app/context.server");
    const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
    const { contextOf } = await import("../factories/context");
    const { shippingContext } = await import("../factories/context");
    const { createBatches } = await import("../../app/booking/creation.server");
    const { startBatchBooking } = await import("../../app/booking/batch-booking.server");
    const { unauthenticated } = await import("../../app/shopify.server");

    instances.push(...(await Promise.all([startInstance(instanceEnv), startInstance(instanceEnv)])));
    const outputs: string[] = [];

    // The killer: at seeded moments, SIGKILL one of the two instances (seeded too; often the one holding the
    // shop's write-back), then start it again.
    const random = seeded(SEED);
    let kills = 0;
    let stopKilling = false;
    const killer = (async () => {
      while (kills < KILLS && !stopKilling) {
        const index = random() < 0.5 ? 0 : 1;
        const victim = instances[index]!;
        await victim.takingJobs;
        await sleep(200 + Math.floor(random() * 2_000));
        if (stopKilling) break;
        victim.child.kill("SIGKILL");
        const exit = await victim.exited;
        expect(exit.signal).toBe("SIGKILL");
        outputs.push(exit.output);
        kills++;
        instances[index] = await startInstance(instanceEnv);
      }
    })();

    // The web side: quote every mirrored order, pick 200 orders that are one shipment each, batch and book them.
    const { admin } = await unauthenticated.admin(SHOP);
    const orderIds = (await prisma.mirrorOrder.findMany({ where: { shop: SHOP }, select: { id: true }, orderBy: { id: "asc" } })).map((order) => order.id);
    const run = await startQuoteRun(contextOf({ admin, shop: SHOP }, prisma, service.clock.now()), orderIds);
    await run.finished;
    const quoted = await prisma.shipment.findMany({
      where: { runId: run.runId, quoteStatus: "QUOTED", selectedQuoteId: { not: null } },
      orderBy: { id: "asc" },
    });
    const perOrder = new Map<string, number>();
    for (const shipment of await prisma.shipment.findMany({ where: { runId: run.runId }, select: { orderId: true } }))
      perOrder.set(shipment.orderId, (perOrder.get(shipment.orderId) ?? 0) + 1);
    const chosen = quoted.filter((shipment) => perOrder.get(shipment.orderId) === 1).slice(0, ORDERS);
    expect(chosen).toHaveLength(ORDERS);

    const liveFulfillments = (orderId: string) =>
      harness.admin.store.listFulfillments(Number(orderId.split("/").pop())).filter((fulfillment) => fulfillment.status !== "CANCELLED");
    const before = new Map(chosen.map((shipment) => [shipment.orderId, liveFulfillments(shipment.orderId).length]));

    const ctx = await shippingContext(prisma, SHOP, service.clock.now());
    const created = await createBatches(ctx, { name: "Two instances", shipmentIds: chosen.map((shipment) => shipment.id) });
    expect(created.errors).toEqual([]);
    expect(created.batches).toHaveLength(1);
    const batchId = created.batches[0]!.id;
    expect(await startBatchBooking(ctx, batchId)).toMatchObject({ ok: false, reason: "pending" });

    // Until every chosen order is fulfilled (the instances keep working through the kills).
    const ids = chosen.map((shipment) => shipment.id);
    const deadline = Date.now() + 240_000;
    for (;;) {
      const fulfilled = await prisma.shipment.count({ where: { id: { in: ids }, fulfillmentStatus: "FULFILLED" } });
      if (fulfilled === ORDERS) break;
      if (Date.now() > deadline) throw new Error(`only ${fulfilled} of ${ORDERS} fulfilled after 4 minutes; ${kills} kills`);
      await sleep(1_000);
    }
    stopKilling = true;
    await killer;
    await jobs().idle();

    // Graceful stop: SIGTERM, each instance stops taking jobs and ends by itself.
    for (const instance of instances) instance.child.kill("SIGTERM");
    for (const instance of instances) expect((await instance.exited).code).toBe(0);
    expect(kills).toBeGreaterThanOrEqual(3);

    // The service booked each order once, and its batch holds all 200 booked.
    const account = service.clientFor(credentials);
    const batch = await prisma.batch.findUniqueOrThrow({ where: { id: batchId } });
    expect(batch.status).toBe("COMPLETED");
    const remote = await account.getBatch({ batchId: batch.remoteBatchId! });
    expect(remote.ok && remote.value).toMatchObject({ status: "completed", bookedCount: ORDERS });
    const rows = await prisma.shipment.findMany({ where: { id: { in: ids } } });
    for (const row of rows) {
      const found = await account.searchShipments({ body: { keyword: row.orderName } });
      const records = found.ok ? found.value.shipments.filter((record) => record.shipmentReference === row.orderName && !record.voided) : [];
      expect(records, `${row.orderName} on the service`).toHaveLength(1);
      expect(row, row.orderName).toMatchObject({
        bookingStatus: "BOOKED",
        bookNumber: records[0]!.bookNumber,
        trackingNumber: records[0]!.trackingNumber,
        fulfillmentStatus: "FULFILLED",
      });
      // The local admin holds one new fulfillment of the order, the one carrying its tracking number.
      const fulfillments = liveFulfillments(row.orderId);
      expect(fulfillments, `${row.orderName} in the local admin`).toHaveLength(before.get(row.orderId)! + 1);
      const carrying = fulfillments.filter((fulfillment) =>
        harness.admin.store.listTrackingInfo(fulfillment.id).some((info) => info.number === row.trackingNumber),
      );
      expect(carrying, `${row.orderName} ${row.trackingNumber}`).toHaveLength(1);
    }

    // Nothing pending: no intent left, no job waiting or running.
    expect(await prisma.batch.count({ where: { status: { in: ["CREATING", "BOOKING"] } } })).toBe(0);
    expect(await prisma.shipment.count({ where: { OR: [{ bookingStatus: "BOOKING" }, { fulfillmentStatus: { in: ["PENDING", "CREATING"] } }] } })).toBe(0);
    expect(await prisma.quoteRun.count({ where: { status: "RUNNING" } })).toBe(0);
    const queue = new pg.Client({ connectionString: databaseUrl });
    await queue.connect();
    try {
      // The app's jobs, not pg-boss's own: its clock sends each schedule's job (the minute's sweeps) through its
      // internal "__pgboss__send-it" queue, and one may be waiting at the instant this looks.
      const pending = await queue.query<{ name: string; state: string }>(
        "SELECT name, state FROM pgboss.job WHERE state IN ('created', 'retry', 'active') AND name NOT LIKE '\\_\\_pgboss\\_\\_%'",
      );
      expect(pending.rows).toEqual([]);
      const retried = await queue.query<{ name: string; retries: number }>(
        "SELECT name, sum(retry_count)::int AS retries FROM pgboss.job WHERE retry_count > 0 GROUP BY name ORDER BY name",
      );
      console.info(`multi-instance test: ${kills} kills; jobs taken again after a kill or a failure: ${JSON.stringify(retried.rows)}`);
    } finally {
      await queue.end();
    }
  }, 360_000);
});
