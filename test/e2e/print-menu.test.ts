import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismaClient, Shipment } from "@prisma/client";
import { createPrismaClient } from "../../app/db/db-client.server";
import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageTexts } from "../../lib/pdf/read-back";
import { parseGid } from "../../devstore/gid.js";
import { createShippingClient } from "../../shipping-api/client.js";
import { createBookedShipments, shippableFulfillmentOrders, type FulfillmentOrderToShip } from "../factories/booked-shipments.js";
import { connectStackAccount } from "../support/account.js";
import { openConsignOnce } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// Shopify's Print menu in the local admin: the order page's and the order list selection's print actions
// (extensions/order-print-action, extensions/orders-print-action) run in the admin's print dialog, and the
// document each names is fetched from the running app and shown; the PDFs are read back as the admin got them.
const e2e = useStackInBrowser();
let db: PrismaClient;
let booked: Shipment[];
let unbooked: FulfillmentOrderToShip;

beforeAll(async () => {
  const customer = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
  // The newest orders, so the order list's first page shows them; the second ships to London with its invoice.
  const [first, second, third, fourth] = shippableFulfillmentOrders(e2e.stack.admin.store).slice(-4);
  booked = await createBookedShipments({
    db,
    shop: e2e.stack.shop,
    client: createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...customer } }),
    fulfillmentOrders: [first!, second!, third!],
    international: [1],
  });
  unbooked = fourth!;
});
afterAll(() => db?.$disconnect());

async function openPrintAction(page: Page): Promise<FrameLocator> {
  await page.getByRole("button", { name: "Print", exact: true }).click();
  await page.getByRole("menuitem", { name: "Consign shipping documents" }).click();
  await page.getByRole("dialog").waitFor();
  return page.frameLocator("[data-print-extension]");
}

/**
 * Chooses `document` in the print action (unless it is the first, chosen already) and returns the PDF the admin
 * fetched for the preview, page by page, once the preview shows it.
 */
