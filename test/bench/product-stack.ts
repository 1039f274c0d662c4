import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createPrismaClient } from "../../app/db/db-client.server";
import { operationName } from "../../app/shopify/gateway.server";
import { seedStore } from "../../devstore/seed/seed.js";
import { connectStackAccount } from "../support/account";
import { serverBuildPath } from "../support/build-dir";
import { median, memorySettings, peakRssMb, processCpuSeconds, rssAgainstTarget, startScriptEnv } from "../support/figures";
import { BROWSER_USER_AGENT, STACK_SHOP, startStack, type Stack } from "../support/stack";
import { openBenchDatabase } from "./bench-database";

/**
 * The product as it runs in production, for the benches that measure a merchant's path over HTTP: the built
 * app (`npm run build`) served by remix-serve with `npm start`'s memory settings, on BENCH_DATABASE's database
 * (its job queue: in-process on SQLite, pg-boss on PostgreSQL), beside the real local admin (in this process,
 * at Shopify's standard throttle unless BENCH_BUCKET_SIZE / BENCH_RESTORE_RATE say otherwise; it delivers
 * Shopify's signed webhooks to the app as Shopify does) and the Shipping API service. The shop's account is
 * connected, the app opened once (which installs its offline session and queues the first order sync) and
 * that sync completed. Every Admin GraphQL request the app sends to the local admin is counted by operation.
 */

export interface AdminCharge {
  operation: string;
  actualQueryCost: number | null;
  throttled: boolean;
  maximumAvailable: number;
  restoreRate: number;
}

export interface ProductStack {
  stack: Stack;
  /** "SQLite" or "PostgreSQL <version> at <host>". */
  database: string;
  /** A client on the app's database, for reading what the app recorded. */
  prisma: ReturnType<typeof createPrismaClient>;
  /** The Admin GraphQL operations the app sent to the local admin, by name, in order of arrival. */
  adminOperations: string[];
  /** What the local admin charged each answered operation (extensions.cost), in order of answer. */
  adminCharges: AdminCharge[];
  /** Reads a page's data as the embedded app's navigation does (`?_data=<route>` with a fresh session token); its status and milliseconds. */
  page(path: string, route: string): Promise<{ status: number; ms: number }>;
  /** The app process's peak resident set so far, in MB. */
  appPeakRssMb(): number | null;
  /** The app process's CPU time so far (user + system), in seconds: what it costs whatever the machine's load. */
  appCpuSeconds(): number | null;
  stop(): Promise<void>;
}

const THROTTLE = {
  ...(process.env.BENCH_BUCKET_SIZE ? { bucketSize: Number(process.env.BENCH_BUCKET_SIZE) } : {}),
  ...(process.env.BENCH_RESTORE_RATE ? { restoreRate: Number(process.env.BENCH_RESTORE_RATE) } : {}),
};

