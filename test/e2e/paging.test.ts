import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db/db-client.server";
import type { FrameLocator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedStore } from "../../devstore/seed/seed.js";
import { createShippingClient } from "../../shipping-api/client.js";
import { seedOpenBatch, seedRatesRun } from "../factories/big-shop.js";
import { connectStackAccount } from "../support/account.js";
import { STACK_SHOP } from "../support/stack.js";
import { openConsignOnce } from "./flows.js";
import { useStackInBrowser, withPage } from "./harness.js";

// Lists past their first page, in Chromium inside the local admin: Orders to ship with three pages of open
// orders, "select all matching orders" across them, and a batch of more orders than one page shows.
const ORDERS = 200;
const BATCH = 60;
const e2e = useStackInBrowser({ seed: (store) => void seedStore(store, { shopDomain: STACK_SHOP, orders: ORDERS }) });
let db: PrismaClient;
let customer: Awaited<ReturnType<typeof connectStackAccount>>;

beforeAll(async () => {
  customer = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
});
afterAll(() => db?.$disconnect());

/** The order names of the page shown, and how many of them can be selected (shippable). */
async function shownOrders(frame: FrameLocator): Promise<{ names: string[]; selectable: number }> {
  return {
    names: await frame.getByTestId("order-name").allTextContents(),
    selectable: await frame.locator("tbody").getByRole("checkbox", { disabled: false }).count(),
  };
}

async function openOrders(frame: FrameLocator): Promise<number> {
  await frame.getByTestId("order-name").first().waitFor();
  const total = Number(await frame.getByTestId("orders-total").textContent());
  expect(total, "open orders: more than two pages of 50").toBeGreaterThan(100);
  return Math.ceil(total / 50);
}

describe("paging at a busy shop's size", () => {
  it("GIVEN more open orders than two pages WHEN the merchant pages forward THEN page 2 and the last page show other orders, and every order is reachable once", () =>
    withPage(e2e.browser.context, async (page) => {
      await openConsignOnce(e2e, page);
      const frame = page.frameLocator("#app-iframe");
      const pages = await openOrders(frame);
      const total = Number(await frame.getByTestId("orders-total").textContent());
      const seen: string[] = [];
      for (let number = 1; number <= pages; number++) {
        await frame.getByText(`Page ${number} of ${pages}`).first().waitFor();
        const { names } = await shownOrders(frame);
        expect(names.length, `orders on page ${number}`).toBe(number < pages ? 50 : total - 50 * (pages - 1));
        seen.push(...names);
        const next = frame.getByRole("button", { name: "Next" }).first();
        if (number < pages) await next.click();
        else await expect.poll(() => next.getAttribute("aria-disabled")).toBe("true");
      }
      expect(new Set(seen).size, "distinct orders over every page").toBe(total);
      expect(page.url()).toContain(`page=${pages}`);
    }));

  it("GIVEN every order of a page selected WHEN the merchant selects all matching orders THEN the page says how many will be quoted: the shippable orders of every page", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(e2e.stack.adminAppUrl("/app"));
      const frame = page.frameLocator("#app-iframe");
      const pages = await openOrders(frame);
      // The shippable orders, counted page by page as the merchant sees them.
      let shippable = 0;
      for (let number = 1; number <= pages; number++) {
        await frame.getByText(`Page ${number} of ${pages}`).first().waitFor();
        shippable += (await shownOrders(frame)).selectable;
        if (number < pages) await frame.getByRole("button", { name: "Next" }).first().click();
      }
      await page.goto(e2e.stack.adminAppUrl("/app"));
      await frame.getByTestId("order-name").first().waitFor();
      const total = Number(await frame.getByTestId("orders-total").textContent());
      await frame.getByRole("checkbox", { name: "Select all orders" }).first().click({ force: true });
      await frame.getByRole("button", { name: `Select all ${total} matching orders` }).click();
      await frame.getByText(`All ${shippable} matching orders that can ship are selected`).first().waitFor();
      expect(shippable).toBeLessThan(total);
    }));

  it("GIVEN a batch of more orders than a page WHEN the merchant pages forward THEN the second page shows the rest, each order once", () =>
    withPage(e2e.browser.context, async (page) => {
      const client = createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...customer } });
      const orderIds = (
        await db.mirrorOrder.findMany({ where: { shop: e2e.stack.shop, cancelledAt: null }, orderBy: { orderCreatedAt: "desc" }, select: { id: true } })
      ).map((row) => row.id);
      const run = await seedRatesRun({ db, shop: e2e.stack.shop, client, orderIds, now: new Date() });
      const batch = await seedOpenBatch({ db, shop: e2e.stack.shop, client, runId: run.runId, size: BATCH, name: "Paging batch" });
      expect(batch.lines).toBe(BATCH);

      await page.goto(e2e.stack.adminAppUrl(`/app/batches/${batch.batchId}`));
      const frame = page.frameLocator("#app-iframe");
      await frame.getByText(`Page 1 of 2 · ${BATCH} orders`).first().waitFor();
      const first = await frame.getByTestId("batch-line").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-order-name")));
      expect(first).toHaveLength(50);
      await frame.getByRole("button", { name: "Next" }).first().click();
      await frame.getByText(`Page 2 of 2 · ${BATCH} orders`).first().waitFor();
      const second = await frame.getByTestId("batch-line").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-order-name")));
      expect(second).toHaveLength(BATCH - 50);
      expect(new Set([...first, ...second]).size).toBe(BATCH);
      await expect.poll(() => frame.getByRole("button", { name: "Next" }).first().getAttribute("aria-disabled")).toBe("true");
    }));
});
