import { loadavg } from "node:os";
import { memorySettings, median, peakRssMb } from "../support/figures";
import { startAppBenchStack } from "./app-stack";

/**
 * `npm run bench:app`: the app's figures on this machine. "Quote these 500 orders": from startQuoteRun to
 * every rate stored and the rates page's data loaded (loadQuoteRunView, what its loader returns), median
 * of RUNS runs over the same 500 orders (the first run creates their shipments, later runs quote them
 * again); and the app side's peak RSS. Targets: ≤ 3 s and ≤ 300 MB. Figures are printed, not asserted.
 */

const ORDERS = 500;
/** Seeded orders: some are fulfilled or closed and never mirrored; the rest leave ≥ 500 to quote. */
const SEEDED = 900;
const RUNS = 5;

const ms = (value: number) => `${Math.round(value)} ms`;

async function main(): Promise<void> {
  const stack = await startAppBenchStack({ orders: SEEDED });
  try {
    const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
    const { loadQuoteRunView } = await import("../../app/quoting/run-view.server");
    const { contextOf } = await import("../factories/context");
    /** The shop's context at this moment, as a request's would be. */
    const ctx = () => contextOf(stack.admin, stack.prisma, new Date());
    const rssBeforeRuns = peakRssMb() ?? 0;
    const ids = stack.mirroredOrderIds.slice(0, ORDERS);
    if (ids.length < ORDERS) throw new Error(`only ${ids.length} orders mirrored; seed more than ${SEEDED}`);

    const runs: Array<{ started: number; quoted: number; loaded: number; shipments: number; quotes: number; blocked: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      const begin = performance.now();
      const { runId, finished } = await startQuoteRun(ctx(), ids);
      const started = performance.now();
      await finished;
      const quoted = performance.now();
      const view = await loadQuoteRunView(ctx(), runId);
      const loaded = performance.now();
      if (view.run.status !== "COMPLETED") throw new Error(`run ${run + 1} ended ${view.run.status}: ${view.run.error}`);
      runs.push({
        started: started - begin,
        quoted: quoted - begin,
        loaded: loaded - begin,
        shipments: view.run.shipmentsTotal,
        quotes: await stack.prisma.quote.count({ where: { shipment: { runId } } }),
        blocked: view.counts.blockedOrders,
      });
      console.log(
        `  run ${run + 1}: run recorded ${ms(started - begin)}, rates stored ${ms(quoted - begin)}, page data ${ms(loaded - begin)} (${runs.at(-1)!.shipments} shipments, ${runs.at(-1)!.quotes} rates, ${runs.at(-1)!.blocked} orders blocked)`,
      );
    }

    const figures: Record<string, string> = {
      [`quote ${ORDERS} orders → rates stored → page data (median, target ≤ 3000 ms)`]: ms(median(runs.map((run) => run.loaded))),
      "  of which: run recorded (mirror read, checks, shipments written)": ms(median(runs.map((run) => run.started))),
      "  of which: rates stored (quoting, every rate written, rule applied)": ms(median(runs.map((run) => run.quoted))),
      "  first run (creates the shipments)": ms(runs[0]!.loaded),
      "app peak RSS (VmHWM of this process, target ≤ 300 MB)": `${(peakRssMb() ?? 0).toFixed(0)} MB`,
      "  of which before the first run (node, tsx, libraries, mirror sync)": `${rssBeforeRuns.toFixed(0)} MB`,
    };
    console.log(
      `App bench on ${stack.database} (BENCH_DATABASE=sqlite|postgres): ${ORDERS} of ${stack.mirroredOrderIds.length} mirrored orders (${SEEDED} seeded), ${RUNS} runs; service and local admin in their own processes; ${memorySettings()}; load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
    );
    for (const [name, value] of Object.entries(figures)) console.log(`  ${name.padEnd(72)} ${value}`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
