import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db/db-client.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseGid } from "../../devstore/gid.js";
import { fulfillmentOrderHold, fulfillmentOrderReleaseHold } from "../../devstore/store/fulfillment-ops.js";
import { createShippingClient } from "../../shipping-api/client.js";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments.js";
import { connectStackAccount } from "../support/account.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();
let db: PrismaClient;
let held: { orderName: string; fulfillmentOrderId: number; trackingNumber: string };
let trackingNumbers: string[] = [];

// Three labels booked (by another process, as the booking step leaves them); Shopify put one order on hold since.
beforeAll(async () => {
  const customer = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
  const store = e2e.stack.admin.store;
  const shipments = await createBookedShipments({
    db,
    shop: e2e.stack.shop,
    client: createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...customer } }),
    fulfillmentOrders: shippableFulfillmentOrders(store, 3),
  });
  trackingNumbers = shipments.map((shipment) => shipment.trackingNumber!);
  const onHold = shipments[1]!;
  held = { orderName: onHold.orderName, fulfillmentOrderId: parseGid(onHold.fulfillmentOrderId)!.id, trackingNumber: onHold.trackingNumber! };
  const hold = fulfillmentOrderHold(store, held.fulfillmentOrderId, { reason: "INCORRECT_ADDRESS", reasonNotes: "Apartment number missing" });
  expect(hold.ok).toBe(true);
});
afterAll(() => db?.$disconnect());

function fulfillmentsWithOurTracking(): number {
  const store = e2e.stack.admin.store;
  const rows = store.sql("SELECT number FROM tracking_info").all() as Array<{ number: string | null }>;
  return rows.filter((row) => row.number !== null && trackingNumbers.includes(row.number)).length;
}

describe("the Fulfillments page", () => {
  it(
    "GIVEN booked labels, one for an order now on hold WHEN the merchant opens Fulfillments THEN within the minute two are written to Shopify, the held one says why, and Retry after the release fulfils it",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await page.goto(e2e.stack.adminAppUrl("/app/fulfillments"));
        const frame = page.frameLocator("#app-iframe");
        const summary = frame.getByTestId("write-back-summary");
        // Booked outside the app, these were queued by no booking: the write-back's minute sweep queues them.
        await expect.poll(() => summary.textContent(), { timeout: 90_000 }).toBe("2 of 3 written to Shopify");

        await frame.getByText("1 order was not fulfilled").waitFor();
        const failed = frame.getByRole("row").filter({ hasText: held.orderName });
        expect(await failed.textContent()).toContain(
          `${held.orderName} is on hold in Shopify (incorrect address: “Apartment number missing”), so the fulfillment with tracking ${held.trackingNumber} was not created. Release the hold in Shopify, then choose Retry.`,
        );
        expect(fulfillmentsWithOurTracking()).toBe(2);
        await page.screenshot({ path: join(RESULTS_DIR, "fulfillments-failed.png"), fullPage: true });

        // The merchant releases the hold in Shopify and retries that order.
        expect(fulfillmentOrderReleaseHold(e2e.stack.admin.store, held.fulfillmentOrderId, null).ok).toBe(true);
        await failed.getByRole("button", { name: "Retry" }).click();
        await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe("3 of 3 written to Shopify");
        expect(await frame.getByText("1 order was not fulfilled").count()).toBe(0);
        expect(fulfillmentsWithOurTracking()).toBe(3);
        await page.screenshot({ path: join(RESULTS_DIR, "fulfillments-done.png"), fullPage: true });
      }),
    180_000,
  );
});
