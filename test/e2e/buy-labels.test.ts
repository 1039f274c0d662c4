import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid.js";
import { pageTexts } from "../../lib/pdf/read-back.js";
import { connectShop, openConsignOnce } from "./flows.js";
import { BROWSER_USER_AGENT } from "../support/stack.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();
let db: PrismaClient;
beforeAll(async () => {
  ({ db } = await connectShop(e2e));
});
afterAll(() => db?.$disconnect());

/** Open, unheld orders of the admin's first page going to the US: with the weightless Enamel Pin Set or without it. */
async function ordersToSelect(firstPage: readonly string[]): Promise<{ shippable: string[]; weightless: string }> {
  const open = await db.mirrorOrder.findMany({
    where: {
      shop: e2e.stack.shop,
      destinationCountry: "US",
      cancelledAt: null,
      name: { in: [...firstPage] },
      fulfillmentOrders: { every: { status: "OPEN", holds: "[]" } },
    },
    select: { name: true, fulfillmentOrders: { select: { lines: true } } },
  });
  const hasPins = (order: (typeof open)[number]) => order.fulfillmentOrders.some((fo) => fo.lines.includes("Enamel Pin Set"));
  const byPage = (names: string[]) => firstPage.filter((name) => names.includes(name));
  return {
    shippable: byPage(open.filter((order) => !hasPins(order)).map((order) => order.name)).slice(0, 3),
    weightless: byPage(open.filter(hasPins).map((order) => order.name))[0]!,
  };
}

describe("buying labels from the order list's More actions", () => {
  it(
    "GIVEN three shippable orders and a weightless one selected in the local admin WHEN the merchant opens More actions → Buy shipping labels THEN the modal shows the picks, the total and the blocked order's reason; Buy books and writes back each label once, and Print labels opens the labels PDF",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await openConsignOnce(e2e, page);
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${e2e.stack.admin.url}/admin`);
        const rows = page.getByTestId("order-row");
        await rows.first().waitFor();
        const firstPage = await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-order-name") ?? ""));
        const { shippable, weightless } = await ordersToSelect(firstPage);
        expect(shippable).toHaveLength(3);
        for (const name of [...shippable, weightless]) await page.locator(`[data-testid="order-row"][data-order-name="${name}"]`).getByRole("checkbox").check();

        await page.getByRole("button", { name: "More actions" }).click();
        await page.getByRole("menuitem", { name: "Buy shipping labels" }).click();
        const modal = page.frameLocator("[data-action-extension]");
        await modal.getByText("3 orders can ship").waitFor({ timeout: 60_000 });
        const summary = await modal.locator("body").innerText();
        // Each order's pick: the carrier and the service by name, and the price.
        for (const name of shippable) expect(summary).toMatch(new RegExp(`${name}: [A-Z][a-z]+( [A-Z][a-z]+)+ · [^·\\n]+ · \\$\\d+\\.\\d{2}`));
        expect(summary).toMatch(/3 orders can ship · \$\d+\.\d{2}/);
        // The blocked order, its reason in one line.
        const blocked = summary.split("\n").find((line) => line.startsWith(`${weightless}: `));
        expect(blocked).toMatch(/weight/);
        expect(blocked).toContain("Enamel Pin Set");
        expect(summary).toMatch(/Book 3 labels for \$\d+\.\d{2}\? /);
        await page.screenshot({ path: join(RESULTS_DIR, "buy-labels-modal.png") });

        await modal.getByRole("button", { name: "Buy 3 labels" }).click();
        await modal.getByText("3 labels bought").waitFor({ timeout: 90_000 });
        await modal.getByText("Written back to Shopify: 3 of 3.").waitFor({ timeout: 90_000 });
        await page.screenshot({ path: join(RESULTS_DIR, "buy-labels-bought.png") });

        // Booked once, written back once: one label and one Shopify fulfillment per order, none for the blocked one.
        const shipments = await db.shipment.findMany({
          where: { shop: e2e.stack.shop, orderName: { in: [...shippable, weightless] }, bookingStatus: "BOOKED" },
        });
        expect(shipments.map((shipment) => shipment.orderName).sort()).toEqual([...shippable].sort());
        expect(new Set(shipments.map((shipment) => shipment.batchId)).size).toBe(1);
        for (const shipment of shipments) {
          const fulfillments = e2e.stack.admin.store.listFulfillments(parseGid(shipment.orderId)!.id);
          expect(
            fulfillments.filter((fulfillment) => fulfillment.status === "SUCCESS"),
            shipment.orderName,
          ).toHaveLength(1);
          expect(e2e.stack.admin.store.listTrackingInfo(fulfillments[0]!.id).map((info) => info.number)).toEqual([shipment.trackingNumber]);
        }

        // Print labels: the Print menu's labels document of the three orders, opened in the admin.
        // The admin opens the app at the document's path (app: link); the app's frame loads the PDF from the app.
        const pdf = page.waitForResponse((response) => response.url().startsWith(`${e2e.stack.app.url}/api/print/labels`));
        await modal.getByRole("button", { name: "Print labels" }).click();
        const answer = await pdf;
        expect(answer.headers()["content-type"]).toBe("application/pdf");
        // Chromium hands a framed PDF to its viewer; the document is read again at the same address (its token still fresh).
        const pdfBytes = await (await page.request.get(answer.url(), { headers: { "user-agent": BROWSER_USER_AGENT } })).body();
        const pages = await pageTexts(new Uint8Array(pdfBytes));
        // One label per order, each with its tracking number.
        for (const shipment of shipments)
          expect(
            pages.some((texts) => texts.some((text) => text.includes(shipment.trackingNumber!))),
            shipment.orderName,
          ).toBe(true);
        const orders = new URL(answer.url()).searchParams.get("orders")!.split(",");
        expect(orders.sort()).toEqual(shipments.map((shipment) => String(parseGid(shipment.orderId)!.id)).sort());
      }),
    240_000,
  );
});
