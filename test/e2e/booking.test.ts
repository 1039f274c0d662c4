import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ShippingClient } from "../../shipping-api/client.js";
import { formatMoney, sumAmounts } from "../../app/shipping/money.js";
import { pageTexts } from "../../service/labels/test-pdf.js";
import { connectShop, quoteOrdersFromTheAdmin } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";
import { ratesWhere } from "../support/stored-rates.js";

const e2e = useStackInBrowser();
let db: PrismaClient;
let account: ShippingClient;

beforeAll(async () => ({ account, db } = await connectShop(e2e)));
afterAll(() => db?.$disconnect());

const SELECTED = 40;
const BATCH_SIZE = 20;

/** Orders quoted through the app as a merchant does it: select in the admin, “Create shipping labels”, wait for the rates. */
async function quoteOrdersThroughTheApp(page: Page): Promise<void> {
  await quoteOrdersFromTheAdmin(e2e, page, SELECTED);
}

/** Unbatched quoted shipments going abroad (sender is in the US). */
async function internationalShipments() {
  const rows = await db.shipment.findMany({ where: { shop: e2e.stack.shop, quoteStatus: "QUOTED", batchId: null, bookingStatus: "NONE" } });
  return rows.filter((row) => (JSON.parse(row.request) as { receiver: { country: string } }).receiver.country !== "US");
}

/** The downloaded PDF's pages, each as the texts it prints. */
async function downloadedPdfPages(page: Page, click: () => Promise<void>): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), click()]);
  return pageTexts(readFileSync(await download.path()));
}

const isInvoicePage = (texts: readonly string[]) => texts[0]?.startsWith("COMMERCIAL INVOICE") ?? false;

function frameOf(page: Page): FrameLocator {
  return page.frameLocator("#app-iframe");
}

