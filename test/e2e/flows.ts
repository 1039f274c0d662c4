import type { FrameLocator, Page } from "playwright-core";
import { expect } from "vitest";
import type { E2e } from "./harness.js";

/** Waits until the rates page shows its orders and has stopped quoting. */
export async function waitUntilQuoted(frame: FrameLocator): Promise<void> {
  await frame.getByTestId("quote-order").first().waitFor();
  await frame.getByTestId("quote-progress").waitFor({ state: "detached", timeout: 60_000 });
}

/** Consign opened once since install: its home fills the order mirror with one bulk operation. */
export async function openConsignOnce(e2e: E2e, page: Page): Promise<void> {
  await page.goto(e2e.stack.adminAppUrl("/app"));
  const home = page.frameLocator("#app-iframe");
  await home.getByTestId("shop-name").waitFor();
  await expect.poll(() => home.getByText("Reading your open orders from Shopify…").count(), { timeout: 30_000 }).toBe(0);
}

/**
 * Orders quoted through the app as a merchant does it: Consign opened once since install (its home fills the
 * order mirror with one bulk operation), the first `count` orders selected in the local admin's order list,
 * “Create shipping labels”, then the rates page until quoting is done. Returns the names of the orders
 * selected and the app's frame on the rates page.
 */
export async function quoteOrdersFromTheAdmin(e2e: E2e, page: Page, count: number): Promise<{ chosen: string[]; frame: FrameLocator }> {
  return quoteFromTheAdmin(e2e, page, async (rows) => rows.slice(0, count));
}

/**
 * As quoteOrdersFromTheAdmin, with the orders of the admin's first page that `choose` picks by name (the
 * first page's names, in the list's order).
 */
export async function quoteFromTheAdmin(
  e2e: E2e,
  page: Page,
  choose: (names: string[]) => Promise<string[]>,
): Promise<{ chosen: string[]; frame: FrameLocator }> {
  await openConsignOnce(e2e, page);
  await page.goto(`${e2e.stack.admin.url}/admin`);
  const rows = page.getByTestId("order-row");
  await rows.first().waitFor();
  const names = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-order-name") ?? ""));
  const chosen = await choose(names);
  expect(chosen.length, "orders to quote on the admin's first page").toBeGreaterThan(0);
  for (const name of chosen) await page.locator(`[data-testid="order-row"][data-order-name="${name}"]`).getByRole("checkbox").check();
  expect(await page.locator("[data-selected-count]").textContent()).toBe(`${chosen.length} selected`);
  await page.getByRole("button", { name: "Create shipping labels" }).click();

  await page.waitForURL(/\/admin\/apps\/consign\/app\/quotes\/(?!new)\w+/);
  const frame = page.frameLocator("#app-iframe");
  await waitUntilQuoted(frame);
  return { chosen, frame };
}
