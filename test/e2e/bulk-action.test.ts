import { join } from "node:path";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";
import { openBrowser, RESULTS_DIR, type BrowserSession } from "./browser.js";

let stack: Stack;
let browser: BrowserSession;

beforeAll(async () => {
  stack = await startStack();
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Fails the test on errors the page or the app frame reports (uncaught exceptions, failed App Bridge calls). */
function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** The admin's header shows the title of the app page's ui-title-bar (relayed by the App Bridge stand-in). */
async function expectAppTitleRelayed(page: Page): Promise<void> {
  const title = await page.frameLocator("#app-iframe").locator("ui-title-bar").getAttribute("title");
  expect(title).toBeTruthy();
  await page.waitForFunction((expected) => document.getElementById("app-title")?.textContent === expected, title);
}

describe("the order list's bulk action, through the local admin into the embedded app", () => {
  it("GIVEN the seeded orders WHEN three are selected and “Create shipping labels” is clicked THEN the app in the frame lists exactly those orders", async () => {
    const page = await browser.context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${stack.admin.url}/admin`);

    const rows = page.getByTestId("order-row");
    expect(await rows.count()).toBeGreaterThanOrEqual(5);
    expect(await page.getByTestId("store-name").textContent()).toBe(stack.admin.store.getShop().name);
    const chosen: string[] = [];
    for (const index of [0, 2, 4]) {
      const row = rows.nth(index);
      chosen.push((await row.getAttribute("data-order-name")) ?? "");
      await row.getByRole("checkbox").check();
    }
    expect(await page.locator("[data-selected-count]").textContent()).toBe("3 selected");
    await page.getByRole("button", { name: "Create shipping labels" }).click();

    await page.waitForURL(/\/admin\/apps\/consign\/app\/quotes\/new\?/);
    const landed = new URL(page.url());
    expect(landed.searchParams.getAll("ids[]")).toHaveLength(3);
    const selected = page.frameLocator("#app-iframe").getByTestId("selected-order");
    await selected.nth(2).waitFor();
    expect((await selected.allTextContents()).map((name) => name.trim()).sort()).toEqual([...chosen].sort());
    await expectAppTitleRelayed(page);

    await page.screenshot({ path: join(RESULTS_DIR, "bulk-action-quotes-new.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("GIVEN the order list WHEN Apps → Consign is opened THEN the app's home shows the shop name it read through token exchange and Admin GraphQL", async () => {
    const page = await browser.context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${stack.admin.url}/admin`);
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Consign" }).click();

    const frame = page.frameLocator("#app-iframe");
    await frame.getByText(stack.admin.store.getShop().name, { exact: true }).waitFor();
    await expectAppTitleRelayed(page);
    await page.waitForURL(/\/admin\/apps\/consign\/app$/);
    // The app holds an offline token from the local admin's token exchange; the shop name came through it.
    const issued = stack.admin.store.db.prepare("SELECT COUNT(*) AS n FROM access_tokens WHERE kind = 'offline'").get() as { n: number };
    expect(issued.n).toBeGreaterThanOrEqual(1);

    await page.screenshot({ path: join(RESULTS_DIR, "app-home.png"), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("GIVEN the app at the bulk page WHEN the admin's app link is clicked THEN the app navigates client-side, its data request carries a Bearer session token, and toasts reach the admin", async () => {
    const page = await browser.context.newPage();
    const errors = collectPageErrors(page);
    const dataRequests: Request[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).searchParams.has("_data")) dataRequests.push(request);
    });
    await page.goto(stack.adminAppUrl("/app/quotes/new?ids[]=gid://shopify/Order/1001"));
    const frame = page.frameLocator("#app-iframe");
    await frame.getByTestId("selected-order").waitFor();
    const appFrame = page.frame({ name: "app-iframe" });
    if (!appFrame) throw new Error("no app frame");
    // Survives only a client-side navigation: a document load would start a fresh window.
    await appFrame.evaluate(() => Object.assign(window, { consignE2eMarker: "same-document" }));

    // The app's nav menu (ui-nav-menu) has reached the admin: its home link now navigates inside the app.
    await page.locator("[data-app-home-link][data-app-href='/app']").waitFor({ state: "attached" });
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Consign" }).click();
    await frame.getByText(stack.admin.store.getShop().name, { exact: true }).waitFor();
    await expectAppTitleRelayed(page);
    await page.waitForURL(/\/admin\/apps\/consign\/app$/);

    expect(await appFrame.evaluate(() => (window as unknown as { consignE2eMarker?: string }).consignE2eMarker)).toBe("same-document");
    const homeData = dataRequests.find((request) => new URL(request.url()).pathname === "/app");
    expect(homeData, "a client-side data request for /app").toBeDefined();
    expect((await homeData?.allHeaders())?.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await homeData?.response())?.status()).toBe(200);

    await appFrame.evaluate(() => (window as unknown as { shopify: { toast: { show(m: string): void } } }).shopify.toast.show("Labels queued"));
    await page.locator(".toast", { hasText: "Labels queued" }).waitFor();

    expect(errors).toEqual([]);
    await page.close();
  });
});
