import { join } from "node:path";
import type { Page, Request } from "playwright-core";
import { jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { connectStackAccount } from "../support/account.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();

// The selected orders are quoted at once, which needs a Shipping API account: connected as onboarding would.
beforeAll(() => connectStackAccount(e2e.stack));

/** The app opened a rates page for the selection (/app/quotes/new starts a run and redirects to it). */
const RATES_PAGE = /\/admin\/apps\/consign\/app\/quotes\/(?!new)\w+/;

/** What the tests use of the app frame's window: the stand-in's shopify global and a marker. */
interface AppWindow {
  shopify: { idToken(): Promise<string>; toast: { show(message: string): string } };
  consignE2eMarker?: string;
}

/** The admin's header shows the title of the app page's ui-title-bar (relayed by the App Bridge stand-in). */
async function expectAppTitleRelayed(page: Page): Promise<void> {
  const title = await page.frameLocator("#app-iframe").locator("ui-title-bar").getAttribute("title");
  expect(title).toBeTruthy();
  await page.waitForFunction((expected) => document.getElementById("app-title")?.textContent === expected, title);
}

describe("the order list's bulk action, through the local admin into the embedded app", () => {
  it("GIVEN the seeded orders WHEN three are selected and “Create shipping labels” is clicked THEN the app's rates page in the frame lists exactly those orders", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(`${e2e.stack.admin.url}/admin`);

      const rows = page.getByTestId("order-row");
      expect(await rows.count()).toBeGreaterThanOrEqual(5);
      expect(await page.getByTestId("store-name").textContent()).toBe(e2e.stack.admin.store.getShop().name);
      const selectAll = page.getByRole("checkbox", { name: "Select all orders on this page" });
      const selectedCount = page.locator("[data-selected-count]");
      const bulkAction = page.getByRole("button", { name: "Create shipping labels" });
      expect(await bulkAction.isDisabled()).toBe(true);
      await selectAll.check();
      expect(await selectedCount.textContent()).toBe(`${await rows.count()} selected`);
      await selectAll.uncheck();
      expect(await selectedCount.textContent()).toBe("No orders selected");

      const chosen: string[] = [];
      for (const index of [0, 2, 4]) {
        const row = rows.nth(index);
        chosen.push((await row.getAttribute("data-order-name")) ?? "");
        await row.getByRole("checkbox").check();
      }
      expect(await selectedCount.textContent()).toBe("3 selected");
      expect(await selectAll.evaluate((box) => (box as HTMLInputElement).indeterminate)).toBe(true);
      await page.screenshot({ path: join(RESULTS_DIR, "admin-orders-selected.png") });
      await bulkAction.click();

      await page.waitForURL(RATES_PAGE);
      const selected = page.frameLocator("#app-iframe").getByTestId("quote-order-name");
      await selected.nth(2).waitFor();
      expect(await selected.count()).toBe(3);
      expect((await selected.allTextContents()).map((name) => name.trim()).sort()).toEqual([...chosen].sort());
      await expectAppTitleRelayed(page);

      await page.screenshot({ path: join(RESULTS_DIR, "bulk-action-quotes-new.png"), fullPage: true });
    }));

  it("GIVEN the order list WHEN Apps → Consign is opened THEN the app's home shows the shop name it read through token exchange and Admin GraphQL", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(`${e2e.stack.admin.url}/admin`);
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Consign" }).click();

      const frame = page.frameLocator("#app-iframe");
      await frame.getByText(e2e.stack.admin.store.getShop().name, { exact: true }).waitFor();
      await expectAppTitleRelayed(page);
      await page.waitForURL(/\/admin\/apps\/consign\/app$/);
      // The app holds an offline token from the local admin's token exchange; the shop name came through it.
      const issued = e2e.stack.admin.store.db.prepare("SELECT COUNT(*) AS n FROM access_tokens WHERE kind = 'offline'").get() as { n: number };
      expect(issued.n).toBeGreaterThanOrEqual(1);

      await page.screenshot({ path: join(RESULTS_DIR, "app-home.png"), fullPage: true });
    }));

  it("GIVEN the app at the bulk page WHEN the admin's app link is clicked THEN the app navigates client-side, its data request carries a Bearer session token, and toasts reach the admin", () =>
    withPage(e2e.browser.context, async (page) => {
      const dataRequests: Request[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).searchParams.has("_data")) dataRequests.push(request);
      });
      await page.goto(e2e.stack.adminAppUrl("/app/quotes/new?ids[]=gid://shopify/Order/1001"));
      const frame = page.frameLocator("#app-iframe");
      await frame.getByTestId("quote-order-name").waitFor();
      const appFrame = page.frame({ name: "app-iframe" });
      if (!appFrame) throw new Error("no app frame");
      // Survives only a client-side navigation: a document load would start a fresh window.
      await appFrame.evaluate(() => Object.assign(window, { consignE2eMarker: "same-document" }));

      // The app's nav menu (ui-nav-menu) has reached the admin: its home link now navigates inside the app.
      await page.locator("[data-app-home-link][data-app-href='/app']").waitFor({ state: "attached" });
      await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Consign" }).click();
      await frame.getByText(e2e.stack.admin.store.getShop().name, { exact: true }).waitFor();
      await expectAppTitleRelayed(page);
      await page.waitForURL(/\/admin\/apps\/consign\/app$/);

      expect(await appFrame.evaluate(() => (window as unknown as AppWindow).consignE2eMarker)).toBe("same-document");
      const homeData = dataRequests.find((request) => new URL(request.url()).pathname === "/app");
      expect(homeData, "a client-side data request for /app").toBeDefined();
      expect((await homeData?.allHeaders())?.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      expect((await homeData?.response())?.status()).toBe(200);

      // shopify.idToken() hands out one cached token until shortly before it expires; the app accepts it.
      const [first, second] = await appFrame.evaluate(async () => {
        const { shopify } = window as unknown as AppWindow;
        return [await shopify.idToken(), await shopify.idToken()];
      });
      expect(second).toBe(first);
      const { payload } = await jwtVerify(first ?? "", new TextEncoder().encode(e2e.stack.apiSecret), { audience: e2e.stack.apiKey });
      expect(payload.dest).toBe(`https://${e2e.stack.shop}`);

      await appFrame.evaluate(() => (window as unknown as AppWindow).shopify.toast.show("Labels queued"));
      await page.locator(".toast", { hasText: "Labels queued" }).waitFor();
    }));

  it("GIVEN an order's page WHEN its “Create shipping label” action is clicked THEN the app's rates page shows that order (admin link with id)", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(`${e2e.stack.admin.url}/admin`);
      const row = page.getByTestId("order-row").nth(1);
      const name = (await row.getAttribute("data-order-name")) ?? "";
      await row.getByRole("link", { name }).click();
      await page.getByTestId("order-title").waitFor();
      expect(await page.getByTestId("order-title").textContent()).toBe(name);
      await page.screenshot({ path: join(RESULTS_DIR, "admin-order.png"), fullPage: true });

      await page.getByRole("link", { name: "Create shipping label" }).click();
      await page.waitForURL(RATES_PAGE);
      const selected = page.frameLocator("#app-iframe").getByTestId("quote-order-name");
      await selected.first().waitFor();
      expect((await selected.allTextContents()).map((text) => text.trim())).toEqual([name]);
    }));
});
