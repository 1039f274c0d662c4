import { join } from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import type { PrismaClient } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import { formatDateTime } from "../../app/locale/shop-time";
import type { ShippingClient } from "../../shipping-api/client.js";
import { seedOpenBatch, seedRatesRun, seedTrackedShipments } from "../factories/big-shop.js";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments.js";
import { connectShop, openConsignOnce } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// Every page with data, at the two widths a merchant's admin most often has: no table wider than its card, carriers
// and countries by name, and every date in one format in the shop's time zone (the local admin's shop is in New York).
const e2e = useStackInBrowser();
let db: PrismaClient;
let account: ShippingClient;
let pages: Array<{ name: string; path: string }>;
let bookedBatch: { id: string; bookedAt: Date };
let carrierCodes: string[];

const SHOP_ZONE = "America/New_York";

/** The shop's data, made once by the first test that needs it (openConsignOnce polls, which only a test may). */
let ready: Promise<void> | undefined;
const prepared = () => (ready ??= prepare());

async function prepare(): Promise<void> {
  ({ account, db } = await connectShop(e2e));
  await withPage(e2e.browser.context, (page) => openConsignOnce(e2e, page));
  const shop = e2e.stack.shop;
  const now = new Date();
  // Labels booked and grouped as a booked batch (its lines show tracking and cost), a tracked history for
  // Shipments and the Overview, a rates run over the open orders and an open batch of its picks.
  const booked = await createBookedShipments({ db, shop, client: account, fulfillmentOrders: shippableFulfillmentOrders(e2e.stack.admin.store, 4) });
  const batch = await db.batch.create({ data: { shop, name: "Booked labels", status: "COMPLETED", bookedAt: now } });
  await db.shipment.updateMany({ where: { id: { in: booked.map((row) => row.id) } }, data: { batchId: batch.id } });
  bookedBatch = { id: batch.id, bookedAt: now };
  await seedTrackedShipments({ db, shop, client: account, count: 60, now });
  const labelled = new Set(booked.map((row) => row.orderId));
  const orderIds = (await db.mirrorOrder.findMany({ where: { shop, cancelledAt: null }, select: { id: true }, take: 30 }))
    .map((row) => row.id)
    .filter((id) => !labelled.has(id));
  const run = await seedRatesRun({ db, shop, client: account, orderIds, now });
  const open = await seedOpenBatch({ db, shop, client: account, runId: run.runId, size: 8, name: "Open batch" });
  const services = await account.listServices();
  if (!services.ok) throw new Error("List Services failed");
  carrierCodes = [...new Set(services.value.services.map((service) => service.carrierCode))];
  pages = [
    { name: "orders-to-ship", path: "/app" },
    { name: "rates", path: `/app/quotes/${run.runId}` },
    { name: "batch-booked", path: `/app/batches/${batch.id}` },
    { name: "batch-open", path: `/app/batches/${open.batchId}` },
    { name: "new-batch", path: "/app/batches/new" },
    { name: "shipments", path: "/app/shipments" },
    { name: "returns", path: "/app/returns" },
    { name: "overview", path: "/app/overview" },
    { name: "fulfillments", path: "/app/fulfillments" },
    { name: "shipping-rules", path: "/app/rules" },
    { name: "product-presets", path: "/app/presets" },
  ];
}
afterAll(() => db?.$disconnect());

describe("Orders to ship's filters apply as they are chosen", () => {
  it(
    "GIVEN the list WHEN the merchant types a search and picks a destination THEN each applies without a Search button, the URL says it, the list is read once per change, and nothing moves",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await prepared();
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(e2e.stack.adminAppUrl("/app"));
        const frame = page.frameLocator("#app-iframe");
        await settle(page, frame);
        const reads: string[] = [];
        page.on("request", (request) => {
          const url = new URL(request.url());
          if (url.pathname === "/app" && url.searchParams.get("_data") === "routes/app._index") reads.push(url.search);
        });
        const appParam = (name: string) =>
          new URL(
            page
              .frames()
              .find((candidate) => candidate.url().startsWith(e2e.stack.app.url))
              ?.url() ?? "about:blank",
          ).searchParams.get(name);
        const table = frame.locator("table").first();
        const before = await table.boundingBox();
        expect(await frame.getByRole("button", { name: "Search" }).count()).toBe(0);

        const search = frame.getByPlaceholder("Order, email or address");
        await search.pressSequentially("#10", { delay: 40 });
        await expect.poll(() => appParam("q")).toBe("#10");
        await settle(page, frame);
        expect(reads, "one read of the list for the typed search").toHaveLength(1);
        expect((await table.boundingBox())?.y, "the list stays where it was").toBe(before?.y);

        await frame.getByLabel("Destination").selectOption("domestic");
        await expect.poll(() => appParam("scope")).toBe("domestic");
        await settle(page, frame);
        expect(appParam("q"), "the search is kept").toBe("#10");
        expect(reads, "one more read for the destination").toHaveLength(2);
        expect(await search.inputValue()).toBe("#10");
      }),
    240_000,
  );
});

