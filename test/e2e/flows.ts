import type { PrismaClient } from "@prisma/client";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createShippingClient, type ShippingClient } from "../../shipping-api/client.js";
import { connectStackAccount } from "../support/account.js";
import type { E2e } from "./harness.js";

/**
 * Past onboarding: the shop's Shipping API account on the stack's service, with a sender in Settings; returns the
 * account's client and the app's database (the caller disconnects it).
 */
export async function connectShop(e2e: E2e): Promise<{ account: ShippingClient; db: PrismaClient }> {
  const credentials = await connectStackAccount(e2e.stack);
  return {
    account: createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...credentials } }),
    db: createPrismaClient(e2e.stack.app.databaseUrl),
  };
}

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

/**
 * Splits a quoted shipment of one package on the rates page into packages of `weights` (lb): "Add box"
 * for each further one, the weights, then `arrange` (which items go in which box; as the editor shares them out
 * when not given), "Re-quote with these boxes"; resolves once it is quoted in them.
 */
export async function splitIntoPackages(shipment: Locator, weights: readonly string[], arrange?: (editor: Locator) => Promise<void>): Promise<void> {
  await shipment.getByRole("button", { name: /^Change the packages of / }).click();
  const editor = shipment.getByTestId("packages-editor");
  for (let more = 1; more < weights.length; more++) await editor.getByRole("button", { name: "Add box" }).click();
  for (const [index, weight] of weights.entries()) await editor.getByLabel(`Box ${index + 1} weight`).fill(weight);
  await arrange?.(editor);
  await editor.getByRole("button", { name: "Re-quote with these boxes" }).click();
  await expect
    .poll(() =>
      shipment
        .getByTestId("package-count")
        .textContent()
        .catch(() => null),
    )
    .toBe(` in ${weights.length} packages`);
}
