import { parseArgs } from "node:util";
import { memorySettings, peakRssMb } from "../support/figures";
import { startStack } from "../support/stack";
import { FuzzFailure } from "./fuzz-kit";
import { SHOP_B, prepareAppWorld, runAppFuzz } from "./app-fuzz";

/**
 * `npm run fuzz:app -- [--seed N] [--runs M]`: the app's fuzz suite (test/fuzz/app-fuzz.ts), as long as wanted,
 * against the built app (`npm run build` first) in production mode, as `npm start` runs it (the same memory
 * settings), with two connected shops, the real local admins and the real Shipping API service beside it.
 * Without --seed a random seed is chosen and printed, so any failure can be replayed. Prints the app's peak
 * RSS at the end, against its 300 MB target (README, Figures).
 */

const MEMORY_TARGET_MB = 300;

const { values } = parseArgs({ options: { seed: { type: "string" }, runs: { type: "string", default: "5000" } } });
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const runs = Number(values.runs);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(runs) || runs < 1) {
  console.error("usage: npm run fuzz:app -- [--seed <integer>] [--runs <count, default 5000>]");
  process.exit(2);
}

const stack = await startStack({ otherShops: [SHOP_B] });
const appPeak = () => peakRssMb(stack.app.process.pid!);
const started = performance.now();
let exitCode = 0;
try {
  const world = await prepareAppWorld(stack);
  console.log(`fuzzing the built app (${memorySettings()}): seed ${seed}, ${runs} requests`);
  try {
    const summary = await runAppFuzz(world, {
      seed,
      runs,
      onProgress: (done) => console.log(`  ${done} requests, app peak RSS ${appPeak()?.toFixed(0) ?? "?"} MB`),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`passed: ${summary.requests} requests in ${seconds.toFixed(1)} s; the app still answers shop A's pages`);
    for (const [kind, { count, ms }] of [...summary.mutations].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(`  ${kind.padEnd(24)} ${String(count).padStart(6)} requests ${(ms / 1000).toFixed(1).padStart(7)} s`);
    }
  } finally {
    world.db.close();
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof FuzzFailure ? error.message : error);
  console.error(`the app's log: ${stack.app.logFile}`);
} finally {
  const peak = appPeak();
  if (peak !== null) console.log(`app peak RSS (VmHWM) ${peak.toFixed(0)} MB, target ≤ ${MEMORY_TARGET_MB} MB: ${peak <= MEMORY_TARGET_MB ? "met" : "MISSED"}`);
  else console.log("app peak RSS: the app process is gone (it crashed)");
  await stack.stop();
}
process.exit(exitCode);