/** Tables (and charts) wider than the card that holds them, with what sticks out, in the app's frame. */
function overflowingTables(frame: FrameLocator): Promise<string[]> {
  return frame.locator("body").evaluate((body) => {
    const found: string[] = [];
    for (const table of body.querySelectorAll("table")) {
      const card = table.closest(".Polaris-ShadowBevel, .Polaris-LegacyCard, .Polaris-Card") ?? body;
      const cardBox = card.getBoundingClientRect();
      const tableBox = table.getBoundingClientRect();
      // A table scrolled inside its card is cut off too: its scroll container is narrower than the table.
      let scroller: HTMLElement | null = table.parentElement;
      let hidden = 0;
      let where = "";
      let widest: HTMLElement | null = null;
      while (scroller && scroller !== card) {
        const over = scroller.scrollWidth - scroller.clientWidth;
        if (over > hidden) {
          where = `${scroller.tagName}.${scroller.className}`;
          widest = scroller;
        }
        hidden = Math.max(hidden, over);
        scroller = scroller.parentElement;
      }
      // What sticks out of that container farthest, to name in the report.
      let farthest = "";
      if (widest) {
        const edge = widest.getBoundingClientRect().right;
        let most = 1;
        for (const element of widest.querySelectorAll<HTMLElement>("*")) {
          const over = element.getBoundingClientRect().right - edge;
          if (over > most) {
            most = over;
            farthest = `; farthest out: ${element.tagName}.${element.className} by ${Math.round(over)} px`;
          }
        }
      }
      if (tableBox.right > cardBox.right + 1 || hidden > 1) {
        const headings = [...table.querySelectorAll("th")].map((th) => th.textContent?.trim()).filter(Boolean);
        found.push(
          `${headings.join(" | ") || "a table"}: ${Math.round(tableBox.width)} px in a card of ${Math.round(cardBox.width)} px (${hidden} px scrolled out of sight in ${where}${farthest})`,
        );
      }
    }
    for (const svg of body.querySelectorAll('[data-testid$="-chart"] svg')) {
      const box = svg.getBoundingClientRect();
      const holder = svg.closest('[data-testid$="-chart"]')!.getBoundingClientRect();
      if (box.right > holder.right + 1 || box.left < holder.left - 1) found.push(`a chart: ${Math.round(box.width)} px in ${Math.round(holder.width)} px`);
    }
    return found;
  });
}

async function settle(page: Page, frame: FrameLocator): Promise<void> {
  await frame.locator("main, .Polaris-Page").first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await frame
    .locator("body")
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 300)))));
}

/** The problems of fit on the pages `included` names at `width` px, each page's screenshot saved. */
async function fitProblems(page: Page, width: number, included: (name: string) => boolean): Promise<string[]> {
  await prepared();
  await page.setViewportSize({ width, height: 900 });
  const problems: string[] = [];
  for (const { name, path } of pages.filter((entry) => included(entry.name))) {
    await page.goto(e2e.stack.adminAppUrl(path));
    const frame = page.frameLocator("#app-iframe");
    await settle(page, frame);
    if (name === "rates") {
      // The expanded rate list (Zone, Billed weight) is the widest table of the app.
      // One shipment's rates open (the page keeps what was open, so open one only when none is).
      if ((await frame.getByRole("button", { name: "Hide rates" }).count()) === 0)
        await frame
          .getByRole("button", { name: /^All \d+ rates/ })
          .first()
          .click();
      await frame.getByRole("button", { name: "Hide rates" }).first().waitFor();
      await settle(page, frame);
    }
    await page.screenshot({ path: join(RESULTS_DIR, `fit-${name}-${width}.png`), fullPage: true });
    for (const problem of await overflowingTables(frame)) problems.push(`${name}: ${problem}`);
  }
  return problems;
}

