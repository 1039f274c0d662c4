import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { z } from "zod";
import { Batch, BatchBookResponse, BatchQuoteResponse, CreateCustomerResponse } from "../../shipping-api/contract";
import { buildCreateCustomer, buildQuoteShipment } from "../factories/shipping-api";
import { median, peakRssMb } from "../support/figures";
import { freePort } from "../support/free-port";

/**
 * `npm run bench:service`: the Shipping API service's figures on this machine, all over loopback.
 * The service runs as its own process (`node --import tsx service/main.ts`) so the load generator does not
 * share its event loop, and its peak RSS is its own (VmHWM). BENCH_NODE_FLAGS passes extra node flags.
 * The environment settings of the `service` script (MALLOC_ARENA_MAX, NODE_OPTIONS) are applied too.
 */

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  method: string;
  headers: Record<string, string>;
  body: string;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const PARTNER_KEY = "bench-partner-key";
const RUNS = 5;

/** The `NAME=value` assignments in front of the `service` script in package.json, so the bench runs what it runs. */
function serviceScriptEnvironment(): Record<string, string> {
  const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.service ?? "";
  const assignments: Record<string, string> = {};
  for (const word of script.split(/\s+/)) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (!match) break;
    assignments[match[1]!] = match[2]!;
  }
  return assignments;
}

async function startServiceProcess(): Promise<{ child: ChildProcess; baseUrl: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "shipping-bench-"));
  const port = await freePort();
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "service/main.ts"], {
    // With the environment `npm run service` sets (allocator and heap settings), in the production
    // configuration: real keys, no response re-validation (the contract suite covers that), warnings only.
    env: {
      ...process.env,
      ...serviceScriptEnvironment(),
      NODE_ENV: "production",
      SHIPPING_SERVICE_PORT: String(port),
      SHIPPING_SERVICE_DATABASE_URL: `file:${join(dir, "bench.sqlite")}`,
      SHIPPING_SERVICE_PARTNER_KEY: PARTNER_KEY,
      SHIPPING_SERVICE_SECRETS_KEY: "bench-secrets-key",
      SHIPPING_SERVICE_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return { child, baseUrl, dir };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGTERM");
  throw new Error("service did not become healthy");
}

/** One request, timed to its parsed JSON; the body is then checked against the contract's response schema. */
async function call<T extends z.ZodType>(
  baseUrl: string,
  path: string,
  authorization: string,
  schema: T,
  body?: unknown,
): Promise<{ status: number; json: z.output<T>; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return { status: response.status, json: schema.parse(json), ms };
}

async function main(): Promise<void> {
  const { child, baseUrl, dir } = await startServiceProcess();
  try {
    const email = `bench-${Date.now()}@consign.test`;
    const password = "bench-password";
    const created = await call(
      baseUrl,
      "/restapi/v1/customers",
      `Bearer ${PARTNER_KEY}`,
      CreateCustomerResponse,
      buildCreateCustomer({ email, password, prepaySettings: { minimumBalance: "1000", rechargeAmount: "100000" } }),
    );
    const { customerId } = created.json;
    const auth = `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;
    const root = `/restapi/v1/customers/${customerId}`;

    // 1. 500 shipments, every available service each (no carrier/service/package codes).
    const allServices = { shipments: Array.from({ length: 500 }, (_, index) => buildQuoteShipment({ shipmentReference: `#${index}` })) };
    await call(baseUrl, `${root}/batch-quote`, auth, BatchQuoteResponse, allServices); // warm-up
    const quoteTimes: number[] = [];
    let quotesPerRequest = 0;
    for (let run = 0; run < RUNS; run++) {
      const result = await call(baseUrl, `${root}/batch-quote`, auth, BatchQuoteResponse, allServices);
      if (result.status !== 200) throw new Error(`batch quote failed: ${JSON.stringify(result.json).slice(0, 300)}`);
      quotesPerRequest = result.json.results.reduce((sum, entry) => sum + (entry.status === "success" ? entry.quotes.length : 0), 0);
      quoteTimes.push(result.ms);
    }
    const rssAfterQuotes = peakRssMb(child.pid!) ?? 0;

    // 2. Book a batch of 500 saved quotes, the combined PDF included.
    const bookTimes: number[] = [];
    const bytesPerLabel: number[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      const quoted = await call(baseUrl, `${root}/batch-quote`, auth, BatchQuoteResponse, {
        shipments: allServices.shipments.map((entry) => ({ ...entry, serviceCode: "BLP_GROUND" })),
      });
      const quoteIds = quoted.json.results.map((entry) => {
        if (entry.status !== "success") throw new Error(`batch quote refused a shipment: ${entry.error}`);
        return entry.quotes[0]!.quoteId;
      });
      const batch = await call(baseUrl, `${root}/batch`, auth, Batch, { name: `bench ${run}`, quoteIds });
      const booked = await call(baseUrl, `${root}/batch-book`, auth, BatchBookResponse, { batchId: batch.json.batchId });
      const bookedCount = booked.json.results.filter((entry) => entry.status === "success").length;
      if (bookedCount !== 500)
        throw new Error(`batch book booked ${bookedCount} of 500: ${JSON.stringify(booked.json.results.find((entry) => entry.status !== "success"))}`);
      if (run === 0) continue; // warm-up
      bookTimes.push(booked.ms);
      bytesPerLabel.push(Buffer.from(booked.json.labelsPdf, "base64").length / 500);
    }
    const rssAfterBooking = peakRssMb(child.pid!) ?? 0;

    // 3. Single-shipment quotes (every service) under 32 connections for 10 s.
    const single = await autocannon({
      url: `${baseUrl}${root}/batch-quote`,
      connections: 32,
      duration: 10,
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ shipments: [buildQuoteShipment()] }),
    });

    const figures = {
      "batch quote, 500 shipments × all services (median ms)": Math.round(median(quoteTimes)),
      "quotes saved per 500-shipment request": quotesPerRequest,
      "batch book, 500 quotes incl. combined PDF (median ms)": Math.round(median(bookTimes)),
      "label size (bytes per label, median)": Math.round(median(bytesPerLabel)),
      "single-shipment quote, 32 connections, 10 s (req/s)": Math.round(single.requests.average),
      "single-shipment quote p50 / p99 latency (ms)": `${single.latency.p50} / ${single.latency.p99}`,
      "non-2xx responses / errors under load": `${single.non2xx} / ${single.errors}`,
      "service peak RSS (MB): after quotes / after booking / at end": `${Math.round(rssAfterQuotes)} / ${Math.round(rssAfterBooking)} / ${Math.round(peakRssMb(child.pid!) ?? 0)}`,
    };
    const settings = Object.entries(serviceScriptEnvironment())
      .map(([name, value]) => `${name}=${value}`)
      .join(" ");
    console.log(
      `Shipping API service bench (${RUNS} runs each, medians; loopback; NODE_ENV=production, log level warn, ${settings}; load average ${loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")})`,
    );
    for (const [name, value] of Object.entries(figures)) console.log(`  ${name.padEnd(58)} ${value}`);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
