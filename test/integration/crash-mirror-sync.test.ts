import { afterAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/db-client.server";
import { expectKilledAtCrashPoint, expectRanToEnd, runAppProcess, type AppProcessExit } from "../support/app-process";
import { useAppEnvironment } from "../support/app-env";
import { expectMirrorOfAdmin } from "../support/mirror-expectations";
import { API_KEY, API_SECRET, SHOP, startHarness } from "../support/devstore-harness";

// The first order sync in a real process killed half-way through saving the export (kill -9 after its fourth
// saved piece: about 1,000 of its 2,000 fulfillment orders), then a fresh process doing what the app does at startup. SQLite here, PostgreSQL in
// vitest.postgres.config.ts, where the children alone take this file's jobs (test/support/job-workers.ts).
process.env.CONSIGN_TEST_JOBS_IN_CHILDREN = "1";

const harness = await startHarness({ orders: 2_700, throttle: { bucketSize: 2000, restoreRate: 1000 } });
const { databaseUrl } = useAppEnvironment({ LOCAL_ADMIN_URL: harness.url, SHOPIFY_API_KEY: API_KEY, SHOPIFY_API_SECRET: API_SECRET });
const db = createPrismaClient(databaseUrl);
await db.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: "read_orders" } });
const store = harness.admin.store;

function runWorker(args: string[], crashAt?: string): Promise<AppProcessExit> {
  return runAppProcess("mirror-sync-worker.ts", args, {
    DATABASE_URL: databaseUrl,
    LOCAL_ADMIN_URL: harness.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    CONSIGN_CRASH_AT: crashAt,
  });
}

afterAll(async () => {
  await db.$disconnect();
  await harness.close();
});

describe("the first order sync across a crash", () => {
  it("GIVEN the process dies half-way through saving the export WHEN a fresh process starts THEN it goes on from the last saved piece, with the same export, to a mirror of every open order", async () => {
    expectKilledAtCrashPoint(await runWorker(["first", SHOP], "mirror-sync:piece-saved#4"));
    const stopped = await db.mirrorSync.findFirstOrThrow({ where: { shop: SHOP } });
    expect(stopped.status).toBe("RUNNING");
    expect(stopped.linesSaved).toBeGreaterThan(0);
    expect(stopped.linesSaved).toBeLessThan(stopped.exportLines!);
    const savedBefore = await db.mirrorOrder.count({ where: { shop: SHOP } });
    expect(savedBefore).toBeGreaterThan(0);

    expectRanToEnd(await runWorker(["resume"]));
    const done = await db.mirrorSync.findUniqueOrThrow({ where: { id: stopped.id } });
    expect(done).toMatchObject({ status: "COMPLETED", linesSaved: stopped.exportLines, bulkOperationId: stopped.bulkOperationId });
    // One export in all: the fresh process read on in the one the first had started.
    expect(store.sql("SELECT COUNT(*) AS n FROM bulk_operations").get()).toEqual({ n: 1 });
    expect(done.ordersSeen).toBe(await expectMirrorOfAdmin(db, store, SHOP));
    expect(done.ordersSeen).toBeGreaterThan(savedBefore);
  }, 180_000);
});
