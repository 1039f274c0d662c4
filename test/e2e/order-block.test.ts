import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismaClient, Shipment } from "@prisma/client";
import { createPrismaClient } from "../../app/db/db-client.server";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "../../app/shipping/money";
import { parseGid } from "../../devstore/gid.js";
import { createShippingClient } from "../../shipping-api/client.js";
import { createBookedShipments, shippableFulfillmentOrders, type FulfillmentOrderToShip } from "../factories/booked-shipments.js";
import { connectStackAccount } from "../support/account.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// The order-details block (extensions/order-shipments-block) as the merchant sees it on the local admin's
// order page: the built extension in the local admin's extension host, its data from the running app.
const e2e = useStackInBrowser();
let db: PrismaClient;
let booked: Shipment;
let unbooked: FulfillmentOrderToShip;
/** The booked service as List Services names it: "Globe Parcel Consolidators · International Economy". */
let bookedServiceName: string;

beforeAll(async () => {
  const customer = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
  const [first, second] = shippableFulfillmentOrders(e2e.stack.admin.store, 2);
  const client = createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...customer } });
  [booked] = (await createBookedShipments({ db, shop: e2e.stack.shop, client, fulfillmentOrders: [first!] })) as [Shipment];
  const services = await client.listServices();
  if (!services.ok) throw new Error("List Services failed");
  const service = services.value.services.find((entry) => entry.carrierCode === booked.carrierCode && entry.serviceCode === booked.serviceCode)!;
  bookedServiceName = `${service.carrierLabel} · ${service.serviceLabel}`;
  unbooked = second!;
});
afterAll(() => db?.$disconnect());

/** Consign opened once since install: its home reads the open orders into the order mirror. */
async function openConsignOnce(page: Page): Promise<void> {
  await page.goto(e2e.stack.adminAppUrl("/app"));
  const home = page.frameLocator("#app-iframe");
  await home.getByTestId("shop-name").waitFor();
  await expect.poll(() => home.getByText("Reading your open orders from Shopify…").count(), { timeout: 30_000 }).toBe(0);
}

function orderPage(orderId: string): string {
  return `${e2e.stack.admin.url}/admin/orders/${parseGid(orderId)!.id}`;
}

describe("the order-details block in the local admin", () => {
  it("GIVEN a booked order WHEN its page opens THEN the block shows the carrier and service by name, cost, label status and tracking number, reprints the label and opens the booking page", () =>
    withPage(e2e.browser.context, async (page) => {
      await openConsignOnce(page);
      await page.goto(orderPage(booked.orderId));
      const block = page.frameLocator('iframe[data-extension-block="order-shipments-block"]');
      await block.getByRole("heading", { name: "Consign shipping" }).waitFor();
      await block.getByText(booked.trackingNumber!).waitFor();
      expect(await block.getByText(bookedServiceName, { exact: true }).count()).toBe(1);
      expect(await block.getByText(booked.carrierCode!, { exact: true }).count()).toBe(0);
      expect(await block.getByText(formatMoney(booked.shippingCost!, booked.currency!), { exact: true }).count()).toBe(1);
      expect(await block.getByText(/^Label bought · /).count()).toBe(1);
      expect(await block.getByText("No carrier scan yet").count()).toBe(1);
      expect(await block.getByRole("button", { name: "Reprint label" }).count()).toBe(1);
      expect(await block.getByRole("button", { name: "Create shipping label" }).count()).toBe(0);
      await page.screenshot({ path: join(RESULTS_DIR, "order-block-booked.png"), fullPage: true });

      // Reprint: a new admin tab opens the app at the label, which downloads the PDF.
      const [labelTab] = await Promise.all([page.context().waitForEvent("page"), block.getByRole("button", { name: "Reprint label" }).click()]);
      const download = await labelTab.waitForEvent("download", { timeout: 30_000 });
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe("%PDF-");
      await labelTab.close();

      await block.getByRole("button", { name: "Open booking page" }).click();
      await page.waitForURL(new RegExp(`/admin/apps/consign/app/orders/${parseGid(booked.orderId)!.id}/book`));
      await page.frameLocator("#app-iframe").getByText(booked.orderName).first().waitFor();
    }));

  it("GIVEN an order without a label WHEN “Create shipping label” is clicked in the block THEN the app opens quoting that order", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(orderPage(unbooked.orderId));
      const block = page.frameLocator('iframe[data-extension-block="order-shipments-block"]');
      await block.getByText("No shipping label yet.", { exact: false }).waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "order-block-unbooked.png"), fullPage: true });
      await block.getByRole("button", { name: "Create shipping label" }).click();

      await page.waitForURL(/\/admin\/apps\/consign\/app\/quotes\/(?!new)\w+/);
      const app = page.frameLocator("#app-iframe");
      await app.getByTestId("quote-order").first().waitFor();
      expect(await app.getByTestId("quote-order").evaluateAll((orders) => orders.map((order) => order.getAttribute("data-order-id")))).toEqual([
        unbooked.orderId,
      ]);
    }));
});