export async function startProductStack({ orders }: { orders: number }): Promise<ProductStack> {
  if (!existsSync(serverBuildPath())) throw new Error(`No server build at ${serverBuildPath()}: run npm run build first (the bench's npm script does).`);
  const database = await openBenchDatabase();
  const adminOperations: string[] = [];
  const adminCharges: AdminCharge[] = [];
  let stack: Stack;
  try {
    stack = await startStack({
      seed: (store) => void seedStore(store, { orders, shopDomain: STACK_SHOP }),
      appEnv: { DATABASE_URL: database.url, ...startScriptEnv() }, // `npm start`'s memory settings
      localAdmin: {
        throttle: THROTTLE,
        registerRoutes: (app) => {
          const operationOf = (body: unknown, url: string) => {
            const query = (body as { query?: unknown } | undefined)?.query;
            return url.includes("/graphql.json") && typeof query === "string" ? operationName(query) : null;
          };
          app.addHook("preHandler", async (request) => {
            const operation = operationOf(request.body, request.url);
            if (operation) adminOperations.push(operation);
          });
          app.addHook("onSend", async (request, _reply, payload) => {
            const operation = operationOf(request.body, request.url);
            if (operation && typeof payload === "string") {
              const { extensions, errors } = JSON.parse(payload) as {
                extensions?: { cost?: { actualQueryCost: number | null; throttleStatus: { maximumAvailable: number; restoreRate: number } } };
                errors?: unknown;
              };
              const cost = extensions?.cost;
              if (cost)
                adminCharges.push({
                  operation,
                  actualQueryCost: cost.actualQueryCost,
                  throttled: JSON.stringify(errors ?? "").includes("THROTTLED"),
                  ...cost.throttleStatus,
                });
            }
            return payload;
          });
        },
      },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const prisma = createPrismaClient(database.url);
  const stop = async () => {
    await prisma.$disconnect();
    await stack.stop();
    await database.drop();
  };
  try {
    await connectStackAccount(stack);
    const page = async (path: string, route: string) => {
      const authorization = `Bearer ${await stack.admin.mintSessionToken()}`;
      const started = performance.now();
      const response = await fetch(`${stack.app.url}${path}${path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(route)}`, {
        headers: { authorization, "user-agent": BROWSER_USER_AGENT },
        redirect: "manual",
      });
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - started };
    };
    // Opening the app installs it: token exchange stores the offline session and queues the first order sync.
    const opened = await page("/app", "routes/app");
    if (opened.status !== 200) throw new Error(`Opening the app answered ${opened.status}`);
    for (let waited = 0; ; waited += 250) {
      const sync = await prisma.mirrorSync.findFirst({ where: { shop: stack.shop }, orderBy: { startedAt: "desc" } });
      if (sync?.status === "COMPLETED") break;
      if (sync?.status === "FAILED") throw new Error(`The first order sync failed: ${sync.error}`);
      if (waited > 300_000) throw new Error("The first order sync did not complete within 5 minutes");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const pid = stack.app.process.pid;
    return {
      stack,
      database: database.label,
      prisma,
      adminOperations,
      adminCharges,
      page,
      appPeakRssMb: () => (pid === undefined ? null : peakRssMb(pid)),
      appCpuSeconds: () => (pid === undefined ? null : processCpuSeconds(pid)),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The pages a merchant opens, as paths and Remix route ids; the Rates page and a batch need their ids. */
export function merchantPages(ids: { runId: string; batchId: string }): { name: string; path: string; route: string }[] {
  return [
    { name: "Orders to ship", path: "/app", route: "routes/app._index" },
    { name: "Settings", path: "/app/settings", route: "routes/app.settings" },
    { name: "Rates", path: `/app/quotes/${ids.runId}`, route: "routes/app.quotes.$runId" },
    { name: "A batch", path: `/app/batches/${ids.batchId}`, route: "routes/app.batches.$id" },
    { name: "Shipments", path: "/app/shipments", route: "routes/app.shipments" },
    { name: "Overview", path: "/app/overview", route: "routes/app.overview" },
  ];
}

/** Order ids per "Create shipping labels" request: its URL carries them (`ids[]=…`), within Node's 16 KB of headers. */
const ORDERS_PER_QUOTE_REQUEST = 150;

/**
 * Quotes `orderIds` through the app's own route where "Create shipping labels" lands, ORDERS_PER_QUOTE_REQUEST at a
 * time, waiting for each run, until `batchSize` rates are picked; then puts those in a batch through the
 * new-batch form, as a merchant does. Answers the last run's id, the batch's, and how many shipments it holds.
 */
export async function quoteAndBatch(
  product: ProductStack,
  orderIds: readonly string[],
  name: string,
  batchSize = 500,
): Promise<{ runId: string; batchId: string; shipments: number }> {
  const { prisma, stack } = product;
  const picked: string[] = [];
  let runId = "";
  for (let start = 0; start < orderIds.length && picked.length < batchSize; start += ORDERS_PER_QUOTE_REQUEST) {
    const before = new Date();
    const selection = orderIds
      .slice(start, start + ORDERS_PER_QUOTE_REQUEST)
      .map((id) => `ids[]=${encodeURIComponent(id)}`)
      .join("&");
    const started = await product.page(`/app/quotes/new?${selection}`, "routes/app.quotes.new");
    if (started.status >= 400) throw new Error(`Starting the quote run answered ${started.status}`);
    const run = await until(
      () => prisma.quoteRun.findFirst({ where: { shop: stack.shop, startedAt: { gte: before } }, orderBy: { startedAt: "desc" } }),
      (found) => found?.status === "COMPLETED",
      "the quote run",
    );
    runId = run!.id;
    const rows = await prisma.shipment.findMany({ where: { runId, selectedQuoteId: { not: null } }, select: { id: true }, take: batchSize - picked.length });
    picked.push(...rows.map((row) => row.id));
  }
  const form = new URLSearchParams({ name });
  for (const id of picked) form.append("shipmentIds", id);
  const response = await fetch(`${stack.app.url}/app/batches/new?_data=${encodeURIComponent("routes/app.batches.new")}`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${await stack.admin.mintSessionToken()}`, "user-agent": BROWSER_USER_AGENT },
    redirect: "manual",
  });
  await response.arrayBuffer();
  if (response.status >= 400) throw new Error(`Creating the batch answered ${response.status}`);
  const batch = await until(
    () => prisma.batch.findFirst({ where: { shop: stack.shop, name }, orderBy: { createdAt: "desc" } }),
    (found) => found?.status === "OPEN",
    "the batch",
  );
  return { runId, batchId: batch!.id, shipments: picked.length };
}

/** Polls `read` every 200 ms until `done` holds (`minutes` at most, 5 unless said). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, minutes = 5): Promise<T> {
  for (let waited = 0; ; waited += 200) {
    const value = await read();
    if (done(value)) return value;
    if (waited > minutes * 60_000) throw new Error(`${what} did not finish within ${minutes} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** p50, p95 and max of page latencies, in ms. */
export function latencyFigures(values: readonly number[]): { p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: median(sorted), p95: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0, max: sorted.at(-1) ?? 0 };
}

/**
 * Reads `pages` one after another, round after round (at least one), until `stop` resolves, from a process of
 * its own (page-reader.ts); answers each page's latencies and the pages that did not answer 200, named.
 */
export async function readPagesUntil(
  product: ProductStack,
  pages: readonly { name: string; path: string; route: string }[],
  stop: Promise<unknown>,
): Promise<{ latencies: Map<string, number[]>; failures: string[] }> {
  const { stack } = product;
  const options = {
    appUrl: stack.app.url,
    apiKey: stack.apiKey,
    apiSecret: stack.apiSecret,
    shop: stack.shop,
    userAgent: BROWSER_USER_AGENT,
    pages,
    intervalMs: Number(process.env.BENCH_READ_INTERVAL_MS ?? 1_000),
  };
  const reader = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "page-reader.ts"), JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  reader.stdout!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => reader.once("exit", resolve));
  await stop;
  reader.stdin!.write("stop\n");
  const code = await exited;
  if (code !== 0) throw new Error(`The page reader exited with ${code}`);
  const read = JSON.parse(output) as { latencies: Record<string, number[]>; failures: string[] };
  return { latencies: new Map(Object.entries(read.latencies)), failures: read.failures };
}

/** Prints each page's p50 / p95 / max and the worst against `targetMs`; answers whether every page met it. */
export function printPageLatencies(latencies: Map<string, number[]>, targetMs: number): boolean {
  let worst = 0;
  for (const [name, values] of latencies) {
    const { p50, p95, max } = latencyFigures(values);
    worst = Math.max(worst, max);
    console.log(
      `  ${name.padEnd(16)} ${String(values.length).padStart(4)} reads  p50 ${p50.toFixed(0).padStart(5)} ms  p95 ${p95.toFixed(0).padStart(5)} ms  max ${max.toFixed(0).padStart(5)} ms`,
    );
  }
  console.log(`  slowest page: ${worst.toFixed(0)} ms (target: every page within ${targetMs} ms) ${worst <= targetMs ? "MET" : "NOT MET"}`);
  return worst <= targetMs;
}

/**
 * The closing figures of a product bench: the pages' latencies `during` what it measured (named by `what`) against
 * `targetMs`, pages that did not answer 200, the app's peak RSS and the machine's load; answers whether every
 * page met the target.
 */
export function printPagesAndMachine(
  product: ProductStack,
  what: string,
  during: { latencies: Map<string, number[]>; failures: string[] },
  targetMs: number,
): boolean {
  console.log(`pages during ${what}:`);
  const met = printPageLatencies(during.latencies, targetMs);
  if (during.failures.length > 0) console.log(`  not 200: ${during.failures.length} (${[...new Set(during.failures)].join("; ")})`);
  console.log(
    `app peak RSS    ${rssAgainstTarget(product.appPeakRssMb())} (the app runs with npm start's memory settings; ${memorySettings()} in this process)`,
  );
  console.log(
    `machine load    ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );
  return met;
}
