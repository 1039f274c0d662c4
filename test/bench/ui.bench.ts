import { readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createShippingClient } from "../../shipping-api/client";
import { seedStore } from "../../devstore/seed/seed";
import { openBrowser } from "../support/browser";
import { connectStackAccount } from "../support/account";
import { startStack, STACK_SHOP } from "../support/stack";
import { seedOpenBatch, seedRatesRun, seedTrackedShipments } from "../factories/big-shop";
import { openBenchDatabase } from "./bench-database";

/**
 * `npm run bench:ui`: the app's pages at a busy shop's size, in real Chromium inside the local admin's frame, as
 * a merchant uses them. A shop with 5,000 open orders (the local admin seeded, the app's mirror filled by its
 * real first sync), a rates run over all of them, an open batch of 500 and 50,000 tracked shipments. Each page
 * is loaded LOADS times with its interactions (select rows, select all matching orders, filter, expand every
 * rate of an order, page forward); the `web-vitals` library, as Shopify measures embedded apps, runs in the
 * app's frame. Prints LCP, CLS (shifts after the interactions counted) and INP at p75 per page against the
 * targets, with each page's weight (the document and the data of one interaction) and DOM size.
 * Built first (`npm run build`): the bench runs the production build as `npm start` would, on BENCH_DATABASE's
 * database (`sqlite`, the default, or `postgres`). BENCH_PAGES names the pages to measure (all by default);
 * BENCH_FRAME_PROFILE=<file> writes a CPU profile of the app's frame during each load's interactions (the last
 * load's is kept), which shows what a slow click spent.
 */

const ORDERS = Number(process.env.BENCH_ORDERS ?? 5_000);
/** The devstore's seed closes or fulfils about a quarter of its orders (its scenarios): seed enough for ORDERS open ones. */
const SEEDED = Math.ceil(ORDERS / 0.75);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const TRACKED = Number(process.env.BENCH_TRACKED ?? 50_000);
const LOADS = Number(process.env.BENCH_LOADS ?? 10);
const TARGETS = { lcp: 1500, cls: 0.05, inp: 150 } as const;
/** BENCH_PAGES="Orders to ship,Batch": only those pages (all by default), to work on one page's figures. */
const PAGES = process.env.BENCH_PAGES?.split(",").map((name) => name.trim());

const require = createRequire(import.meta.url);
const WEB_VITALS = readFileSync(join(dirname(require.resolve("web-vitals")), "web-vitals.attribution.iife.js"), "utf8");

/** In the app's frame only (the admin is the top window): the three metrics as web-vitals reports them, every change. */
const COLLECT = `${WEB_VITALS}
if (window.top !== window) {
  window.__vitals = { lcp: null, cls: 0, inp: null, shiftTarget: null, shiftMove: null, inpTarget: null };
  webVitals.onLCP((metric) => { window.__vitals.lcp = metric.value; }, { reportAllChanges: true });
  webVitals.onCLS((metric) => {
    window.__vitals.cls = metric.value;
    window.__vitals.shiftTarget = metric.attribution.largestShiftTarget ?? null;
    const entry = metric.attribution.largestShiftEntry;
    const describe = (source) =>
      \`\${source.node?.nodeName?.toLowerCase() ?? "?"}.\${(source.node?.className ?? "").toString().split(" ")[0]} top \${Math.round(source.previousRect.top)} → \${Math.round(source.currentRect.top)} px, height \${Math.round(source.previousRect.height)} → \${Math.round(source.currentRect.height)} px "\${(source.node?.textContent ?? "").trim().slice(0, 40)}"\`;
    window.__vitals.shiftMove = entry ? \`at \${Math.round(entry.startTime)} ms: \${entry.sources.map(describe).join("; ")}\` : null;
  }, { reportAllChanges: true });
  webVitals.onINP((metric) => {
    window.__vitals.inp = metric.value;
    const parts = metric.attribution;
    const scripts = (parts.longAnimationFrameEntries ?? []).flatMap((frame) => frame.scripts ?? []).sort((a, b) => b.duration - a.duration).slice(0, 3)
      .map((script) => \`\${script.invoker} → \${script.sourceFunctionName || "?"} \${(script.sourceURL || "").split("/").pop()}:\${script.sourceCharPosition} \${Math.round(script.duration)} ms (forced layout \${Math.round(script.forcedStyleAndLayoutDuration)} ms)\`);
    window.__vitals.inpTarget = \`\${parts.interactionTarget ?? "?"} (\${parts.interactionType}: input delay \${Math.round(parts.inputDelay)} ms, handlers and render \${Math.round(parts.processingDuration)} ms, until painted \${Math.round(parts.presentationDelay)} ms; scripts \${Math.round(parts.totalScriptDuration ?? 0)} ms, style and layout \${Math.round(parts.totalStyleAndLayoutDuration ?? 0)} ms, paint \${Math.round(parts.totalPaintDuration ?? 0)} ms; longest scripts: \${scripts.join("; ") || "—"})\`;
  }, { reportAllChanges: true });
}`;

