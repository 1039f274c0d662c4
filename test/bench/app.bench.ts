import { collectBenchGarbage, cpuMsSince, machineLoad, profileCpu } from "../support/bench-cpu";
import { memorySettings, median, peakRssMb, sampleMemory } from "../support/figures";
import { startAppBenchStack } from "./app-stack";
import { storedQuotes } from "../../app/shipping/stored-rates";

/**
 * `npm run bench:app`: the app's quoting figures on this machine, at each size in BENCH_ORDERS (default 500 and
 * 5,000 orders). "Quote these orders": from startQuoteRun to every rate stored and the rates page's data loaded
 * (loadQuoteRunView, what its loader returns), median of the runs over the same orders (the first run creates
 * their shipments, later runs quote them again). After each run the same shipments' requests are quoted again
 * by the Shipping API client alone, chunked as a run sends them: the service's own time, the floor of the run.
 * Before each run and each service-alone pass the bench collects the garbage it made itself (collectBenchGarbage): its
 * reads of a run's stored rates and the service-alone pass leave megabytes for the next part to collect.
 * Targets (issue 30): end to end ≤ 3× that floor, "run recorded" ≤ 0.3 ms per order, the app's peak RSS
 * ≤ 250 MB. Beside each wall time the app's own CPU (this process's: the service and the local admin run in their
 * own), which other processes' load does not stretch; BENCH_CPU_PROFILE=<file> writes a CPU profile of the runs,
 * BENCH_HEAP_SNAPSHOT=<file> a heap snapshot after them; what the peak resident memory was made of is printed.
 * Figures are printed, not asserted, with the machine's load.
 */

const SIZES = (process.env.BENCH_ORDERS ?? "500,5000").split(",").map(Number);
/** Seeded orders per order quoted: some are fulfilled or closed and never mirrored. */
const SEED_RATIO = 1.8;
/**
 * Runs per size. A 500-order run and its floor take a few hundred milliseconds each, so one run more or less of a
 * busy moment moves a median of five by a tenth (the floor alone took 64–127 ms in one bench): nine at that size.
 */
const runsAt = (orders: number) => (orders <= 1_000 ? 9 : 3);
const TARGET_RATIO = 3;
const TARGET_RECORDED_MS_PER_ORDER = 0.3;
const TARGET_RSS_MB = 250;

const ms = (value: number) => `${Math.round(value)} ms`;
const mark = (ok: boolean) => (ok ? "met" : "MISSED");

