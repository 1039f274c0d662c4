import { parseArgs } from "node:util";
import { startService } from "../integration/service-harness";
import { FuzzFailure, prepareWorld, runServiceFuzz } from "./service-fuzz";

/**
 * `npm run fuzz -- --seed N --runs M`: the Shipping API service's fuzz suite, as long as wanted, against the
 * real service in this process on a fresh SQLite file. Without --seed a random seed is chosen and printed, so
 * any failure can be replayed.
 */
const { values } = parseArgs({ options: { seed: { type: "string" }, runs: { type: "string", default: "20000" } } });
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const runs = Number(values.runs);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(runs) || runs < 1) {
  console.error("usage: npm run fuzz -- [--seed <integer>] [--runs <count, default 20000>]");
  process.exit(2);
}

const service = await startService();
const started = performance.now();
let exitCode = 0;
try {
  const world = await prepareWorld(service);
  console.log(`fuzzing the Shipping API service: seed ${seed}, ${runs} requests`);
  const summary = await runServiceFuzz(world, { seed, runs, onProgress: (done) => console.log(`  ${done} requests, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB RSS`) });
  const seconds = (performance.now() - started) / 1000;
  console.log(`passed: ${summary.requests} requests in ${seconds.toFixed(1)} s; the service is healthy`);
  for (const [kind, { count, ms }] of [...summary.mutations].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`  ${kind.padEnd(28)} ${String(count).padStart(6)} requests ${(ms / 1000).toFixed(1).padStart(7)} s`);
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof FuzzFailure ? error.message : error);
} finally {
  await service.close();
}
process.exit(exitCode);
