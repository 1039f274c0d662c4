import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { PrismaClient, Shipment } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMoney, sumAmounts } from "../../app/shipping/money";
import { createPrismaClient } from "../../app/db/db-client.server";
import { createShippingClient } from "../../shipping-api/client.js";
import { createBookedShipments, shippableFulfillmentOrders } from "../factories/booked-shipments.js";
import { connectStackAccount } from "../support/account.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// The Shipping overview on real bookings: labels bought on the stack's Shipping API service (every carrier in
// turn) and recorded in the app's database as the booking step leaves them, read back through the page.
const e2e = useStackInBrowser();
let db: PrismaClient;
let booked: Shipment[];
/** carrierCode → the carrier's name in List Services. */
let carrierNames: Map<string, string>;

beforeAll(async () => {
  const customer = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
  const client = createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...customer } });
  booked = await createBookedShipments({ db, shop: e2e.stack.shop, client, fulfillmentOrders: shippableFulfillmentOrders(e2e.stack.admin.store, 6) });
  const services = await client.listServices();
  if (!services.ok) throw new Error("List Services failed");
  carrierNames = new Map(services.value.services.map((service) => [service.carrierCode, service.carrierLabel]));
});
afterAll(() => db?.$disconnect());

/** Spend per carrier as the database holds it: the booked rows' costs, summed exactly. */
async function spendByCarrierInDatabase(): Promise<Record<string, string>> {
  const rows = await db.shipment.findMany({ where: { shop: e2e.stack.shop, bookingStatus: "BOOKED" }, select: { carrierCode: true, shippingCost: true } });
  const groups = new Map<string, string[]>();
  for (const row of rows) groups.set(row.carrierCode!, [...(groups.get(row.carrierCode!) ?? []), row.shippingCost!]);
  return Object.fromEntries([...groups.entries()].map(([carrier, amounts]) => [carrier, sumAmounts(amounts)]));
}

describe("the Shipping overview", () => {
  it("GIVEN labels bought with four carriers WHEN the overview opens THEN spend by carrier matches the database, with a chart and totals, and the CSV export downloads the same figures", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(e2e.stack.adminAppUrl("/app/overview"));
      const frame = page.frameLocator("#app-iframe");
      const table = frame.getByTestId("spend-by-carrier");
      await table.waitFor();

      const expected = await spendByCarrierInDatabase();
      expect(Object.keys(expected)).toHaveLength(4);
      const shown = await table
        .getByTestId("spend-row")
        .evaluateAll((rows) => Object.fromEntries(rows.map((row) => [row.getAttribute("data-key"), row.getAttribute("data-spend")])));
      expect(shown).toEqual(expected);
      const total = sumAmounts(booked.map((shipment) => shipment.shippingCost!));
      expect(await frame.getByTestId("labels-bought").textContent()).toBe("6");
      expect(await frame.getByTestId("total-spend").textContent()).toBe(formatMoney(total, "USD"));
      // The chart beside the table is drawn (an SVG bar per carrier) once the page has hydrated.
      await expect.poll(() => frame.getByTestId("spend-by-carrier-chart").locator("svg").count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await page.screenshot({ path: join(RESULTS_DIR, "overview.png"), fullPage: true });

      const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), frame.getByRole("button", { name: "Export CSV" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^consign-overview-30d-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile((await download.path())!, "utf8");
      expect(csv.split("\r\n")[0]).toBe("Section,Name,Carrier code,Service code,Country code,Labels,Amount,Currency");
      expect(csv).toContain(`Total,Labels bought,,,,6,${total},USD`);
      for (const [carrier, spend] of Object.entries(expected)) {
        const labels = booked.filter((shipment) => shipment.carrierCode === carrier).length;
        expect(csv).toContain(`Spend by carrier,${carrierNames.get(carrier)},${carrier},,,${labels},${spend},USD`);
      }
      // The page names carriers as List Services does, never by code.
      const carrierCells = await table.getByTestId("spend-row").allTextContents();
      expect(carrierCells.sort()).toEqual(
        Object.keys(expected)
          .map((code) => carrierNames.get(code))
          .sort(),
      );
    }));
});
