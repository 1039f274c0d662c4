import { loadavg } from "node:os";
import { z } from "zod";
import { memorySettings, peakRssMb } from "../support/figures";
import { startAppBenchStack } from "./app-stack";

/**
 * `npm run bench:sync`: the order mirror's first sync and a reconcile of a busy shop (issue 30), against the
 * local admin in its own process, on the app's database (BENCH_DATABASE=sqlite|postgres). Each sync is timed in
 * two parts: Shopify's bulk export (from bulkOperationRunQuery to the operation COMPLETED, the local admin's
 * work) and the app's own (streaming the JSONL, parsing it, saving it piece by piece, removing what the export no
 * longer holds), with the app's CPU time beside it. Targets: the app's own ≤ 1 ms per order, peak RSS of the
 * app side ≤ 250 MB. BENCH_OPEN_ORDERS sets the shop's size (default 50,000 open orders). Figures are printed,
 * not asserted.
 */

const OPEN_ORDERS = Number(process.env.BENCH_OPEN_ORDERS ?? 50_000);
/** About 72 % of the seed's orders are left open (the rest fulfilled or cancelled): seed enough for OPEN_ORDERS. */
const SEEDED = Math.ceil(OPEN_ORDERS / 0.71);
const POLL_MS = 250;
const TARGET_MS_PER_ORDER = 1;
const TARGET_RSS_MB = 250;

const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;

async function main(): Promise<void> {
  const stack = await startAppBenchStack({ orders: SEEDED, mirror: false });
  try {
    const mirror = await import("../../app/orders/mirror.server");
    const { BULK_OPERATION } = await import("../../app/orders/order-documents");
    const { adminQuery } = await import("../../app/shopify/gateway.server");
    const { contextOf } = await import("../factories/context");
    const BulkStatus = z.object({ bulkOperation: z.object({ status: z.string(), objectCount: z.string() }).nullable() });

    const sync = async (label: string) => {
      const ctx = contextOf(stack.admin, stack.prisma, new Date());
      const begin = performance.now();
      const { syncId } = await mirror.startMirrorSync(ctx);
      const { bulkOperationId } = await stack.prisma.mirrorSync.findUniqueOrThrow({ where: { id: syncId } });
      for (;;) {
        const { bulkOperation } = await adminQuery(stack.admin, BULK_OPERATION, BulkStatus, { id: bulkOperationId });
        if (bulkOperation?.status !== "CREATED" && bulkOperation?.status !== "RUNNING") break;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const exported = performance.now();
      const cpu = process.cpuUsage();
      const progress = await mirror.advanceMirrorSync(ctx, syncId);
      const saved = performance.now();
      const cpuMs = (process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000;
      if (progress.status !== "COMPLETED") throw new Error(`${label} ended ${progress.status}: ${"error" in progress ? progress.error : ""}`);
      const { exportLines } = await stack.prisma.mirrorSync.findUniqueOrThrow({ where: { id: syncId } });
      const appMs = saved - exported;
      console.log(
        `  ${label}: ${progress.ordersSeen.toLocaleString("en-US")} orders (${(exportLines ?? 0).toLocaleString("en-US")} JSONL lines); Shopify's export ${ms(exported - begin)}, the app's own ${ms(appMs)} (CPU ${ms(cpuMs)})`,
      );
      return { orders: progress.ordersSeen, exportMs: exported - begin, appMs, cpuMs };
    };

    const first = await sync("first sync");
    const reconcile = await sync("reconcile (every order already mirrored)");
    const rss = peakRssMb() ?? 0;
    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(" ");
    console.log(
      `Sync bench on ${stack.database} (BENCH_DATABASE=sqlite|postgres), ${first.orders.toLocaleString("en-US")} open orders of ${SEEDED.toLocaleString("en-US")} seeded`,
    );
    console.log(`  local admin and service in their own processes; ${memorySettings()}; load average ${load}`);
    const perOrder = (run: { appMs: number; orders: number }) => run.appMs / run.orders;
    for (const [label, run] of [
      ["first sync", first],
      ["reconcile", reconcile],
    ] as const) {
      const verdict = perOrder(run) <= TARGET_MS_PER_ORDER ? "met" : "MISSED";
      console.log(
        `  ${label}: the app's own ${perOrder(run).toFixed(3)} ms per order (target ≤ ${TARGET_MS_PER_ORDER} ms: ${verdict}), CPU ${(run.cpuMs / run.orders).toFixed(3)} ms per order; Shopify's bulk export ${ms(run.exportMs)} beside it`,
      );
    }
    console.log(`  app peak RSS (VmHWM of this process): ${rss.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB} MB: ${rss <= TARGET_RSS_MB ? "met" : "MISSED"})`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
