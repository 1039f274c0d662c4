import { join } from "node:path";
import type { FrameLocator, Page } from "playwright-core";
import type { PrismaClient } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import { connectShop, openConsignOnce, quoteOrdersFromTheAdmin } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// Shipping rules and product presets as a merchant sets them up (issue 25 §1, §2): two rules made on the rules
// page, a product's box set on the presets page, then ten orders quoted from the admin; each rate on the rates
// page says which rule picked it and why, and the database says the same of the orders it quoted.
const e2e = useStackInBrowser();
let db: PrismaClient | undefined;
afterAll(() => db?.$disconnect());

const PACKAGING_LB = 0.25;

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle").catch(() => undefined);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await settle(page);
    await page.screenshot({ path: join(RESULTS_DIR, `${name}-${width}.png`), fullPage: true });
  }
}

async function addRule(frame: FrameLocator, name: string, fill: () => Promise<void>): Promise<void> {
  await frame.getByRole("button", { name: "Add rule" }).click();
  await frame.getByLabel("Rule name").fill(name);
  await fill();
  await frame.getByRole("button", { name: "Save rule" }).click();
  await frame.locator(`[data-testid="rule-row"][data-rule-name="${name}"]`).waitFor();
}

describe("shipping rules and product presets in the browser", () => {
  it(
    "GIVEN two rules and a product preset made in the app WHEN ten orders are quoted from the admin THEN each rate is picked by the right rule and says so",
    () =>
      withPage(e2e.browser.context, async (page) => {
        const connected = await connectShop(e2e);
        db = connected.db;
        await openConsignOnce(e2e, page);
        // A second box in Settings for the preset.
        const kept = await db.shopSettings.findUniqueOrThrow({ where: { shop: e2e.stack.shop } });
        const settings = JSON.parse(kept.data) as { boxes: unknown[]; sender: { country: string } };
        settings.boxes.push({ kind: "custom", name: "Tall box", length: "10", width: "10", height: "30", dimUnit: "in" });
        await db.shopSettings.update({ where: { shop: e2e.stack.shop }, data: { data: JSON.stringify(settings) } });

        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(e2e.stack.adminAppUrl("/app/rules"));
        const frame = page.frameLocator("#app-iframe");
        await frame.getByTestId("rules-empty").waitFor();
        await addRule(frame, "Abroad", async () => {
          await frame.getByLabel("Destination").selectOption("international");
          await frame.getByLabel("Pick the rate").selectOption("cheapest");
        });
        // A refused rule says what is wrong on its field, and nothing is saved.
        await frame.getByRole("button", { name: "Add rule" }).click();
        await frame.getByLabel("Rule name").fill("Heavy");
        await frame.getByLabel("Weight from").fill("2");
        await frame.getByLabel("Weight up to").fill("1");
        await frame.getByRole("button", { name: "Save rule" }).click();
        await expect.poll(() => frame.getByTestId("rule-refusal").textContent()).toContain("Weight up to must not be less than the minimum");
        await frame.getByLabel("Weight up to").fill("");
        await frame.getByLabel("Pick the rate").selectOption("fastest");
        // Tested on an order before saving.
        await frame.getByRole("button", { name: "Test", exact: true }).click();
        await expect.poll(() => frame.getByTestId("rule-test").textContent()).toMatch(/(would pick the rate|no rule picks a rate)/);
        await shoot(page, "rules-editor");
        await frame.getByRole("button", { name: "Save rule" }).click();
        await frame.locator('[data-testid="rule-row"][data-rule-name="Heavy"]').waitFor();
        const rows = await frame.getByTestId("rule-row").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-rule-name")));
        expect(rows).toEqual(["Abroad", "Heavy"]);
        expect(await frame.getByText(/Matches \d+ of \d+ open orders/).count()).toBe(2);
        await shoot(page, "rules-list");

        await page.goto(e2e.stack.adminAppUrl("/app/presets?q=mug"));
        await frame.locator('[data-testid="preset-row"][data-title="Stoneware Mug"]').waitFor();
        await frame.getByRole("button", { name: "Edit the preset of Stoneware Mug", exact: true }).click();
        await frame.getByLabel("Box", { exact: true }).selectOption("settings");
        await frame.getByLabel("Box of Settings").selectOption("Tall box");
        await frame.getByLabel("HS code").fill("6912.00");
        await frame.getByRole("button", { name: "Save preset" }).click();
        await expect.poll(() => frame.getByTestId("preset-box").first().textContent()).toContain("Tall box");
        await shoot(page, "product-presets");

        const { frame: rates } = await quoteOrdersFromTheAdmin(e2e, page, 10);
        const run = await db.quoteRun.findFirstOrThrow({ where: { shop: e2e.stack.shop }, orderBy: { startedAt: "desc" } });
        const shipments = await db.shipment.findMany({ where: { runId: run.id, quoteStatus: "QUOTED" } });
        expect(shipments.length).toBeGreaterThan(0);
        // What each order is, read from its quote requests: abroad, its weight (packaging counted once per order).
        const byOrder = new Map<string, typeof shipments>();
        for (const shipment of shipments) byOrder.set(shipment.orderName, [...(byOrder.get(shipment.orderName) ?? []), shipment]);
        const seen = new Set<string>();
        for (const [orderName, own] of byOrder) {
          const requests = own.map(
            (shipment) =>
              JSON.parse(shipment.request) as {
                receiver: { country: string };
                pieces: Array<{ weight: string }>;
                weightUnit: string;
                pieces0?: never;
                lineItems?: never;
              },
          );
          expect(requests.every((request) => request.weightUnit === "lb")).toBe(true);
          const abroad = requests[0]!.receiver.country !== settings.sender.country;
          const pounds =
            requests.reduce((sum, request) => sum + request.pieces.reduce((total, piece) => total + Number(piece.weight), 0), 0) -
            PACKAGING_LB * (own.length - 1);
          const expected = abroad ? "Rule 'Abroad' (international): " : pounds >= 2 ? "Rule 'Heavy' (from 2 lb): " : "No rule matched; shop-wide rule: ";
          seen.add(expected);
          const order = rates.locator(`[data-testid="quote-order"][data-order-name="${orderName}"]`);
          for (const [index, shipment] of own.entries()) {
            expect(shipment.selectionReason, orderName).toContain(expected);
            const shown = await order.getByTestId("pick-reason").nth(index).textContent();
            expect(shown, `${orderName} on the rates page`).toContain(expected);
            const items = (JSON.parse(shipment.request) as { pieces: Array<{ lineItems: Array<{ productName: string }> }> }).pieces.flatMap(
              (piece) => piece.lineItems,
            );
            if (items.some((item) => item.productName.startsWith("Stoneware Mug"))) expect(shipment.packingNote, orderName).toContain("box 'Tall box'");
          }
        }
        expect(seen.size, "the ten orders show more than one rule at work").toBeGreaterThan(1);
        await shoot(page, "rates-by-rules");
      }),
    300_000,
  );
});
