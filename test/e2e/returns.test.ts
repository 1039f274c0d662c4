import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aFulfilledOrder, aRequestedReturn, type FulfilledOrder } from "../factories/returns.js";
import { connectShop, openConsignOnce } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

/** The service's clock, moved on by the test: the return parcel's tracking timeline unfolds as days pass. */
let offsetMs = 0;
const e2e = useStackInBrowser({ serviceClock: { now: () => new Date(Date.now() + offsetMs) } });
let db: PrismaClient;
let order: FulfilledOrder;
afterAll(() => db?.$disconnect());

beforeAll(async () => {
  ({ db } = await connectShop(e2e));
  // An order of two items, shipped to its customer.
  order = aFulfilledOrder(e2e.stack.admin.store, { quantities: [1, 1] });
});

describe("a return from the customer's request to its arrival", () => {
  it(
    "GIVEN a shipped order WHEN its customer requests a return of two items, the merchant approves it, Consign books the return label and the parcel comes back THEN Shopify's order shows the reverse delivery with tracking and the label, and Returns says it arrived",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await openConsignOnce(e2e, page);
        const store = e2e.stack.admin.store;

        // The customer, on their order status page, asks to return both items.
        await page.goto(`${e2e.stack.admin.url}/account/orders/${order.orderId}`);
        const quantities = page.getByTestId("return-quantity");
        expect(await quantities.count()).toBe(2);
        for (let index = 0; index < 2; index++) await quantities.nth(index).selectOption("1");
        await page.getByTestId("return-note").fill("Both a size too small.");
        await page.getByTestId("request-return").click();
        await page.getByTestId("return-requested").waitFor();
        const [requested] = store.listReturns(order.orderId);
        expect(requested?.status).toBe("REQUESTED");

        // Consign lists it (the returns/request webhook) with what to do first.
        await page.goto(e2e.stack.adminAppUrl("/app/returns"));
        const frame = page.frameLocator("#app-iframe");
        const row = frame.getByRole("row").filter({ has: frame.locator(`[data-return-name="${requested!.name}"]`) });
        await expect
          .poll(
            async () => {
              if ((await row.count()) === 0) await page.reload();
              return (await row.count()) > 0 ? row.getByTestId("return-todo").getAttribute("data-todo") : null;
            },
            { timeout: 60_000, interval: 2000 },
          )
          .toBe("Approve in Shopify or here");
        expect(await row.textContent()).toContain("Both a size too small.");

        // The merchant approves it in Shopify.
        await page.goto(`${e2e.stack.admin.url}/admin/orders/${order.orderId}`);
        await page.getByTestId("approve-return").click();
        await expect.poll(() => store.getReturn(requested!.id)?.status).toBe("OPEN");

        // Consign learns of the approval; the merchant gets the return label and books it past the checkpoint.
        await page.goto(e2e.stack.adminAppUrl("/app/returns"));
        await expect
          .poll(
            async () => {
              await page.reload();
              await row.waitFor();
              return row.getByTestId("return-todo").getAttribute("data-todo");
            },
            { timeout: 60_000, interval: 2000 },
          )
          .toBe("Get a return label");
        await row.getByRole("checkbox").check();
        await frame.getByRole("button", { name: "Get return labels" }).click();
        const checkpoint = frame.getByTestId("returns-checkpoint");
        await checkpoint.waitFor({ timeout: 30_000 });
        expect(await checkpoint.textContent()).toMatch(/^Book 1 (scan-based return label|label for \$)/);
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: join(RESULTS_DIR, "returns-checkpoint-1280.png"), fullPage: true });
        await frame.getByRole("button", { name: "Book 1 return label" }).click();
        await expect
          .poll(() => row.getByTestId("return-todo").getAttribute("data-todo"), { timeout: 90_000, interval: 2000 })
          .toBe("Label sent — waiting for the parcel");
        const trackingNumber = (await row.getByTestId("return-tracking").textContent())!.trim();
        expect(trackingNumber).not.toBe("");

        // Shopify's side: the order page shows the reverse delivery with its tracking number and the label.
        await page.goto(`${e2e.stack.admin.url}/admin/orders/${order.orderId}`);
        const delivery = page.getByTestId("reverse-delivery").filter({ hasText: trackingNumber });
        await delivery.waitFor();
        // Consign's order block lists the order's outbound parcels only: it shipped outside Consign, so it has none.
        expect(await page.getByText("Label bought").count()).toBe(0);
        const labelUrl = await delivery.getByTestId("return-label").getAttribute("href");
        expect(labelUrl).toMatch(/\/returns\/label\/[A-Za-z0-9_-]{32}$/);
        const label = await page.request.get(labelUrl!);
        expect(label.status()).toBe(200);
        expect(label.headers()["content-type"]).toBe("application/pdf");
        expect((await label.body()).subarray(0, 5).toString()).toBe("%PDF-");
        expect((await page.request.get(labelUrl!.replace(/[A-Za-z0-9_-]{32}$/, "x".repeat(32)))).status()).toBe(404);
        await page.screenshot({ path: join(RESULTS_DIR, "returns-admin-order.png"), fullPage: true });

        // Ten days on, tracking finds the parcel delivered back to the shop.
        offsetMs = 10 * 24 * 3_600_000;
        await page.goto(e2e.stack.adminAppUrl("/app/shipments"));
        // The order was shipped outside Consign, so its one tracked parcel is the return.
        const tracked = frame.getByTestId("tracked-shipment").filter({ hasText: order.orderName });
        await tracked.waitFor();
        await frame.getByRole("button", { name: "Check again now" }).click();
        await expect.poll(() => tracked.getAttribute("data-state"), { timeout: 60_000 }).toBe("DELIVERED");

        await page.goto(e2e.stack.adminAppUrl("/app/returns"));
        await row.waitFor();
        expect(await row.getByTestId("return-todo").getAttribute("data-todo")).toBe("Arrived — inspect and restock in Shopify");
        expect(await row.getByRole("link", { name: `Open ${order.orderName} in Shopify` }).count()).toBe(1);
        // What the label cost: a scan-based one was charged at its first scan, read back by the tracking pass that saw it.
        const returned = await db.shipment.findFirstOrThrow({ where: { kind: "RETURN", trackingNumber } });
        expect((await row.getByTestId("return-label-cost").textContent())?.trim()).toMatch(
          returned.scanBased ? /^Used — charged \$\d+\.\d\d on [A-Z][a-z]{2} \d{1,2}, \d{4}$/ : /^\$\d+\.\d\d$/,
        );
        if (returned.scanBased) expect(returned).toMatchObject({ chargedAt: expect.any(Date), shippingCost: expect.not.stringMatching(/^0\.00$/) });
        for (const width of [1280, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          await page.screenshot({ path: join(RESULTS_DIR, `returns-arrived-${width}.png`), fullPage: true });
        }
        expect(await db.shipment.count({ where: { kind: "RETURN", trackingNumber, bookingStatus: "BOOKED", fulfillmentStatus: "FULFILLED" } })).toBe(1);
      }),
    300_000,
  );
});