describe("the rates page keeps an order's room while its rates load", () => {
  for (const width of [1280, 1440]) {
    it(
      `GIVEN the rates page at ${width} px WHEN each order's rates are unfolded and arrive a while later THEN nothing below the order moves when they arrive`,
      () =>
        withPage(e2e.browser.context, async (page) => {
          await prepared();
          await page.setViewportSize({ width, height: 900 });
          // Every read of one shipment's rates waits until the test lets it go: the page shows what it kept meanwhile.
          const held: Array<() => void> = [];
          await page.route(
            (url) => url.pathname.endsWith("/rates") && url.searchParams.has("shipment"),
            async (route) => {
              await new Promise<void>((resolve) => held.push(resolve));
              await route.continue();
            },
          );
          await page.goto(e2e.stack.adminAppUrl(pages.find((entry) => entry.name === "rates")!.path));
          const frame = page.frameLocator("#app-iframe");
          await settle(page, frame);
          const orders = frame.getByTestId("quote-order");
          const moves: string[] = [];
          let unfolded = 0;
          for (let index = 0; index < (await orders.count()) && unfolded < 8; index++) {
            const order = orders.nth(index);
            const toggle = order.getByRole("button", { name: /^All \d+ rates? of / });
            if ((await toggle.count()) === 0) continue;
            unfolded += 1;
            await toggle.click();
            await order.getByTestId("rates-loading").first().waitFor();
            const kept = await order.boundingBox();
            for (const letGo of held.splice(0)) letGo();
            await order.getByTestId("rate-option").first().waitFor();
            await settle(page, frame);
            const shown = await order.boundingBox();
            const rows = await order.getByTestId("rate-option").count();
            const grown = Math.round((shown?.height ?? 0) - (kept?.height ?? 0));
            // Never taller than the room kept (the orders below would jump); at most half a line a rate shorter.
            if (grown > 0 || grown < -10 * rows)
              moves.push(
                `${await order.getByTestId("quote-order-name").textContent()}: ${rows} rates, ${grown > 0 ? "grew" : "shrank"} ${Math.abs(grown)} px when they arrived`,
              );
          }
          expect(unfolded, "orders with rates on the page").toBeGreaterThan(3);
          expect(moves).toEqual([]);
        }),
      240_000,
    );
  }
});

describe("pages that fit, with names and one date format", () => {
  for (const width of [1280, 1440]) {
    it(
      `GIVEN every page with data, the rates page with a shipment's rates expanded, at ${width} px WHEN it is shown THEN no table or chart is wider than its card`,
      () => withPage(e2e.browser.context, async (page) => expect(await fitProblems(page, width, () => true)).toEqual([])),
      420_000,
    );
  }

  it(
    "GIVEN the pages WHEN a merchant reads them THEN no carrier code stands for a carrier, countries are named, and every date reads “Nov 27, 2026[, 9:10 AM]” in the shop's time zone",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await prepared();
        const codes = new Set(carrierCodes);
        for (const { name, path } of pages) {
          await page.goto(e2e.stack.adminAppUrl(path));
          const frame = page.frameLocator("#app-iframe");
          await settle(page, frame);
          const texts = await frame.locator("body").evaluate((body) => {
            const cells: string[] = [];
            for (const node of body.querySelectorAll("td, th, span, p, option, text"))
              if (node.children.length === 0) cells.push(node.textContent?.trim() ?? "");
            return {
              cells,
              all: (body as HTMLElement).innerText,
              times: [...body.querySelectorAll("time[data-shop-time]")].map((time) => time.textContent ?? ""),
            };
          });
          expect(
            texts.cells.filter((cell) => codes.has(cell) || /^[A-Z]{2,4} · /.test(cell)),
            `${name}: carrier codes shown`,
          ).toEqual([]);
          expect(texts.all, `${name}: a date in another format`).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b| UTC\b/);
          for (const time of texts.times) expect(time, `${name}: a date`).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}(, \d{1,2}:\d{2} [AP]M)?$/);
          if (name === "orders-to-ship") {
            const options = await frame.getByLabel("Country").locator("option").allTextContents();
            expect(
              options.filter((option) => /^[A-Z]{2}$/.test(option)),
              "countries by code in the Country filter",
            ).toEqual([]);
            expect(await frame.getByText("unfulfilled", { exact: true }).count()).toBe(0);
            // Each order says who it goes to, the shipping paid for and what its items weigh.
            expect(await frame.getByTestId("order-customer").count()).toBeGreaterThan(0);
            expect(await frame.getByTestId("order-paid-shipping").count()).toBeGreaterThan(0);
            expect(await frame.getByTestId("order-weight").count()).toBeGreaterThan(0);
          }
          if (name === "batch-booked") {
            // The batch was booked now: the page says when in New York's time, not the server's.
            await frame.getByText(`Booked ${formatDateTime(bookedBatch.bookedAt, SHOP_ZONE)}`).waitFor();
          }
          if (name === "overview") {
            const countries = await frame
              .locator("table")
              .filter({ hasText: "Country" })
              .locator("tbody tr td:first-child, tbody tr th:first-child")
              .allTextContents();
            expect(countries.length).toBeGreaterThan(0);
            expect(countries.filter((country) => /^[A-Z]{2}$/.test(country.trim()))).toEqual([]);
          }
        }
      }),
    240_000,
  );
});
