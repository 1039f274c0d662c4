import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { peakRssMb } from "../support/figures";
import { freePort } from "../support/free-port";
import { PARTNER_KEY, SECRETS_KEY, type ServiceClients, serviceClients, startService } from "../support/service-harness";
import { FuzzFailure } from "./fuzz-kit";
import { prepareWorld, runServiceFuzz } from "./service-fuzz";

/**
 * `npm run fuzz -- [--seed N] [--runs M] [--process]`: the Shipping API service's fuzz suite, as long as wanted.
 * By default the real service runs in this process on a fresh SQLite file. With --process it runs as its own
 * process, started as `npm run service` starts it (production mode, same memory settings), and its peak RSS
 * under the run is printed against the service's 250 MB target. Without --seed a random seed is chosen and
 * printed, so any failure can be replayed.
 */

const MEMORY_TARGET_MB = 250;
const root = join(import.meta.dirname, "..", "..");

const { values } = parseArgs({
  options: { seed: { type: "string" }, runs: { type: "string", default: "20000" }, process: { type: "boolean", default: false } },
});
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const runs = Number(values.runs);
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(runs) || runs < 1) {
  console.error("usage: npm run fuzz -- [--seed <integer>] [--runs <count, default 20000>] [--process]");
  process.exit(2);
}

interface Target {
  clients: ServiceClients;
  /** Peak resident memory of the service process so far, in MB (VmHWM), when it runs apart. */
  peakRssMb(): number | null;
  stop(): Promise<void>;
}

async function inProcess(): Promise<Target> {
  const service = await startService();
  return { clients: service, peakRssMb: () => null, stop: () => service.close() };
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before answering /healthz`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the service did not answer /healthz within 30 s");
}

async function separateProcess(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), "shipping-fuzz-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["--max-semi-space-size=4", "--import", "tsx", "service/main.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      SHIPPING_SERVICE_PORT: String(port),
      SHIPPING_SERVICE_DATABASE_URL: `file:${join(dir, "service.sqlite")}`,
      SHIPPING_SERVICE_PARTNER_KEY: PARTNER_KEY,
      SHIPPING_SERVICE_SECRETS_KEY: SECRETS_KEY,
      SHIPPING_SERVICE_LOG_LEVEL: "error",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(baseUrl, child);
  return {
    clients: serviceClients(baseUrl),
    peakRssMb: () => peakRssMb(child.pid!),
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const target = values.process ? await separateProcess() : await inProcess();
const started = performance.now();
let exitCode = 0;
try {
  const world = await prepareWorld(target.clients);
  console.log(`fuzzing the Shipping API service (${values.process ? "its own process" : "in this process"}): seed ${seed}, ${runs} requests`);
  const summary = await runServiceFuzz(world, {
    seed,
    runs,
    onProgress: (done) => {
      const peak = target.peakRssMb();
      console.log(`  ${done} requests${peak === null ? "" : `, service peak RSS ${peak.toFixed(0)} MB`}`);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`passed: ${summary.requests} requests in ${seconds.toFixed(1)} s; the service is healthy`);
  const peak = target.peakRssMb();
  if (peak !== null)
    console.log(`service peak RSS (VmHWM) ${peak.toFixed(0)} MB, target ≤ ${MEMORY_TARGET_MB} MB: ${peak <= MEMORY_TARGET_MB ? "met" : "MISSED"}`);
  for (const [kind, { count, ms }] of [...summary.mutations].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`  ${kind.padEnd(24)} ${String(count).padStart(6)} requests ${(ms / 1000).toFixed(1).padStart(7)} s`);
  }
} catch (error) {
  exitCode = 1;
  console.error(error instanceof FuzzFailure ? error.message : error);
} finally {
  await target.stop();
}
process.exit(exitCode);
