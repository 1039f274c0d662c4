import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { loadavg } from "node:os";
import { freshAppDatabase, TEST_API_KEY, TEST_API_SECRET, useAppEnvironment } from "../support/app-env";
import { memorySettings, peakRssMb } from "../support/figures";

/**
 * `npm run bench:tracking`: one tracking pass over 10,000 active shipments across 10 shops, against the real
 * Shipping API service and real local admins (tracking-stack.ts, in its own process), through the app's own
 * pass runner (app/tracking/run.server.ts): Track Shipment for each, and each change of status written with
 * fulfillmentEventCreate through the gateway's pacing. The first pass runs an hour after booking (each
 * shipment has one new status, Info Received → CONFIRMED); the second seven hours later on the app's clock,
 * with the service's clock unchanged, so every shipment is due again and nothing is new.
 *
 * The local admins run at Shopify Plus's restore rate (1,000 points per second) by default: at the standard
 * plan's 100, a shop's 1,000 writes alone cost about two minutes of throttle, whatever the app does
 * (BENCH_TRACKING_RESTORE_RATE=100 shows it; the printed floor says what the throttle allows).
 */

const TARGET_PASS_S = 60;
const TARGET_SECOND_PASS_S = 20;
const TARGET_RSS_MB = 300;
const HOUR = 3_600_000;
/** Requested cost of CreateTrackingEvent at the local admin (a mutation's 10 plus its payload's fields). */
const EVENT_WRITE_COST = 12;

async function main(): Promise<void> {
  const databaseUrl = freshAppDatabase();
  const stack = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "tracking-stack.ts")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, SHOPIFY_API_KEY: TEST_API_KEY, SHOPIFY_API_SECRET: TEST_API_SECRET },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stopStack = () => new Promise<void>((resolve) => (stack.exitCode !== null ? resolve() : (stack.once("exit", () => resolve()), stack.kill("SIGTERM"))));
  try {
    process.stdout.write("seeding shops, bookings and fulfillments… ");
    const seeded = Date.now();
    const ready = await new Promise<{ adminUrl: string; serviceUrl: string; shops: string[]; start: string }>((resolve, reject) => {
      stack.once("exit", (code) => reject(new Error(`the bench stack exited with ${code}`)));
      createInterface({ input: stack.stdout! }).on("line", (line) => {
        if (line.startsWith("{")) resolve(JSON.parse(line));
      });
    });
    console.log(`done in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);

    useAppEnvironment({
      DATABASE_URL: databaseUrl,
      LOCAL_ADMIN_URL: ready.adminUrl,
      SHIPPING_API_URL: ready.serviceUrl,
      SHOPIFY_API_KEY: TEST_API_KEY,
      SHOPIFY_API_SECRET: TEST_API_SECRET,
    });
    const { default: prisma } = await import("../../app/db.server");
    const { trackShop } = await import("../../app/tracking/run.server");
    const { contextFor } = await import("../../app/context.server");
    const active = await prisma.shipment.count({ where: { trackingState: "ACTIVE" } });

    const setServiceClock = async (at: Date) => {
      await fetch(`${ready.adminUrl}/bench/clock`, { method: "POST", body: JSON.stringify({ at: at.toISOString() }) });
    };
    const runPass = async (at: Date) => {
      const started = performance.now();
      const perShop = await Promise.all(ready.shops.map((shop) => trackShop(contextFor(shop, { now: () => at }))));
      const seconds = (performance.now() - started) / 1000;
      const sum = (key: "polled" | "written" | "errors" | "failed") => perShop.reduce((total, summary) => total + summary[key], 0);
      return {
        seconds,
        polled: sum("polled"),
        written: sum("written"),
        errors: sum("errors"),
        failed: sum("failed"),
        largestShopWrites: Math.max(...perShop.map((summary) => summary.written)),
      };
    };

    const start = new Date(ready.start);
    const firstAt = new Date(start.getTime() + HOUR);
    await setServiceClock(firstAt);
    const first = await runPass(firstAt);
    const restoreRate = Number(process.env.BENCH_TRACKING_RESTORE_RATE ?? 1000);
    const bucket = Number(process.env.BENCH_TRACKING_BUCKET ?? 1000);
    const floor = Math.max(0, first.largestShopWrites * EVENT_WRITE_COST - bucket) / restoreRate;
    const second = await runPass(new Date(firstAt.getTime() + 7 * HOUR));
    const rss = peakRssMb() ?? 0;

    const mark = (ok: boolean) => (ok ? "met" : "MISSED");
    console.log(
      `\ntracking sync, ${active.toLocaleString("en-US")} active shipments across ${ready.shops.length} shops (load average ${loadavg()[0]!.toFixed(1)})`,
    );
    console.log(
      `  first pass:  ${first.seconds.toFixed(1)} s (target ≤ ${TARGET_PASS_S} s: ${mark(first.seconds <= TARGET_PASS_S)}), ${first.polled.toLocaleString("en-US")} Track Shipment calls = ${(first.polled / first.seconds).toFixed(0)} calls/s, ${first.written.toLocaleString("en-US")} Shopify writes (${first.failed} refused, ${first.errors} to retry)`,
    );
    console.log(
      `               throttle floor for the busiest shop (${first.largestShopWrites} writes at ${restoreRate} points/s, ${bucket}-point bucket): ${floor.toFixed(1)} s`,
    );
    console.log(
      `  second pass: ${second.seconds.toFixed(1)} s (target ≤ ${TARGET_SECOND_PASS_S} s: ${mark(second.seconds <= TARGET_SECOND_PASS_S)}), ${second.polled.toLocaleString("en-US")} calls = ${(second.polled / second.seconds).toFixed(0)} calls/s, ${second.written} Shopify writes (target 0: ${mark(second.written === 0)})`,
    );
    console.log(`  peak RSS of the app side: ${rss.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB} MB: ${mark(rss <= TARGET_RSS_MB)}), ${memorySettings()}`);
    await prisma.$disconnect();
  } finally {
    await stopStack();
  }
}

await main();
process.exit(0);