describe("batches and booking in the embedded app", () => {
  it(`GIVEN orders quoted through the app WHEN ${BATCH_SIZE} are put in a batch from the batches page and booked THEN every order is booked, the labels PDF has ${BATCH_SIZE} label pages (an international one followed by its commercial invoice) and the local admin shows ${BATCH_SIZE} fulfillments with their tracking numbers`, () =>
    withPage(e2e.browser.context, async (page) => {
      await quoteOrdersThroughTheApp(page);
      const reserved = new Set((await internationalShipments()).slice(0, 1).map((shipment) => shipment.orderName));
      expect(reserved.size, "the seed quotes at least one international order").toBe(1);

      await page.goto(e2e.stack.adminAppUrl("/app/batches/new"));
      const frame = frameOf(page);
      await frame.getByTestId("candidate-order").first().waitFor();
      const candidates = frame.getByRole("row").filter({ has: frame.getByTestId("candidate-order") });
      const total = await candidates.count();
      expect(total).toBeGreaterThan(BATCH_SIZE);
      const chosen: string[] = [];
      for (let index = 0; index < total && chosen.length < BATCH_SIZE; index++) {
        const row = candidates.nth(index);
        const name = ((await row.getByTestId("candidate-order").textContent()) ?? "").trim();
        if (reserved.has(name)) continue;
        // Polaris draws its own checkbox over the input.
        await row.getByRole("checkbox").click({ force: true });
        chosen.push(name);
      }
      await frame.getByLabel("Batch name").fill("Friday pickup");
      await frame.getByRole("button", { name: `Create batch (${BATCH_SIZE} orders)` }).click();

      await page.waitForURL(/\/admin\/apps\/consign\/app\/batches\/(?!new)\w+$/);
      const lines = frame.getByTestId("batch-line");
      await expect.poll(() => lines.count()).toBe(BATCH_SIZE);
      expect((await lines.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-order-name")))).sort()).toEqual([...chosen].sort());
      await page.screenshot({ path: join(RESULTS_DIR, "batch-open.png"), fullPage: true });

      // No money without a checkpoint: "Book" first says what the batch costs and what it does to the balance.
      const quotes = await ratesWhere(db, { batch: { shop: e2e.stack.shop, name: "Friday pickup" } });
      const batchTotal = sumAmounts(quotes.filter((quote) => quote.picked).map((quote) => quote.totalAmount));
      expect(await frame.getByTestId("batch-total").textContent()).toBe(formatMoney(batchTotal, "USD"));
      await frame.getByRole("button", { name: `Book ${BATCH_SIZE} labels` }).click();
      const checkpoint = frame.getByTestId("book-checkpoint");
      expect(await checkpoint.textContent()).toContain(`Book ${BATCH_SIZE} labels for ${formatMoney(batchTotal, "USD")}?`);
      expect(await db.shipment.count({ where: { shop: e2e.stack.shop, bookingStatus: { not: "NONE" } } }), "nothing booked before the confirmation").toBe(0);
      await frame.getByRole("button", { name: `Confirm: book ${BATCH_SIZE} labels` }).click();
      await expect.poll(() => frame.locator('[data-testid="batch-line"][data-booking-status="BOOKED"]').count(), { timeout: 60_000 }).toBe(BATCH_SIZE);
      await frame.getByTestId("batch-progress").waitFor({ state: "detached" });
      expect(await frame.getByTestId("prepay-balance").textContent()).toMatch(/^\$[\d,]+\.\d{2} after booking$/);
      const tracking = await frame.getByTestId("line-tracking").allTextContents();
      expect(new Set(tracking.filter((number) => number.length > 0)).size).toBe(BATCH_SIZE);
      await page.screenshot({ path: join(RESULTS_DIR, "batch-booked.png"), fullPage: true });

      // One document to print: each label, and after each international order's label its commercial invoice.
      const pdfPages = await downloadedPdfPages(page, () => frame.getByRole("button", { name: "Download labels" }).click());
      expect(pdfPages.filter((texts) => !isInvoicePage(texts))).toHaveLength(BATCH_SIZE);
      const inBatch = await db.shipment.findMany({ where: { shop: e2e.stack.shop, batch: { name: "Friday pickup" } } });
      const abroad = inBatch.filter((row) => (JSON.parse(row.request) as { receiver: { country: string } }).receiver.country !== "US");
      const invoices = pdfPages.flatMap((texts, index) => (texts[0] === "COMMERCIAL INVOICE" ? [{ texts, label: pdfPages[index - 1]! }] : []));
      expect(invoices.map(({ texts }) => texts.find((text) => text.startsWith("Tracking "))).sort()).toEqual(
        abroad.map((row) => `Tracking ${row.trackingNumber}`).sort(),
      );
      for (const { texts, label } of invoices) expect(label).toContain(texts.find((text) => text.startsWith("Tracking "))!.slice("Tracking ".length));

      // Printed with packing slips: per order in the batch's order, its label, its invoice when it has one, its slip.
      await frame.getByLabel("Documents").selectOption("labels-and-slips");
      const withSlips = await downloadedPdfPages(page, () => frame.getByRole("button", { name: "Download labels and slips" }).click());
      const inOrder = [...inBatch].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
      const kind = (texts: readonly string[]) => (isInvoicePage(texts) ? "invoice" : texts[0] === "PACKING SLIP" ? "slip" : "label");
      expect(withSlips.map(kind)).toEqual(inOrder.flatMap((row) => (abroad.includes(row) ? ["label", "invoice", "slip"] : ["label", "slip"])));
      const labelPages = withSlips.filter((texts) => kind(texts) === "label");
      const slipPages = withSlips.filter((texts) => kind(texts) === "slip");
      inOrder.forEach((row, index) => {
        expect(labelPages[index]).toContain(row.trackingNumber);
        expect(slipPages[index]).toContain(row.orderName);
      });

      // Booked once: the service has the batch completed with exactly these bookings.
      const batch = await db.batch.findFirstOrThrow({ where: { shop: e2e.stack.shop, name: "Friday pickup" } });
      const remote = await account.getBatch({ batchId: batch.remoteBatchId! });
      expect(remote.ok && remote.value).toMatchObject({ status: "completed", bookedCount: BATCH_SIZE, errorCount: 0 });

      // Written back to Shopify: each order's page in the local admin shows one fulfillment with its tracking
      // number, and the customer notified (Settings' default).
      const booked = await db.shipment.findMany({ where: { batchId: batch.id } });
      await expect.poll(() => db.shipment.count({ where: { batchId: batch.id, fulfillmentStatus: "FULFILLED" } }), { timeout: 60_000 }).toBe(BATCH_SIZE);
      for (const shipment of booked) {
        await page.goto(`${e2e.stack.admin.url}/admin/orders/${shipment.orderId.split("/").pop()}`);
        const fulfillments = page.getByTestId("fulfillment").filter({ has: page.locator(`[data-tracking-number="${shipment.trackingNumber}"]`) });
        expect(await fulfillments.count(), `${shipment.orderName} has one fulfillment with ${shipment.trackingNumber}`).toBe(1);
        expect(await fulfillments.getAttribute("data-notify-customer")).toBe("true");
      }
      await page.screenshot({ path: join(RESULTS_DIR, "admin-order-fulfilled.png"), fullPage: true });
    }));

  it("GIVEN orders booked and written back WHEN the merchant opens Orders to ship THEN the shipped ones are gone and the count is what a full sync finds; a search applies as typed and keeps the chosen filters", () =>
    withPage(e2e.browser.context, async (page) => {
      // Shipped, by the local admin's own data: every fulfillment order of the order is closed.
      const fulfilled = await db.shipment.findMany({
        where: { shop: e2e.stack.shop, fulfillmentStatus: "FULFILLED" },
        select: { orderId: true, orderName: true },
      });
      const shipped = fulfilled.filter(({ orderId }) =>
        e2e.stack.admin.store.listFulfillmentOrders(Number(orderId.split("/").pop())).every((fo) => fo.status === "CLOSED"),
      );
      expect(shipped.length, "orders the batch shipped completely").toBeGreaterThan(BATCH_SIZE / 2);
      // The mirror follows Shopify's webhooks for the fulfillments (coalesced by order, read after the write-back's
      // own writes): once they are worked through, the shipped orders are gone from the list.
      const frame = frameOf(page);
      const total = frame.getByTestId("orders-total");
      const stillListed = async () => {
        await page.goto(e2e.stack.adminAppUrl("/app"));
        await total.waitFor();
        const listed = new Set((await frame.getByTestId("order-name").allTextContents()).map((name) => name.trim()));
        return shipped.filter(({ orderName }) => listed.has(orderName)).map(({ orderName }) => orderName);
      };
      await expect.poll(stillListed, { timeout: 30_000, interval: 1_000 }).toEqual([]);
      const withoutSync = Number(await total.textContent());

      // What the webhooks kept is what a full sync from Shopify finds.
      await frame.getByRole("button", { name: "Sync orders" }).click();
      await frame.getByText("Reading your open orders from Shopify…").waitFor({ state: "detached", timeout: 60_000 });
      await expect.poll(async () => Number(await total.textContent()), { timeout: 30_000 }).toBe(withoutSync);

      // Destination chosen, then a search: both apply, and a shipped order is found by neither.
      const appFrame = () => page.frames().find((candidate) => candidate.url().startsWith(e2e.stack.app.url));
      const appParam = (name: string) => new URL(appFrame()?.url() ?? "about:blank").searchParams.get(name);
      await frame.getByLabel("Destination").selectOption("international");
      await expect.poll(() => appParam("scope")).toBe("international");
      const orderName = shipped[0]!.orderName;
      // The search applies once typing pauses: no Search button, the chosen destination kept.
      await frame.getByPlaceholder("Order, email or address").fill(orderName);
      await expect.poll(() => appParam("q")).toBe(orderName);
      expect(appParam("scope")).toBe("international");
      expect(await frame.getByLabel("Destination").inputValue()).toBe("international");
      expect(Number(await total.textContent())).toBe(0);
    }));

  it("GIVEN a quoted international order WHEN it is booked on its own page with its invoice edited THEN it is booked with that invoice, and its label downloads followed by that invoice", () =>
    withPage(e2e.browser.context, async (page) => {
      const [shipment] = await internationalShipments();
      if (!shipment) throw new Error("no international shipment left to book");
      const orderNumber = shipment.orderId.split("/").pop()!;
      await page.goto(e2e.stack.adminAppUrl(`/app/orders/${orderNumber}/book`));
      const frame = frameOf(page);
      await frame.getByText("Commercial invoice").waitFor();

      const services = frame.getByLabel("Service");
      const international = (await services.locator("option").allTextContents()).find((label) => /International|Worldwide/.test(label));
      if (international) await services.selectOption({ label: international });
      await frame.getByLabel("Terms of trade").selectOption("DDP");
      const item = frame.getByTestId("invoice-item").first();
      await item.getByLabel("Description").fill("Stoneware goods (e2e)");
      await item.getByLabel("Unit value").fill("31.00");
      // The price of the options chosen is shown, and is what booking charges.
      await frame.getByLabel("Insure for").fill("120.00");
      await frame.getByTestId("booking-price-breakdown").waitFor();
      const shownPrice = ((await frame.getByTestId("booking-price").textContent()) ?? "").replace("Booking charges ", "");
      expect(await frame.getByTestId("booking-price-breakdown").textContent()).toContain("Insurance");
      await page.screenshot({ path: join(RESULTS_DIR, "book-international.png"), fullPage: true });
      await frame.getByRole("button", { name: `Book shipment for ${shownPrice}` }).click();

      const tracking = frame.getByTestId("booked-tracking");
      await tracking.waitFor({ timeout: 30_000 });
      const booked = await db.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
      expect(booked).toMatchObject({ bookingStatus: "BOOKED", fulfillmentStatus: expect.stringMatching(/^(PENDING|CREATING|FULFILLED|FAILED)$/) });
      expect(await tracking.textContent()).toContain(booked.trackingNumber!);
      expect(formatMoney(booked.shippingCost!, booked.currency!)).toBe(shownPrice);
      const found = await account.searchShipments({ body: { keyword: booked.bookNumber! } });
      const record = found.ok ? found.value.shipments[0] : undefined;
      expect(record).toMatchObject({ shipperReference2: shipment.id, shipmentReference: shipment.orderName });
      expect(record?.receiver.country).not.toBe("US");
      // One item edited to 31.00 apiece: the declared value follows the invoice.
      const invoice = (JSON.parse(shipment.request) as { commercialInvoice: { items: Array<{ quantity: number; unitValue: string }> } }).commercialInvoice
        .items;
      const expected = invoice.reduce((sum, entry, index) => sum + entry.quantity * Number(index === 0 ? "31.00" : entry.unitValue), 0);
      expect(Number(record?.pieces[0]?.declaredValue)).toBeCloseTo(expected, 2);

      // The label, then the commercial invoice as booked.
      const [labelPage, invoicePage, ...more] = await downloadedPdfPages(page, () => frame.getByRole("button", { name: "Download label" }).click());
      expect(more).toEqual([]);
      expect(labelPage).toContain(booked.trackingNumber!);
      expect(labelPage!.filter((text) => text.startsWith("REF"))).toEqual([`REF ${shipment.orderName}`]);
      expect(invoicePage).toEqual(expect.arrayContaining(["COMMERCIAL INVOICE", `Tracking ${booked.trackingNumber}`, "Stoneware goods (e2e)", "31.00"]));
    }));

  it("GIVEN booked shipments WHEN the merchant searches Shipments by order name THEN the booking is listed with its tracking and a link to the order", () =>
    withPage(e2e.browser.context, async (page) => {
      const booked = await db.shipment.findFirstOrThrow({ where: { shop: e2e.stack.shop, bookingStatus: "BOOKED", batchId: { not: null } } });
      await page.goto(e2e.stack.adminAppUrl(`/app/shipments?q=${encodeURIComponent(booked.trackingNumber!)}`));
      const frame = frameOf(page);
      const result = frame.getByTestId("search-result");
      await result.first().waitFor();
      expect(await result.count()).toBe(1);
      expect(await frame.getByRole("row").filter({ has: result }).textContent()).toContain(booked.trackingNumber!);
      await result.getByRole("link", { name: booked.orderName }).click();
      await page.waitForURL(new RegExp(`/app/orders/${booked.orderId.split("/").pop()}/book$`));
      await frame.getByTestId("shipment-tracking").filter({ hasText: booked.trackingNumber! }).waitFor();
    }));
});
