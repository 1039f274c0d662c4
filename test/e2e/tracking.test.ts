import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid.js";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createShippingClient } from "../../shipping-api/client.js";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments.js";
import { connectStackAccount } from "../support/account.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

/** The service's clock, moved on by the test: its tracking timelines unfold as days pass. */
let offsetMs = 0;
const e2e = useStackInBrowser({ serviceClock: { now: () => new Date(Date.now() + offsetMs) } });
let db: PrismaClient;
let shipment: { orderName: string; orderId: string; trackingNumber: string };

// One label booked (by another process, as the booking step leaves it) for an order of the local admin.
beforeAll(async () => {
  const customer = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
  const [booked] = await createBookedShipments({
    db,
    shop: e2e.stack.shop,
    client: createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...customer } }),
    fulfillmentOrders: shippableFulfillmentOrders(e2e.stack.admin.store, 1),
  });
  shipment = { orderName: booked!.orderName, orderId: booked!.orderId, trackingNumber: booked!.trackingNumber! };
});
afterAll(() => db?.$disconnect());

describe("tracking in the browser", () => {
  it(
    "GIVEN a booked, fulfilled label WHEN ten days pass and the merchant checks again THEN Shipments shows it Delivered and the local admin's order page shows the delivered fulfillment and its events",
    () =>
      withPage(e2e.browser.context, async (page) => {
        // The write-back creates the fulfillment (booked outside the app, its job is queued by the write-back's
        // minute sweep); tracking starts with it.
        await page.goto(e2e.stack.adminAppUrl("/app/fulfillments"));
        const frame = page.frameLocator("#app-iframe");
        await expect.poll(() => frame.getByTestId("write-back-summary").textContent(), { timeout: 90_000 }).toBe("1 of 1 written to Shopify");

        offsetMs = 10 * 24 * 3_600_000;
        await page.goto(e2e.stack.adminAppUrl("/app/shipments"));
        const row = frame.getByTestId("tracked-shipment").filter({ hasText: shipment.orderName });
        await row.waitFor();
        await frame.getByRole("button", { name: "Check again now" }).click();
        // The page follows the pass by itself; the row turns Delivered.
        await expect.poll(() => row.getAttribute("data-state"), { timeout: 60_000 }).toBe("DELIVERED");
        const status = frame.getByRole("row").filter({ hasText: shipment.orderName }).getByTestId("tracking-status");
        expect(await status.textContent()).toContain("Delivered");
        expect(await frame.getByRole("tab", { name: /Delivered/ }).textContent()).toContain("Delivered (1)");
        const lastEvent = await frame.getByRole("row").filter({ hasText: shipment.orderName }).textContent();
        expect(lastEvent).toContain("Delivered");
        expect(lastEvent).toMatch(/\d+ days?/);
        await page.screenshot({ path: join(RESULTS_DIR, "tracking-dashboard.png"), fullPage: true });

        // Shopify's side: the order page in the local admin.
        await page.goto(`${e2e.stack.admin.url}/admin/orders/${parseGid(shipment.orderId)!.id}`);
        const fulfillment = page.getByTestId("fulfillment").filter({ hasText: shipment.trackingNumber });
        expect(await fulfillment.getAttribute("data-display-status")).toBe("DELIVERED");
        const events = await fulfillment.getByTestId("fulfillment-event").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-status")));
        expect(events[0]).toBe("DELIVERED");
        expect(events.at(-1)).toBe("CONFIRMED");
        expect(new Set(events.filter((status, index) => events[index - 1] === status))).toEqual(new Set());
        await page.screenshot({ path: join(RESULTS_DIR, "tracking-admin-order.png"), fullPage: true });
      }),
    180_000,
  );
});
