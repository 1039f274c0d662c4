import { join } from "node:path";
import type { Locator } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { connectStackAccount } from "../support/account.js";
import { quoteOrdersFromTheAdmin, waitUntilQuoted } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();

// Past onboarding: the shop's Shipping API account (on the stack's service) and settings with a sender.
beforeAll(() => connectStackAccount(e2e.stack));

const SELECTED = 25;

interface OrderOnPage {
  name: string;
  shipments: Array<{ status: string; country: string; rates: number; reason: string; failure: string }>;
  blocked: string[];
}

async function readOrder(order: Locator): Promise<OrderOnPage> {
  const shipments = [];
  for (const shipment of await order.getByTestId("quote-shipment").all()) {
    shipments.push({
      status: (await shipment.getAttribute("data-status")) ?? "",
      country: (await shipment.getAttribute("data-destination-country")) ?? "",
      rates: await shipment.getByTestId("rate-option").count(),
      reason: (await shipment.getByTestId("pick-reason").textContent().catch(() => null)) ?? "",
      failure: (await shipment.getByTestId("failed-reason").allTextContents()).join(" "),
    });
  }
  return {
    name: (await order.getAttribute("data-order-name")) ?? "",
    shipments,
    blocked: (await order.getByTestId("blocked-reason").allTextContents()).map((text) => text.trim()),
  };
}

describe("quoting orders selected in the admin", () => {
  it(`GIVEN ${SELECTED} seeded orders selected in the local admin WHEN “Create shipping labels” is clicked THEN the rates page shows rates for every shippable one and a reason for each other`, () =>
    withPage(e2e.browser.context, async (page) => {
      const { chosen, frame } = await quoteOrdersFromTheAdmin(e2e, page, SELECTED);

      const orders = await Promise.all((await frame.getByTestId("quote-order").all()).map(readOrder));
      expect(orders.map((order) => order.name).sort()).toEqual([...chosen].sort());
      for (const order of orders) {
        // Every order is accounted for: quoted, or not, with a reason.
        expect(order.shipments.length + order.blocked.length, order.name).toBeGreaterThan(0);
        for (const reason of order.blocked) expect(reason, order.name).toMatch(/\w{3,}.*\./);
        for (const shipment of order.shipments) {
          // The seeded addresses and products are valid: every shipment that is quoted gets rates.
          expect(shipment.status, `${order.name}: ${shipment.failure}`).toBe("QUOTED");
          expect(shipment.rates, order.name).toBeGreaterThan(0);
          expect(shipment.reason, order.name).toMatch(/^(Cheapest of \d+ rates|The only rate offered)$/);
        }
      }
      const quoted = orders.flatMap((order) => order.shipments);
      expect(quoted.some((shipment) => shipment.country === "US")).toBe(true);
      expect(quoted.some((shipment) => shipment.country !== "US")).toBe(true);
      expect(orders.some((order) => order.blocked.length > 0)).toBe(true);
      await expect.poll(() => frame.getByTestId("carrier-totals").getByRole("row").count()).toBeGreaterThan(1);
      await page.screenshot({ path: join(RESULTS_DIR, "quoting-rates.png"), fullPage: true });

      // The merchant prefers another rate for the first quoted shipment; Apply rule (replacing their picks) undoes it.
      const shipment = frame.getByTestId("quote-shipment").first();
      const other = shipment.locator('[data-testid="rate-option"][data-selected="false"]').first();
      // Polaris draws its own radio over the input.
      await other.getByRole("radio").click({ force: true });
      await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toBe("Chosen by you");
      await frame.getByLabel("Also replace rates you chose").check();
      await frame.getByRole("button", { name: "Apply rule" }).click();
      await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toMatch(/^(Cheapest of \d+ rates|The only rate offered)$/);
      await page.locator(".toast", { hasText: "Rule applied" }).waitFor();
    }));

  it("GIVEN quote runs WHEN Rates is opened THEN the latest run is listed and opens its rates page", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(e2e.stack.adminAppUrl("/app/quotes"));
      const frame = page.frameLocator("#app-iframe");
      await frame.getByTestId("quote-run-link").first().click();
      await waitUntilQuoted(frame);
      expect(await frame.getByTestId("quote-order").count()).toBe(SELECTED);
    }));
});