interface Vitals {
  lcp: number | null;
  cls: number;
  inp: number | null;
  /** What moved most (web-vitals' attribution build), and the element of the slowest interaction. */
  shiftTarget: string | null;
  /** When the largest shift happened, how its element moved and what it says. */
  shiftMove: string | null;
  /** The slowest interaction's element, and its time split: waiting to start, the page's own handlers, until painted. */
  inpTarget: string | null;
}

interface Sample extends Vitals {
  /** Route data requests the page's filter click made (a filter must fetch once). */
  filterFetches: number | null;
  documentKb: number;
  dataKb: number;
  domNodes: number;
}

const p75 = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.75) - 1)]!;
};

const ms = (value: number) => `${Math.round(value)} ms`;

async function settle(frame: FrameLocator): Promise<void> {
  // Remix marks nothing while idle; the page's own busy markers are gone and two frames have painted.
  await frame.locator("body").evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))));
}

/** Waits until `done` holds, checked every 50 ms, for at most 10 s. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`bench:ui waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface PageScript {
  name: string;
  path: string;
  /** Shown once the page has rendered its list. */
  ready: (frame: FrameLocator) => Promise<void>;
  /** The merchant's interactions; `filter` wraps the one filter click whose fetches are counted. */
  interact: (frame: FrameLocator, filter: (click: () => Promise<void>) => Promise<void>) => Promise<void>;
}

function scripts(ids: { runId: string; batchId: string }): PageScript[] {
  const next = async (frame: FrameLocator, label: RegExp) => {
    await frame.getByRole("button", { name: "Next" }).first().click();
    await frame.getByText(label).first().waitFor();
  };
  return [
    {
      name: "Orders to ship",
      path: "/app",
      ready: (frame) => frame.getByTestId("order-name").first().waitFor(),
      interact: async (frame, filter) => {
        const selectable = frame.locator("tbody").getByRole("checkbox", { disabled: false });
        for (const index of [0, 1, 2]) await selectable.nth(index).check({ force: true });
        for (const index of [0, 1, 2]) await selectable.nth(index).uncheck({ force: true });
        // The table leaves its selection mode (its bulk actions go) before the header is clicked: a click during that
        // change can land on the checkbox being replaced (seen on PostgreSQL, whose answers time the page differently).
        const checkedRows = frame.locator("tbody").getByRole("checkbox", { checked: true });
        await until(async () => (await checkedRows.count()) === 0, "the rows unchecked");
        await settle(frame);
        const header = frame.getByRole("checkbox", { name: "Select all orders" }).first();
        await header.click({ force: true });
        await until(async () => (await checkedRows.count()) > 0, "the page's rows selected");
        await frame.getByRole("button", { name: /^Select all \d+ matching orders$/ }).click();
        await frame
          .getByText(/matching orders that can ship are selected/)
          .first()
          .waitFor({ timeout: 60_000 });
        await header.click({ force: true });
        await next(frame, /Page 2 of/);
        await filter(async () => {
          await frame.getByLabel("Destination").selectOption("international");
          await frame.locator('[data-list-filter="international"]').waitFor({ state: "attached" });
        });
      },
    },
    {
      name: "Rates",
      path: `/app/quotes/${ids.runId}`,
      ready: (frame) => frame.getByTestId("quote-order").first().waitFor(),
      interact: async (frame, filter) => {
        await frame
          .getByRole("button", { name: /^All \d+ rates? of / })
          .first()
          .click();
        await frame.getByTestId("rate-option").first().waitFor();
        await next(frame, /Page 2 of/);
        await filter(async () => {
          await frame.getByRole("button", { name: /^International \(\d+\)$/ }).click();
          await frame.locator('[data-rates-filter="international"]').waitFor({ state: "attached" });
        });
      },
    },
    {
      name: "Batch",
      path: `/app/batches/${ids.batchId}`,
      ready: (frame) => frame.getByTestId("batch-line").first().waitFor(),
      interact: async (frame) => {
        await next(frame, /Page 2 of/);
      },
    },
    {
      name: "Shipments",
      path: "/app/shipments",
      ready: (frame) => frame.getByTestId("tracked-shipment").first().waitFor(),
      interact: async (frame, filter) => {
        await filter(async () => {
          await frame.getByRole("tab", { name: /^Delivered/ }).click();
          await frame.locator('[data-tracking-filter="delivered"]').waitFor({ state: "attached" });
        });
        await next(frame, /Page 2 of/);
      },
    },
    {
      name: "Overview",
      path: "/app/overview",
      ready: (frame) => frame.getByText("Labels bought").first().waitFor(),
      interact: async (frame, filter) => {
        await filter(async () => {
          await frame.getByLabel("Period").selectOption("90");
          await frame.locator('[data-overview-period="90"]').waitFor({ state: "attached" });
        });
      },
    },
  ];
}