describe("a return in two boxes", () => {
  it(
    "GIVEN an approved return of two items WHEN the merchant splits it into two boxes in Returns (an empty box refused next to it) and books them THEN the row shows two tracking numbers and Shopify has two reverse deliveries",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await openConsignOnce(e2e, page);
        const store = e2e.stack.admin.store;
        const made = aRequestedReturn(store, { order: aFulfilledOrder(store, { quantities: [1, 1] }), items: 2, approved: true });
        const name = store.getReturn(made.returnId)!.name;

        await page.goto(e2e.stack.adminAppUrl("/app/returns"));
        const frame = page.frameLocator("#app-iframe");
        const row = frame.getByRole("row").filter({ has: frame.locator(`[data-return-name="${name}"]`) });
        await expect
          .poll(
            async () => {
              await page.reload();
              await row
                .first()
                .waitFor({ timeout: 10_000 })
                .catch(() => undefined);
              return (await row.count()) > 0 ? row.getByTestId("return-todo").getAttribute("data-todo") : null;
            },
            { timeout: 60_000, interval: 2000 },
          )
          .toBe("Get a return label");
        await row.getByRole("button", { name: "Split into boxes" }).click();
        const boxes = frame.getByTestId("split-box");
        await expect.poll(() => boxes.count()).toBe(2);

        // Both items in box 1: box 2 is refused next to it.
        const box = (number: number) => boxes.filter({ has: frame.getByRole("heading", { name: `Box ${number}` }) });
        await box(1).getByRole("spinbutton").nth(1).fill("1");
        await box(2).getByRole("spinbutton").nth(1).fill("0");
        await frame.getByRole("button", { name: "Get labels for 2 boxes" }).click();
        await box(2).getByText("Box 2 has nothing in it. Put an item in it, or use fewer boxes.").waitFor({ timeout: 30_000 });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: join(RESULTS_DIR, "returns-split-refused-1280.png"), fullPage: true });
        // Choosing the split did not select the return for "Get return labels".
        expect(await row.getByRole("checkbox").isChecked()).toBe(false);

        // One item a box.
        await box(1).getByRole("spinbutton").nth(1).fill("0");
        await box(2).getByRole("spinbutton").nth(1).fill("1");
        await frame.getByRole("button", { name: "Get labels for 2 boxes" }).click();
        await expect.poll(() => row.getByTestId("return-box").count(), { timeout: 30_000 }).toBe(2);
        await expect.poll(() => boxes.count()).toBe(0);
        expect(await row.getByTestId("return-todo").getAttribute("data-todo")).toBe("Book the boxes' return labels");
        await page.screenshot({ path: join(RESULTS_DIR, "returns-two-boxes-quoted-1280.png"), fullPage: true });
        await frame.getByRole("button", { name: /^Book \d+ return labels$/ }).click();
        await expect
          .poll(() => row.getByTestId("return-todo").getAttribute("data-todo"), { timeout: 90_000, interval: 2000 })
          .toBe("Labels sent — waiting for the boxes");
        const numbers = (await row.getByTestId("return-tracking").allTextContents()).map((text) => text.trim());
        expect(numbers).toHaveLength(2);
        expect(new Set(numbers).size).toBe(2);
        await page.screenshot({ path: join(RESULTS_DIR, "returns-two-boxes-booked-1280.png"), fullPage: true });
        const deliveries = store.listReverseFulfillmentOrders(made.returnId).flatMap((rfo) => store.listReverseDeliveries(rfo.id));
        expect(deliveries.map((delivery) => delivery.tracking_number).sort()).toEqual([...numbers].sort());
        expect(deliveries.map((delivery) => store.listReverseDeliveryLineItems(delivery.id).map((line) => line.quantity))).toEqual([[1], [1]]);
      }),
    300_000,
  );
});
