import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid.js";
import type { ShippingClient } from "../../shipping-api/client.js";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments.js";
import { connectShop, openConsignOnce } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

/** The service's clock, moved on by the test: its tracking timelines unfold as days pass. */
let offsetMs = 0;
const e2e = useStackInBrowser({ serviceClock: { now: () => new Date(Date.now() + offsetMs) } });
let db: PrismaClient;
let account: ShippingClient;
afterAll(() => db?.$disconnect());

beforeAll(async () => {
  ({ db, account } = await connectShop(e2e));
});

describe("the customer's order status page", () => {
  it(
    "GIVEN a parcel Consign booked and tracked to delivery WHEN its customer opens their order status page THEN Consign's extension shows the carrier, Delivered and the timeline; another customer is refused",
    () =>
      withPage(e2e.browser.context, async (page) => {
        // Consign opened once (the mirror reads the open orders and whose they are), then a label booked for one of them.
        await openConsignOnce(e2e, page);
        const [booked] = await createBookedShipments({
          db,
          shop: e2e.stack.shop,
          client: account,
          fulfillmentOrders: shippableFulfillmentOrders(e2e.stack.admin.store, 1),
        });
        const orderNumber = parseGid(booked!.orderId)!.id;

        // Written back to Shopify by the write-back's sweep, then ten days of tracking.
        await page.goto(e2e.stack.adminAppUrl("/app/fulfillments"));
        const frame = page.frameLocator("#app-iframe");
        await expect.poll(() => frame.getByTestId("write-back-summary").textContent(), { timeout: 90_000 }).toBe("1 of 1 written to Shopify");
        offsetMs = 10 * 24 * 3_600_000;
        await page.goto(e2e.stack.adminAppUrl("/app/shipments"));
        const row = frame.getByTestId("tracked-shipment").filter({ hasText: booked!.orderName });
        await row.waitFor();
        await frame.getByRole("button", { name: "Check again now" }).click();
        await expect.poll(() => row.getAttribute("data-state"), { timeout: 60_000 }).toBe("DELIVERED");

        // The customer, signed in, on their order status page.
        await page.goto(`${e2e.stack.admin.url}/account/orders/${orderNumber}`);
        const owner = e2e.stack.admin.store.getCustomer(e2e.stack.admin.store.getOrder(orderNumber)!.customer_id!)!;
        expect(await page.getByTestId("signed-in-customer").textContent()).toContain(owner.email);
        expect(await page.getByTestId("not-their-order").count()).toBe(0);
        const card = page.getByTestId("delivery-card");
        expect(await card.textContent()).toContain(booked!.trackingNumber!);
        const tracking = page.frameLocator('[data-testid="customer-extension"] iframe');
        await tracking.getByText("Track your parcel").waitFor();
        const parcel = await tracking.locator("body").innerText();
        expect(parcel).toContain("National Postal Service");
        expect(parcel).toContain("Delivered");
        expect(parcel).toContain("Your parcel was delivered. If you cannot find it, contact the shop.");
        expect(parcel).toContain(`Tracking number ${booked!.trackingNumber}`);
        const events = await tracking.locator("s-list-item").allInnerTexts();
        const stored = await db.trackingEvent.count({ where: { shipmentId: booked!.id } });
        expect(events).toHaveLength(stored);
        expect(events[0]).toMatch(/^Delivered · /);
        expect(events.at(-1)).toMatch(/^Ready to ship · /);
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: join(RESULTS_DIR, "customer-order-status.png"), fullPage: true });

        // Another customer of the shop: the app answers 404 and the extension shows nothing of the parcel.
        const stranger = e2e.stack.admin.store.customerForEmail("not-the-buyer@example.com", { firstName: "Nora", lastName: "Other" });
        const refused = page.waitForResponse((response) => response.url().includes("/api/customer-tracking/"));
        await page.goto(`${e2e.stack.admin.url}/account/orders/${orderNumber}?customer=${stranger}`);
        expect((await refused).status()).toBe(404);
        await page.getByTestId("not-their-order").waitFor();
        const strangerView = page.frameLocator('[data-testid="customer-extension"] iframe');
        await expect.poll(() => strangerView.locator("s-spinner").count()).toBe(0);
        expect(await strangerView.locator("body").innerText()).not.toContain(booked!.trackingNumber!);
        expect(await strangerView.getByText("Track your parcel").count()).toBe(0);
        await page.screenshot({ path: join(RESULTS_DIR, "customer-order-status-other-customer.png"), fullPage: true });
      }),
    240_000,
  );
});
