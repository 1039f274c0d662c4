import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid.js";
import { pageTexts } from "../../service/labels/test-pdf.js";
import type { ShippingClient } from "../../shipping-api/client.js";
import { parseServiceTimestamp } from "../../app/shipping/context.server.js";
import { connectShop, quoteFromTheAdmin, splitIntoPackages } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";
import { shipmentWithSchedule } from "../support/tracking-schedule";

/** The service's clock, moved on by the test: its tracking timelines unfold as days pass. */
let offsetMs = 0;
const e2e = useStackInBrowser({ serviceClock: { now: () => new Date(Date.now() + offsetMs) } });
let db: PrismaClient;
let account: ShippingClient;

beforeAll(async () => ({ account, db } = await connectShop(e2e)));
afterAll(() => db?.$disconnect());

/** The downloaded PDF's pages, each as the texts it prints. */
async function downloadedPdfPages(page: Page, click: () => Promise<void>): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), click()]);
  return pageTexts(readFileSync(await download.path()));
}

describe("an order in two boxes", () => {
  it(
    "GIVEN an order split into two boxes on the rates page, its first item put in box 2 with the keyboard, and booked in a batch with the postal carrier THEN the PDF has a label for each box (1 of 2, 2 of 2, each its number), each box's packing slip lists its own items, the local admin's fulfillment carries both numbers, and tracking moves it to Delivered only once both boxes are delivered",
    () =>
      withPage(e2e.browser.context, async (page) => {
        // Three orders going within the US, quoted as a merchant does it; the one split is the first with two or
        // more items of their own SKUs, all shipped, in one fulfillment order.
        let split = "";
        const { frame } = await quoteFromTheAdmin(e2e, page, async (names) => {
          const domestic = await db.mirrorOrder.findMany({
            where: { shop: e2e.stack.shop, destinationCountry: "US" },
            select: { name: true, fulfillmentOrders: { select: { status: true, lines: true } } },
          });
          const us = new Set(domestic.map((order) => order.name));
          const several = new Set(
            domestic
              .filter(({ fulfillmentOrders: [only, ...others] }) => {
                const lines = JSON.parse(only?.lines ?? "[]") as Array<{ sku: string | null; requiresShipping?: boolean }>;
                return (
                  others.length === 0 &&
                  only?.status === "OPEN" &&
                  lines.length >= 2 &&
                  new Set(lines.map((line) => line.sku || null)).size === lines.length &&
                  lines.every((line) => line.requiresShipping !== false)
                );
              })
              .map((order) => order.name),
          );
          split = names.find((name) => several.has(name)) ?? "";
          expect(split, "a domestic order of several items on the admin's first page").not.toBe("");
          return [split, ...names.filter((name) => us.has(name) && name !== split).slice(0, 2)];
        });
        const shipment = frame
          .locator(`[data-testid="quote-order"][data-order-name="${split}"]`)
          .locator('[data-testid="quote-shipment"][data-status="QUOTED"]')
          .first();
        await shipment.waitFor();
        const shipmentId = (await shipment.getAttribute("data-shipment-id"))!;
        const { orderName, orderId } = await db.shipment.findUniqueOrThrow({ where: { id: shipmentId } });

        // Add package: two boxes of 12 lb; the merchant moves the first item, all of it, into box 2 and the rest into
        // box 1, with the keyboard; re-quoted. The editor is looked at at 1280 and 1440 px.
        const items: Array<{ name: string; sku: string; quantity: number }> = [];
        await splitIntoPackages(shipment, ["12", "12"], async (editor) => {
          const rows = editor.getByTestId("box-contents-line");
          for (const row of await rows.all()) {
            items.push({
              name: (await row.getAttribute("data-line-name"))!,
              sku: (await row.getAttribute("data-sku"))!,
              quantity: Number(await row.getAttribute("data-quantity")),
            });
          }
          expect(items.length).toBeGreaterThanOrEqual(2);
          // One too many of the first item (all of it in box 1, one more in box 2): the page says which box and item.
          const [firstItem] = items;
          await editor.getByLabel(`${firstItem!.name} in box 1`, { exact: true }).fill(String(firstItem!.quantity));
          await editor.getByLabel(`${firstItem!.name} in box 2`, { exact: true }).fill("1");
          await expect.poll(() => editor.getByTestId("box-contents-left").first().textContent()).toBe("1 too many");
          await editor.getByRole("button", { name: "Re-quote with these boxes" }).click();
          await editor.getByText(`Box 2: 1 × ${firstItem!.name} is more than are left: all ${firstItem!.quantity} are in earlier boxes`).waitFor();
          await page.setViewportSize({ width: 1280, height: 900 });
          await editor.scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(RESULTS_DIR, "pieces-box-contents-refused-1280.png") });
          for (const [index, item] of items.entries()) {
            const first = editor.getByLabel(`${item.name} in box 1`, { exact: true });
            await first.focus();
            await page.keyboard.press("ControlOrMeta+A");
            await page.keyboard.type(index === 0 ? "0" : String(item.quantity));
            await page.keyboard.press("Tab");
            await expect.poll(() => editor.getByLabel(`${item.name} in box 2`, { exact: true }).evaluate((node) => node === document.activeElement)).toBe(true);
            await page.keyboard.press("ControlOrMeta+A");
            await page.keyboard.type(index === 0 ? String(item.quantity) : "0");
          }
          expect(await editor.getByTestId("box-contents-left").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-left")))).toEqual(
            items.map(() => "0"),
          );
          for (const width of [1280, 1440]) {
            await page.setViewportSize({ width, height: 900 });
            await editor.scrollIntoViewIfNeeded();
            await page.screenshot({ path: join(RESULTS_DIR, `pieces-box-contents-${width}.png`) });
          }
        });

        // The postal carrier gives each box its own tracking number: pick its Priority Mail.
        const order = frame.getByTestId("quote-order").filter({ has: frame.locator(`[data-shipment-id="${shipmentId}"]`) });
        await order.getByRole("button", { name: /^All \d+ rates? of / }).click();
        await shipment.getByRole("radio", { name: "Ship with National Postal Service Priority Mail", exact: true }).click({ force: true });
        await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toBe("Chosen by you");

        // Batch it from the rates page, and book it.
        await frame.getByRole("button", { name: /^Create batch \(\d+ shipments?\)$/ }).click();
        await frame.getByLabel("Batch name").fill("Two boxes");
        await frame.getByRole("button", { name: /^Create batch \(\d+ orders?\)$/ }).click();
        await page.waitForURL(/\/admin\/apps\/consign\/app\/batches\/(?!new)\w+$/);
        const lines = frame.getByTestId("batch-line");
        await lines.first().waitFor();
        const count = await lines.count();
        await frame.getByRole("button", { name: /^Book \d+ labels?$/ }).click();
        await frame.getByRole("button", { name: /^Confirm: book \d+ labels?$/ }).click();
        await expect.poll(() => frame.locator('[data-testid="batch-line"][data-booking-status="BOOKED"]').count(), { timeout: 60_000 }).toBe(count);

        // Both boxes' numbers, read once from Search Shipments before the fulfillment, on the batch page.
        const booked = await db.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
        const found = await account.searchShipments({ body: { keyword: booked.bookNumber! } });
        const numbers = found.ok ? (found.value.shipments.find((entry) => entry.bookNumber === booked.bookNumber)?.trackingNumbers ?? []) : [];
        expect(numbers).toHaveLength(2);
        const line = frame.getByRole("row").filter({ has: frame.locator(`[data-testid="batch-line"][data-order-name="${orderName}"]`) });
        await expect
          .poll(
            async () => {
              await page.reload();
              return line
                .getByTestId("line-tracking")
                .locator("[data-tracking-number]")
                .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-tracking-number")));
            },
            { timeout: 60_000 },
          )
          .toEqual(numbers);

        // The labels PDF: one label per box, "1 of 2" and "2 of 2", each with its own number.
        const pages = await downloadedPdfPages(page, () => frame.getByRole("button", { name: "Download labels" }).click());
        const ofOrder = pages.filter((texts) => texts.includes(`REF ${orderName}`));
        expect(ofOrder.map((texts) => texts.find((text) => text.includes("PIECE")))).toEqual(["WEIGHT 12 lb   PIECE 1 of 2", "WEIGHT 12 lb   PIECE 2 of 2"]);
        expect(ofOrder[0]).toContain(numbers[0]);
        expect(ofOrder[1]).toContain(numbers[1]);
        expect(pages.filter((texts) => !texts.includes(`REF ${orderName}`) && texts.some((text) => text.startsWith("WEIGHT")))).toHaveLength(count - 1);
        await page.screenshot({ path: join(RESULTS_DIR, "pieces-batch.png"), fullPage: true });

        // Its packing slips: box 1 lists every item but the first, box 2 the first alone, each counting its own.
        await frame.getByLabel("Documents").selectOption("slips");
        const slips = (await downloadedPdfPages(page, () => frame.getByRole("button", { name: "Download packing slips" }).click())).filter((texts) =>
          texts.includes(orderName),
        );
        const [moved, ...kept] = items;
        const itemsIn = (entries: ReadonlyArray<{ quantity: number }>) => {
          const units = entries.reduce((sum, entry) => sum + entry.quantity, 0);
          return `${units} ${units === 1 ? "item" : "items"} in this box`;
        };
        expect(slips.map((texts) => texts.find((text) => text.startsWith("Box ")))).toEqual(["Box 1 of 2", "Box 2 of 2"]);
        expect(slips[0]).toEqual(expect.arrayContaining([itemsIn(kept), ...kept.map((item) => item.sku)]));
        expect(slips[0]).not.toContain(moved!.sku);
        expect(slips[1]).toEqual(expect.arrayContaining([itemsIn([moved!]), moved!.sku, String(moved!.quantity)]));
        for (const item of kept) expect(slips[1]).not.toContain(item.sku);

        // Shopify's side: one fulfillment carrying both numbers.
        const adminOrder = `${e2e.stack.admin.url}/admin/orders/${parseGid(orderId)!.id}`;
        await page.goto(adminOrder);
        const fulfillment = page.getByTestId("fulfillment");
        await expect(fulfillment.count()).resolves.toBe(1);
        expect(
          await fulfillment.locator("[data-tracking-number]").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-tracking-number"))),
        ).toEqual(numbers);

        // When each box will be delivered, as the carrier reports it.
        offsetMs = 20 * 24 * 3_600_000;
        const timeline = await account.trackShipment({ bookNumber: booked.bookNumber! });
        if (!timeline.ok) throw new Error("Track Shipment did not answer");
        const deliveries = numbers
          .map((number) =>
            parseServiceTimestamp(timeline.value.find((event) => event.trackingNumber === number && event.eventStatus === "Delivered")!.eventTime),
          )
          .sort((a, b) => a.getTime() - b.getTime());
        expect(deliveries[1]!.getTime()).toBeGreaterThan(deliveries[0]!.getTime());

        const checkAgain = async () => {
          await page.goto(e2e.stack.adminAppUrl("/app/shipments"));
          const row = frame.getByTestId("tracked-shipment").filter({ hasText: orderName });
          await row.waitFor();
          const before = await shipmentWithSchedule(db, shipmentId);
          await frame.getByRole("button", { name: "Check again now" }).click();
          await expect
            .poll(async () => (await shipmentWithSchedule(db, shipmentId)).schedule?.lastTrackedAt?.getTime() ?? 0, { timeout: 60_000 })
            .toBeGreaterThan(before.schedule?.lastTrackedAt?.getTime() ?? 0);
          return row;
        };

        // One box delivered, the other not yet: still on its way, in the app and in Shopify.
        offsetMs = deliveries[0]!.getTime() + 5_000 - Date.now();
        const row = await checkAgain();
        await expect.poll(() => row.getAttribute("data-state")).toBe("ACTIVE");
        await page.goto(adminOrder);
        expect(await page.getByTestId("fulfillment").getAttribute("data-display-status")).not.toBe("DELIVERED");
        const half = await page.getByTestId("fulfillment-event").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-status")));
        expect(half).not.toContain("DELIVERED");
        expect(half.length).toBeGreaterThan(0);

        // Both delivered: Delivered, once.
        offsetMs = deliveries[1]!.getTime() + 60_000 - Date.now();
        const done = await checkAgain();
        await expect.poll(() => done.getAttribute("data-state"), { timeout: 60_000 }).toBe("DELIVERED");
        await page.screenshot({ path: join(RESULTS_DIR, "pieces-shipments.png"), fullPage: true });
        await page.goto(adminOrder);
        expect(await page.getByTestId("fulfillment").getAttribute("data-display-status")).toBe("DELIVERED");
        const events = await page.getByTestId("fulfillment-event").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-status")));
        expect(events.filter((status) => status === "DELIVERED")).toHaveLength(1);
        expect(events[0]).toBe("DELIVERED");
        await page.screenshot({ path: join(RESULTS_DIR, "pieces-admin-order.png"), fullPage: true });
      }),
    300_000,
  );
});
