import { loadavg } from "node:os";
import { peakRssMb } from "../support/figures";
import { contextOf } from "../factories/context";
import { connectTestAccount } from "../support/account";
import { useAppEnvironment } from "../support/app-env";
import { openBenchDatabase } from "./bench-database";
import { syncOrderMirror } from "../support/mirror-sync";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments";
import { API_KEY, API_SECRET, SHOP, startHarness } from "../support/devstore-harness";
import { PARTNER_KEY, startService } from "../support/service-harness";

/**
 * `npm run bench:write-back`: how close fulfillment write-back comes to the fastest the Admin API's cost
 * throttle allows. 500 shipments, booked on the real Shipping API service for the local admin's seeded
 * fulfillment orders (read into the app's order mirror first, as quoting does), are written back through the
 * app's worker and @shopify/shopify-app-remix's admin client over HTTP, at the local admin's default throttle
 * (Shopify's standard plan: a 1,000-point bucket restoring 100 points per second). BENCH_BUCKET_SIZE and
 * BENCH_RESTORE_RATE set a larger plan's throttle (Advanced: 2,000 and 200).
 *
 * Two floors, both from what Shopify reported (every response's extensions.cost: the points kept,
 * actualQueryCost, and the bucket, throttleStatus). No client can spend points faster than the full bucket it
 * starts with plus the restore rate:
 * - write-only floor = (N × points charged by one fulfillmentCreate − bucket) / restoreRate: the writes alone,
 *   the least any write-back can spend; the target is ≤ 1.15× this.
 * - spent floor = (Σ points this run was charged − bucket) / restoreRate: this run's own reads and writes.
 */

const SHIPMENTS = Number(process.env.BENCH_SHIPMENTS ?? 500);
const THROTTLE = {
  ...(process.env.BENCH_BUCKET_SIZE ? { bucketSize: Number(process.env.BENCH_BUCKET_SIZE) } : {}),
  ...(process.env.BENCH_RESTORE_RATE ? { restoreRate: Number(process.env.BENCH_RESTORE_RATE) } : {}),
};
const TARGET = 1.15;

interface Charge {
  operation: string;
  requested: number;
  actual: number | null;
  throttled: boolean;
  maximumAvailable: number;
  restoreRate: number;
}

const CostBody = (body: unknown) =>
  (
    body as {
      extensions?: { cost?: { requestedQueryCost: number; actualQueryCost: number | null; throttleStatus: { maximumAvailable: number; restoreRate: number } } };
    }
  ).extensions?.cost;