async function main(): Promise<void> {
  const seeded = Math.ceil(Math.max(...SIZES) * SEED_RATIO);
  const stack = await startAppBenchStack({ orders: seeded });
  try {
    const { startQuoteRun, storedRequests, QUOTE_CHUNK_SIZE, QUOTE_CONCURRENCY } = await import("../../app/quoting/quote-run.server");
    const { loadQuoteRunView } = await import("../../app/quoting/run-view.server");
    const { contextOf } = await import("../factories/context");
    /** The shop's context at this moment, as a request's would be. */
    const ctx = () => contextOf(stack.admin, stack.prisma, new Date());
    const client = await ctx().shipping();
    /**
     * The service alone on the run's shipments, streamed as the run streams them: each request parsed when its chunk
     * is formed, as the run parses them, so the bench's own reads hold no more than the run does (what a function of
     * its own holds goes when it returns; the loop's frame would keep it into the next run). Null when a shipment failed.
     */
    const serviceAlone = async (runId: string): Promise<number | null> => {
      const source = storedRequests(
        (await stack.prisma.shipment.findMany({ where: { runId }, select: { request: true }, orderBy: { id: "asc" } })).map((row) => row.request),
      );
      const begin = performance.now();
      let failed = false;
      await client.streamQuotes(source, {
        concurrency: QUOTE_CONCURRENCY,
        chunkSize: QUOTE_CHUNK_SIZE,
        onChunk: (outcomes) => void (failed ||= outcomes.some((outcome) => outcome.status === "failed")),
      });
      return failed ? null : performance.now() - begin;
    };
    /** How many rates the run stored, read as the run's rates page reads them (storedQuotes). */
    const storedQuoteCount = async (runId: string): Promise<number> =>
      (await stack.prisma.shipment.findMany({ where: { runId }, select: { rates: true, quotedAt: true } })).reduce(
        (count, shipment) => count + storedQuotes(shipment).length,
        0,
      );
    const rssBeforeRuns = peakRssMb() ?? 0;
    const heapBeforeRuns = process.memoryUsage().heapUsed / 1_048_576;
    const memory = sampleMemory();
    const report: string[] = [];
    const loadBefore = machineLoad();
    const stopProfile = await profileCpu(process.env.BENCH_CPU_PROFILE);

    for (const orders of SIZES) {
      const ids = stack.mirroredOrderIds.slice(0, orders);
      if (ids.length < orders) throw new Error(`only ${ids.length} orders mirrored; seed more than ${seeded}`);
      const runs: Array<{ recorded: number; quoted: number; loaded: number; service: number; shipments: number; cpuRecorded: number; cpu: number }> = [];
      for (let run = 0; run < runsAt(orders); run++) {
        // The bench's own reads of the last run and its service-alone pass leave garbage this run would collect.
        collectBenchGarbage();
        const cpu = process.cpuUsage();
        const begin = performance.now();
        memory.phase(`${orders} orders: recording the run`);
        const { runId, finished } = await startQuoteRun(ctx(), ids);
        const recorded = performance.now();
        memory.phase(`${orders} orders: quoting and storing rates`);
        const cpuRecorded = cpuMsSince(cpu);
        await finished;
        const quoted = performance.now();
        memory.phase(`${orders} orders: the rates page's data`);
        const view = await loadQuoteRunView(ctx(), runId);
        const loaded = performance.now();
        const cpuRun = cpuMsSince(cpu);
        if (view.run.status !== "COMPLETED") throw new Error(`run ${run + 1} ended ${view.run.status}: ${view.run.error}`);

        // The service alone on the run's own shipments, sent as the run sends them.
        memory.phase(`${orders} orders: the service alone (the bench's own reads)`);
        // Likewise the run's garbage is not the service alone's to collect.
        collectBenchGarbage();
        const service = await serviceAlone(runId);
        if (service === null) throw new Error(`the service alone failed on run ${run + 1}'s shipments`);
        const quotes = await storedQuoteCount(runId);
        runs.push({
          recorded: recorded - begin,
          quoted: quoted - begin,
          loaded: loaded - begin,
          service,
          shipments: view.run.shipmentsTotal,
          cpuRecorded,
          cpu: cpuRun,
        });
        console.log(
          `  ${orders} orders, run ${run + 1}: run recorded ${ms(recorded - begin)} (app CPU ${ms(cpuRecorded)}), rates stored ${ms(quoted - begin)}, page data ${ms(loaded - begin)} (app CPU ${ms(cpuRun)}); service alone ${ms(service)} (${view.run.shipmentsTotal} shipments, ${quotes} rates, ${view.counts.blockedOrders} orders blocked)`,
        );
      }
      const endToEnd = median(runs.map((run) => run.loaded));
      const service = median(runs.map((run) => run.service));
      const recordedPerOrder = median(runs.map((run) => run.recorded)) / orders;
      const first = runs[0]!;
      const later = runs.slice(1);
      report.push(
        `  ${orders} orders (${first.shipments} shipments), ${runs.length} runs:`,
        `    quote → rates stored → page data, median      ${ms(endToEnd)} = ${(endToEnd / service).toFixed(2)}× the service alone (${ms(service)}) (target ≤ ${TARGET_RATIO}×: ${mark(endToEnd <= TARGET_RATIO * service)})`,
        `    run recorded (mirror read, checks, shipments written), median ${(recordedPerOrder * orders).toFixed(0)} ms = ${recordedPerOrder.toFixed(3)} ms per order (target ≤ ${TARGET_RECORDED_MS_PER_ORDER}: ${mark(recordedPerOrder <= TARGET_RECORDED_MS_PER_ORDER)})`,
        `    first run (creates the shipments)              ${ms(first.loaded)} = ${(first.loaded / first.service).toFixed(2)}× its service alone, recorded ${(first.recorded / orders).toFixed(3)} ms per order`,
        `    later runs (quote the same shipments again)    median ${ms(median(later.map((run) => run.loaded)))}, recorded ${(median(later.map((run) => run.recorded)) / orders).toFixed(3)} ms per order`,
        `    app CPU, median (not stretched by the load)     ${(median(runs.map((run) => run.cpu)) / orders).toFixed(3)} ms per order end to end = ${(median(runs.map((run) => run.cpu)) / service).toFixed(2)}× the service alone's wall time; run recorded ${(median(runs.map((run) => run.cpuRecorded)) / orders).toFixed(3)} ms per order`,
      );
    }
    await stopProfile();
    if (process.env.BENCH_HEAP_SNAPSHOT)
      console.log(`heap snapshot after the runs: ${(await import("node:v8")).writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT)}`);
    const rss = peakRssMb() ?? 0;
    console.log(
      `\nApp bench on ${stack.database} (BENCH_DATABASE=sqlite|postgres): ${SIZES.join(" and ")} of ${stack.mirroredOrderIds.length} mirrored orders (${seeded} seeded); service and local admin in their own processes; ${memorySettings()}`,
    );
    console.log(`  before the runs ${loadBefore}; after them ${machineLoad()}`);
    for (const line of report) console.log(line);
    console.log(`  app peak RSS (VmHWM of this process)              ${rss.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB} MB: ${mark(rss <= TARGET_RSS_MB)})`);
    console.log(
      `    of which before the first run (node, the libraries, the mirror's first sync) ${rssBeforeRuns.toFixed(0)} MB; V8 heap in use as the runs began ${heapBeforeRuns.toFixed(0)} MB`,
    );
    console.log(`    during the runs, ${memory.atPeak()}`);
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