async function measure(page: Page, appOrigin: string, adminUrl: string, script: PageScript): Promise<Sample> {
  let dataKb = 0;
  let documentKb = 0;
  let counting = false;
  let filterFetches: number | null = null;
  const onResponse = async (response: import("playwright-core").Response) => {
    const url = response.url();
    if (!url.startsWith(appOrigin)) return;
    const isData = url.includes("_data=");
    if (counting && isData) filterFetches = (filterFetches ?? 0) + 1;
    if (response.request().resourceType() !== "document" && !isData) return;
    const size = (await response.body().catch(() => Buffer.alloc(0))).length / 1024;
    if (isData) dataKb = Math.max(dataKb, size);
    else if (new URL(url).pathname === new URL(adminUrl).pathname.replace(/^\/admin\/apps\/consign/, "") || documentKb === 0) documentKb = size;
  };
  page.on("response", onResponse);
  try {
    await page.goto(adminUrl);
    const frame = page.frameLocator("#app-iframe");
    await script.ready(frame);
    await settle(frame);
    const appFrame = page.frames().find((candidate) => candidate.url().startsWith(appOrigin))!;
    const domNodes = await appFrame.evaluate(() => document.getElementsByTagName("*").length);
    const cdp = process.env.BENCH_FRAME_PROFILE ? await page.context().newCDPSession(appFrame) : null;
    if (cdp) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    await script.interact(frame, async (click) => {
      counting = true;
      filterFetches = 0;
      await click();
      await settle(frame);
      counting = false;
    });
    await settle(frame);
    if (cdp) {
      const { profile } = await cdp.send("Profiler.stop");
      (await import("node:fs")).writeFileSync(process.env.BENCH_FRAME_PROFILE!, JSON.stringify(profile));
      await cdp.detach();
    }
    const vitals = await appFrame.evaluate(() => (window as unknown as { __vitals: Vitals }).__vitals);
    return { ...vitals, filterFetches, documentKb, dataKb, domNodes };
  } catch (error) {
    // What the page showed when a step could not be taken, to look at.
    const shot = join(tmpdir(), `bench-ui-${script.name.replace(/\W+/g, "-").toLowerCase()}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    console.error(`  ${script.name}: a step failed; the page as it was is in ${shot}`);
    throw error;
  } finally {
    page.off("response", onResponse);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const database = await openBenchDatabase();
  console.log(
    `bench:ui: about ${ORDERS} open orders (${SEEDED} seeded), a rates run over them, a batch of ${BATCH}, ${TRACKED} tracked shipments; ${LOADS} loads per page; the app on ${database.label} (BENCH_DATABASE=sqlite|postgres)`,
  );
  // The app on another site than the admin, as Shopify frames it: Chromium runs a cross-site frame in its own
  // process, and only there does it mark a shift right after the merchant's click as expected (hadRecentInput) and
  // leave it out of CLS; in a same-site frame every shift an interaction causes would count.
  const stack = await startStack({
    appHost: "localhost",
    appEnv: { DATABASE_URL: database.url },
    seed: (store) => void seedStore(store, { shopDomain: STACK_SHOP, orders: SEEDED }),
  });
  const browser = await openBrowser();
  const db = createPrismaClient(stack.app.databaseUrl);
  try {
    const credentials = await connectStackAccount(stack);
    const client = createShippingClient({ baseUrl: stack.service.url, credentials: { kind: "customer", ...credentials } });
    console.log(`  local admin seeded with ${SEEDED} orders: ${((Date.now() - started) / 1000).toFixed(1)} s`);

    await browser.context.addInitScript({ content: COLLECT });
    const page = await browser.context.newPage();
    // Generous: the machine is shared, and a slow step should be printed in the figures rather than end the bench.
    page.setDefaultNavigationTimeout(120_000);
    page.setDefaultTimeout(60_000);
    // Installation: the app's first sync reads the shop's open orders into its mirror (its own job).
    const syncStarted = Date.now();
    await page.goto(stack.adminAppUrl("/app"), { waitUntil: "domcontentloaded" });
    const home = page.frameLocator("#app-iframe");
    await home.getByTestId("shop-name").waitFor({ timeout: 60_000 });
    await home.getByTestId("order-name").first().waitFor({ timeout: 600_000 });
    // The first orders show while the sync still writes the rest: wait for it to finish.
    for (;;) {
      const sync = await db.mirrorSync.findFirst({ where: { shop: STACK_SHOP }, orderBy: { startedAt: "desc" }, select: { status: true, error: true } });
      if (sync?.status === "COMPLETED") break;
      if (sync?.status === "FAILED") throw new Error(`the app's first sync failed: ${sync.error}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const orderIds = (
      await db.mirrorOrder.findMany({ where: { shop: STACK_SHOP, cancelledAt: null }, orderBy: { orderCreatedAt: "desc" }, select: { id: true } })
    ).map((row) => row.id);
    console.log(`  first sync (the app's own job): ${orderIds.length} orders mirrored in ${((Date.now() - syncStarted) / 1000).toFixed(1)} s`);

    const now = new Date();
    let step = Date.now();
    const run = await seedRatesRun({ db, shop: STACK_SHOP, client, orderIds, now });
    console.log(`  rates run: ${run.orders} orders, ${run.shipments} shipments, ${run.blockedOrders} blocked, in ${((Date.now() - step) / 1000).toFixed(1)} s`);
    step = Date.now();
    const batch = await seedOpenBatch({ db, shop: STACK_SHOP, client, runId: run.runId, size: BATCH, name: "Bench batch" });
    console.log(`  batch: ${batch.lines} orders, created on the service, in ${((Date.now() - step) / 1000).toFixed(1)} s`);
    step = Date.now();
    await seedTrackedShipments({ db, shop: STACK_SHOP, client, count: TRACKED, now });
    console.log(`  tracked shipments: ${TRACKED} in ${((Date.now() - step) / 1000).toFixed(1)} s`);

    const results: Array<{ script: PageScript; samples: Sample[] }> = [];
    for (const script of scripts({ runId: run.runId, batchId: batch.batchId }).filter((page) => !PAGES || PAGES.includes(page.name))) {
      const samples: Sample[] = [];
      // One load first to warm the server's and the browser's caches, as a merchant's second visit.
      await measure(page, stack.app.url, stack.adminAppUrl(script.path), script);
      for (let load = 0; load < LOADS; load++) samples.push(await measure(page, stack.app.url, stack.adminAppUrl(script.path), script));
      results.push({ script, samples });
      console.log(`  measured ${script.name}`);
    }

    console.log("");
    console.log(`Load: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end (other engineers' work shares the machine)`);
    console.log(
      `Targets: LCP ≤ ${TARGETS.lcp} ms, CLS ≤ ${TARGETS.cls}, INP ≤ ${TARGETS.inp} ms (p75 of ${LOADS} loads; Built for Shopify asks 2500 ms, 0.1, 200 ms)`,
    );
    console.log("");
    const header = ["page", "LCP p75", "CLS p75", "INP p75", "fetches per filter", "document KB", "largest data KB", "DOM nodes", "verdict"];
    const rows = results.map(({ script, samples }) => {
      const lcp = p75(samples.map((sample) => sample.lcp ?? Number.POSITIVE_INFINITY));
      const cls = p75(samples.map((sample) => sample.cls));
      const inp = p75(samples.map((sample) => sample.inp ?? 0));
      const fetches = samples.map((sample) => sample.filterFetches).filter((value): value is number => value !== null);
      const met = lcp <= TARGETS.lcp && cls <= TARGETS.cls && inp <= TARGETS.inp && fetches.every((value) => value <= 1);
      return [
        script.name,
        ms(lcp),
        cls.toFixed(3),
        ms(inp),
        fetches.length === 0 ? "—" : `${Math.max(...fetches)}`,
        Math.max(...samples.map((sample) => sample.documentKb)).toFixed(0),
        Math.max(...samples.map((sample) => sample.dataKb)).toFixed(0),
        String(Math.max(...samples.map((sample) => sample.domNodes))),
        met ? "met" : "MISSED",
      ];
    });
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  "));
    console.log("\nWhere the worst load's shift and slowest interaction were (web-vitals attribution):");
    for (const { script, samples } of results) {
      const worstShift = [...samples].sort((a, b) => b.cls - a.cls)[0]!;
      const slowest = [...samples].sort((a, b) => (b.inp ?? 0) - (a.inp ?? 0))[0]!;
      console.log(
        `  ${script.name}: CLS ${worstShift.cls.toFixed(3)} at ${worstShift.shiftTarget ?? "—"} ${worstShift.shiftMove ?? ""}; INP ${ms(slowest.inp ?? 0)} at ${slowest.inpTarget ?? "—"}`,
      );
    }
    console.log(`\nbench:ui took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await db.$disconnect();
    await browser.close();
    await stack.stop();
    await database.drop();
  }
}

await main();