async function main(): Promise<void> {
  const service = await startService();
  // Seeded orders include on-hold, scheduled, fulfillment-service and pickup ones; 800 give more than 500 to ship.
  const harness = await startHarness({ orders: Math.ceil(SHIPMENTS * 1.6), throttle: THROTTLE });
  const database = await openBenchDatabase();
  const { databaseUrl } = useAppEnvironment({
    DATABASE_URL: database.url,
    LOCAL_ADMIN_URL: harness.url,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHIPPING_API_URL: service.baseUrl,
  });
  try {
    const { default: prisma } = await import("../../app/db/db.server");
    const { unauthenticated } = await import("../../app/shopify.server");
    const { writeBack } = await import("../../app/fulfillment/write-back.server");
    const { GraphqlQueryError } = await import("@shopify/shopify-api");
    const { operationName } = await import("../../app/shopify/gateway.server");

    const customer = await connectTestAccount({ serviceUrl: service.baseUrl, partnerKey: PARTNER_KEY, databaseUrl, shop: SHOP });
    await prisma.session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, accessToken: harness.token, scope: "write_fulfillments" },
    });
    const fulfillmentOrders = shippableFulfillmentOrders(harness.admin.store, SHIPMENTS);
    if (fulfillmentOrders.length < SHIPMENTS) throw new Error(`only ${fulfillmentOrders.length} shippable fulfillment orders were seeded`);
    process.stdout.write(`booking ${SHIPMENTS} shipments on the Shipping API service… `);
    const shipments = await createBookedShipments({ db: prisma, shop: SHOP, client: service.clientFor(customer), fulfillmentOrders });
    console.log("done");

    // The library's admin client, with every answer's cost noted on the way back to the worker.
    const { admin } = await unauthenticated.admin(SHOP);
    process.stdout.write("reading the orders into the app's mirror… ");
    await syncOrderMirror({ admin, shop: SHOP }, prisma);
    // The run starts with the full bucket the floors assume.
    const bucketNow = harness.admin.throttle.status();
    await new Promise((resolve) => setTimeout(resolve, ((bucketNow.maximumAvailable - bucketNow.currentlyAvailable) / bucketNow.restoreRate) * 1000 + 100));
    console.log("done");
    const charges: Charge[] = [];
    const note = (document: unknown, cost: ReturnType<typeof CostBody>, throttled: boolean) => {
      if (cost)
        charges.push({
          operation: operationName(String(document)),
          requested: cost.requestedQueryCost,
          actual: cost.actualQueryCost,
          throttled,
          ...cost.throttleStatus,
        });
    };
    const observed: typeof admin = {
      ...admin,
      graphql: async (document, options) => {
        try {
          const response = await admin.graphql(document, options);
          note(document, CostBody(await response.clone().json()), false);
          return response;
        } catch (error) {
          if (error instanceof GraphqlQueryError) note(document, CostBody(error.body), true);
          throw error;
        }
      },
    };

    console.log(`writing back ${SHIPMENTS} fulfillments at a ${bucketNow.maximumAvailable}-point bucket restoring ${bucketNow.restoreRate} points/s…`);
    const started = performance.now();
    const summary = await writeBack(contextOf({ admin: observed, shop: SHOP }, prisma));
    const seconds = (performance.now() - started) / 1000;

    const rows = await prisma.shipment.findMany({ where: { id: { in: shipments.map((s) => s.id) } }, select: { fulfillmentStatus: true } });
    const fulfilled = rows.filter((row) => row.fulfillmentStatus === "FULFILLED").length;
    const bucket = charges[0]!;
    const spent = charges.reduce((sum, charge) => sum + (charge.actual ?? 0), 0);
    const byOperation = new Map<string, { count: number; requested: number; actual: number }>();
    for (const charge of charges.filter((c) => !c.throttled)) {
      const entry = byOperation.get(charge.operation) ?? { count: 0, requested: 0, actual: 0 };
      entry.count++;
      entry.requested += charge.requested;
      entry.actual += charge.actual ?? 0;
      byOperation.set(charge.operation, entry);
    }
    const creates = byOperation.get("CreateShipmentFulfillment");
    if (!creates) throw new Error("no fulfillmentCreate was charged");
    const perCreate = creates.actual / creates.count;
    const floorOf = (points: number) => Math.max(0, points - bucket.maximumAvailable) / bucket.restoreRate;
    const writeOnlyFloor = floorOf(SHIPMENTS * perCreate);
    const spentFloor = floorOf(spent);

    console.log("");
    console.log(`database        the app's on ${database.label} (BENCH_DATABASE=sqlite|postgres)`);
    console.log(`result          ${fulfilled}/${SHIPMENTS} fulfilled (worker: ${summary.fulfilled} fulfilled, ${summary.failed} failed)`);
    console.log(`throttle        bucket ${bucket.maximumAvailable} points, restores ${bucket.restoreRate} points/s (from extensions.cost.throttleStatus)`);
    for (const [operation, entry] of byOperation) {
      console.log(
        `  ${operation.padEnd(34)} ${String(entry.count).padStart(4)} calls, requested ${(entry.requested / entry.count).toFixed(1)}, charged ${(entry.actual / entry.count).toFixed(1)} points each`,
      );
    }
    console.log(`  THROTTLED answers waited out    ${charges.filter((c) => c.throttled).length}`);
    console.log(`points charged  ${spent} in all, ${(spent / SHIPMENTS).toFixed(1)} per shipment (one fulfillmentCreate: ${perCreate.toFixed(1)})`);
    console.log(
      `write-only floor (${SHIPMENTS} × ${perCreate.toFixed(1)} per fulfillmentCreate − ${bucket.maximumAvailable} in the full bucket) / ${bucket.restoreRate} per s = ${writeOnlyFloor.toFixed(1)} s`,
    );
    console.log(`spent floor     (${spent} charged − ${bucket.maximumAvailable}) / ${bucket.restoreRate} per s = ${spentFloor.toFixed(1)} s`);
    console.log(`                no client can be charged these points sooner: they come from the starting bucket or the restore rate`);
    console.log(`time            ${seconds.toFixed(1)} s to write back all ${SHIPMENTS} (${(SHIPMENTS / seconds).toFixed(2)} fulfillments/s)`);
    console.log(
      writeOnlyFloor > 0
        ? `ratio           ${(seconds / writeOnlyFloor).toFixed(3)} × the write-only floor (target ≤ ${TARGET}×), ${(seconds / spentFloor).toFixed(3)} × the spent floor`
        : `ratio           none: the writes fit in the starting bucket, so only request latency bounds the run`,
    );
    console.log(
      `peak RSS        ${peakRssMb()?.toFixed(0) ?? "?"} MB of this process: the worker with the local admin and the service beside it, not the app's own (held to its 250 MB target by bench:write-back-product, the app in its own process)`,
    );
    console.log(
      `machine load    ${loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
    await prisma.$disconnect();
  } finally {
    await harness.close();
    await service.close();
    await database.drop();
  }
}

await main();