async function chooseDocument(page: Page, action: FrameLocator, name: string, path: string, choose: boolean): Promise<string[][]> {
  const fetched = page.waitForResponse((response) => response.url().includes(`/api/print/${path}?`) && response.request().method() === "GET");
  if (choose) await action.locator("s-choice", { hasText: name }).click();
  const response = await fetched;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  await page.locator("[data-print-preview]:not([hidden])").waitFor();
  await expect.poll(() => page.getByRole("button", { name: "Print", exact: true }).last().isEnabled()).toBe(true);
  // The document as the admin shows it: the bytes behind the preview.
  const shown = await page.locator("[data-print-preview]").evaluate(async (preview: HTMLIFrameElement) => {
    const bytes = new Uint8Array(await (await fetch(preview.src.replace(/#.*$/, ""))).arrayBuffer());
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  const pdf = Buffer.from(shown, "base64");
  await writeFile(join(RESULTS_DIR, `print-${path}-${choose ? "chosen" : "first"}.pdf`), pdf);
  return pageTexts(new Uint8Array(pdf));
}

const kind = (page: readonly string[]) =>
  page[0]?.startsWith("COMMERCIAL INVOICE") ? "invoice" : page[0] === "PACKING SLIP" ? "slip" : page[0] === "PICK LIST" ? "pick list" : "label";

describe("the Print menu in the local admin", () => {
  it("GIVEN an order Consign booked to London WHEN Print → Consign shipping documents THEN its label, its packing slip and its commercial invoice each open as the document to print", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await openConsignOnce(e2e, page);
      const order = booked[1]!;
      await page.goto(`${e2e.stack.admin.url}/admin/orders/${parseGid(order.orderId)!.id}`);
      await page.getByRole("button", { name: "Print", exact: true }).click();
      await page.getByRole("menuitem", { name: "Consign shipping documents" }).waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "print-menu-order.png") });
      await page.getByRole("button", { name: "Print", exact: true }).click();

      const action = await openPrintAction(page);
      const labels = await chooseDocument(page, action, "Shipping labels", "labels", false);
      expect(labels.map(kind)).toEqual(["label", "invoice"]);
      expect(labels[0]).toContain(order.trackingNumber);
      await page.waitForTimeout(2_000); // the PDF viewer draws the page
      await page.screenshot({ path: join(RESULTS_DIR, "print-dialog-order-labels.png") });
      expect(await action.locator("s-choice").allTextContents()).toEqual(["Shipping labels", "Packing slips", "Commercial invoices"]);

      const slips = await chooseDocument(page, action, "Packing slips", "slips", true);
      expect(slips.map(kind)).toEqual(["slip"]);
      expect(slips[0]).toContain(order.orderName);

      const invoices = await chooseDocument(page, action, "Commercial invoices", "invoices", true);
      expect(invoices.map(kind)).toEqual(["invoice"]);
      expect(invoices.flat().join(" ")).toContain("Harriet Cole");
      await page.screenshot({ path: join(RESULTS_DIR, "print-dialog-order-invoice.png") });
    }));

  it("GIVEN an order without a label WHEN Print → Consign shipping documents THEN it says what is missing and nothing prints", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${e2e.stack.admin.url}/admin/orders/${parseGid(unbooked.orderId)!.id}`);
      const action = await openPrintAction(page);
      await action.getByText("Nothing to print from Consign yet").waitFor();
      await action.getByText(`${unbooked.orderName}: Consign has no shipping label for it yet.`, { exact: false }).waitFor();
      expect(await page.getByRole("button", { name: "Print", exact: true }).last().isDisabled()).toBe(true);
      await page.screenshot({ path: join(RESULTS_DIR, "print-dialog-unbooked.png") });
    }));

  it("GIVEN three booked orders and one not booked selected in the order list WHEN Print → Consign shipping documents THEN labels, slips, invoices and the pick list each open for the booked three, and the fourth is named with what is missing", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${e2e.stack.admin.url}/admin`);
      expect(await page.getByRole("button", { name: "Print", exact: true }).isDisabled()).toBe(true);
      for (const name of [...booked.map((shipment) => shipment.orderName), unbooked.orderName])
        await page.getByLabel(`Select ${name}`, { exact: true }).check();
      await page.getByRole("button", { name: "Print", exact: true }).click();
      await page.screenshot({ path: join(RESULTS_DIR, "print-menu-selection.png") });
      await page.getByRole("button", { name: "Print", exact: true }).click();

      const action = await openPrintAction(page);
      const labels = await chooseDocument(page, action, "Shipping labels", "labels", false);
      expect(labels.map(kind)).toEqual(["label", "label", "invoice", "label"]);
      // In the selection's order, as the list shows it: newest first.
      const listed = [...booked].reverse();
      const labelPages = labels.filter((pdfPage) => kind(pdfPage) === "label");
      listed.forEach((shipment, index) => expect(labelPages[index]).toContain(shipment.trackingNumber));
      await action.getByText(`${unbooked.orderName}: Consign has no shipping label for it yet.`, { exact: false }).waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "print-dialog-selection-labels.png") });

      const slips = await chooseDocument(page, action, "Packing slips", "slips", true);
      expect(slips.map((pdfPage) => pdfPage.find((text) => text.startsWith("#")))).toEqual(listed.map((shipment) => shipment.orderName));

      const invoices = await chooseDocument(page, action, "Commercial invoices", "invoices", true);
      expect(invoices.map(kind)).toEqual(["invoice"]);
      expect(invoices.flat()).toEqual(expect.arrayContaining([expect.stringContaining(booked[1]!.trackingNumber!)]));

      const pick = await chooseDocument(page, action, "Pick list", "pick-list", true);
      expect(pick[0]![0]).toBe("PICK LIST");
      for (const shipment of booked) expect(pick.flat().join(" ")).toContain(shipment.orderName);
      await page.waitForTimeout(2_000); // the PDF viewer draws the page
      await page.screenshot({ path: join(RESULTS_DIR, "print-dialog-selection-pick-list.png") });
    }));
});
