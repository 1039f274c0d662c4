import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectShop, quoteOrdersFromTheAdmin } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// A return label in the box (docs/decisions/044) in Chromium through the local admin: the merchant ticks the setting in
// Settings and saves it with App Bridge's save bar, books a batch of domestic orders and one abroad, and the batch page
// says per order whether a return label was added or why not. Screenshots at 1280 and 1440 px.
const e2e = useStackInBrowser();
let db: PrismaClient;
beforeAll(async () => ({ db } = await connectShop(e2e)));
afterAll(() => db?.$disconnect());

const WIDTHS = [1280, 1440] as const;
const frameOf = (page: Page): FrameLocator => page.frameLocator("#app-iframe");
const abroad = (row: { request: string }) => (JSON.parse(row.request) as { receiver: { country: string } }).receiver.country !== "US";

describe("a return label in the box", () => {
  it("GIVEN the merchant ticks “Put a return label in the box” in Settings WHEN a batch of three domestic orders and one abroad is booked THEN the batch page says each domestic order's return label was added and why the other has none", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(e2e.stack.adminAppUrl("/app/settings"));
      const settings = frameOf(page);
      const box = settings.getByRole("checkbox", { name: "Put a return label in the box" });
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      await settings.getByText("Put a return label in the box", { exact: true }).click();
      expect(await box.isChecked()).toBe(true);
      await box.scrollIntoViewIfNeeded();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: join(RESULTS_DIR, `box-return-setting-${width}.png`) });
      }
      const saveBar = page.getByTestId("save-bar");
      await saveBar.getByRole("button", { name: "Save" }).click();
      await page.locator(".toast", { hasText: "Settings saved" }).waitFor();
      const stored = await db.shopSettings.findFirstOrThrow({ where: { shop: e2e.stack.shop } });
      expect((JSON.parse(stored.data) as { returnLabelInBox?: boolean }).returnLabelInBox).toBe(true);

      await quoteOrdersFromTheAdmin(e2e, page, 12);
      const quoted = await db.shipment.findMany({ where: { shop: e2e.stack.shop, quoteStatus: "QUOTED", batchId: null, bookingStatus: "NONE" } });
      const chosen = [...quoted.filter((row) => !abroad(row)).slice(0, 3), ...quoted.filter(abroad).slice(0, 1)];
      expect(chosen.filter(abroad), "the seed quotes an order abroad").toHaveLength(1);

      await page.goto(e2e.stack.adminAppUrl("/app/batches/new"));
      const frame = frameOf(page);
      await frame.getByTestId("candidate-order").first().waitFor();
      for (const row of chosen)
        await frame
          .getByRole("row")
          .filter({ has: frame.getByTestId("candidate-order").getByText(row.orderName, { exact: true }) })
          .getByRole("checkbox")
          .click({ force: true });
      await frame.getByLabel("Batch name").fill("Boxes with returns");
      await frame.getByRole("button", { name: "Create batch (4 orders)" }).click();
      await page.waitForURL(/\/admin\/apps\/consign\/app\/batches\/(?!new)\w+$/);
      await frame.getByRole("button", { name: "Book 4 labels" }).click();
      await frame.getByRole("button", { name: "Confirm: book 4 labels" }).click();
      await expect.poll(() => frame.locator('[data-testid="batch-line"][data-booking-status="BOOKED"]').count(), { timeout: 60_000 }).toBe(4);

      // The return labels are booked after the outbound ones, by their own job: the page says so once they are.
      await expect
        .poll(
          async () => {
            await page.reload();
            await frame.getByTestId("batch-line").first().waitFor();
            return frame.locator('[data-testid="line-return-label"]:not([data-state="booking"])').count();
          },
          { timeout: 60_000, interval: 2_000 },
        )
        .toBe(4);
      const notes = await frame
        .getByTestId("line-return-label")
        .evaluateAll((nodes) => nodes.map((node) => ({ state: node.getAttribute("data-state"), text: node.textContent ?? "" })));
      expect(notes.filter((note) => note.state === "added")).toHaveLength(3);
      expect(notes.filter((note) => note.state === "none").map((note) => note.text)).toEqual([
        expect.stringMatching(
          /^No return label: none of your return services offers scan-based labels from .+\. If the customer asks for a return, get a label from Returns\.$/,
        ),
      ]);
      for (const note of notes.filter((each) => each.state === "added"))
        expect(note.text).toMatch(/^Return label added \(tracking \S+\)\. It prints after this label/);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: join(RESULTS_DIR, `box-return-batch-${width}.png`), fullPage: true });
      }
    }));
});
