import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectShop, quoteOrdersFromTheAdmin } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();
let db: PrismaClient;

beforeAll(async () => ({ db } = await connectShop(e2e)));
afterAll(() => db?.$disconnect());

const TAG = "shipped-by-consign";

/** The order's tags in the local admin's store. */
const tagsOf = (orderNumber: string) => JSON.parse(e2e.stack.admin.store.getOrder(Number(orderNumber))?.tags_json ?? "[]") as string[];

// Order tags (issue 25 §3; docs/decisions/043) in the embedded app: Settings' switch asks for the optional
// write_orders scope through App Bridge (the local admin's Allow/Decline dialog), and a label bought on the order's
// page puts the tag on the Shopify order, seen on the local admin's order page, and sends "Shipping label bought" to
// the workflow turned on in the local admin's Flow.
describe("order tags in Settings", () => {
  it("GIVEN tags off WHEN the merchant ticks “Tag orders in Shopify”, declines, then ticks again and allows, renames a tag and books a label THEN declined keeps tags off saying why, and the booked order carries the tag in Shopify", () =>
    withPage(e2e.browser.context, async (page) => {
      expect(e2e.stack.admin.grantedScopes()).not.toContain("write_orders");
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(e2e.stack.adminAppUrl("/app/settings"));
      const frame = page.frameLocator("#app-iframe");
      const enabled = frame.getByRole("checkbox", { name: "Tag orders in Shopify" });
      await enabled.waitFor();
      expect(await enabled.isChecked()).toBe(false);
      const dialog = page.getByRole("dialog", { name: "Allow Consign more access?" });

      // Declined: the box stays unticked, and the page says why and what to do.
      await frame.getByText("Tag orders in Shopify", { exact: true }).click();
      await dialog.getByText("edit orders (write_orders)", { exact: false }).waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "settings-order-tags-permission.png"), fullPage: true });
      await dialog.getByRole("button", { name: "Decline" }).click();
      await frame.getByText("Order tags stay off: you did not allow Consign to edit orders in Shopify.", { exact: false }).waitFor();
      expect(await enabled.isChecked()).toBe(false);
      expect(e2e.stack.admin.grantedScopes()).not.toContain("write_orders");
      await page.screenshot({ path: join(RESULTS_DIR, "settings-order-tags-declined.png"), fullPage: true });

      // Allowed: ticked; a tag Shopify cannot keep is refused on its field; renamed and saved.
      await frame.getByText("Tag orders in Shopify", { exact: true }).click();
      await dialog.getByRole("button", { name: "Allow" }).click();
      await expect.poll(() => enabled.isChecked()).toBe(true);
      expect(e2e.stack.admin.grantedScopes()).toContain("write_orders");
      expect(await frame.getByText("you did not allow Consign", { exact: false }).count()).toBe(0);
      const labelTag = frame.getByLabel("Tag when the label is bought");
      await labelTag.fill("shipped, by consign");
      const saveBar = page.getByTestId("save-bar");
      await saveBar.getByRole("button", { name: "Save" }).click();
      await frame.getByText("Tag when the label is bought must not contain a comma").first().waitFor();
      await labelTag.fill(TAG);
      await saveBar.getByRole("button", { name: "Save" }).click();
      await page.locator(".toast", { hasText: "Settings saved" }).waitFor();
      await saveBar.waitFor({ state: "hidden" });
      for (const width of [1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await frame.getByRole("heading", { name: "Order tags" }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(RESULTS_DIR, `settings-order-tags-${width}.png`), fullPage: true });
      }

      // A workflow in Shopify Flow uses "Shipping label bought" (docs/decisions/047): turned on in the local admin's Flow,
      // which calls the app's trigger lifecycle callback signed; without it the trigger would not be sent.
      await page.goto(`${e2e.stack.admin.url}/admin/flow`);
      const workflow = page.locator('[data-testid="flow-workflow"][data-handle="shipping-label-bought"]');
      await workflow.getByRole("button", { name: "Turn on a workflow" }).click();
      await page.locator('[data-testid="flow-workflow"][data-handle="shipping-label-bought"][data-on="true"]').waitFor();
      expect(await page.getByTestId("flow-workflow-refused").count()).toBe(0);
      await page.screenshot({ path: join(RESULTS_DIR, "local-admin-flow-workflow-on.png"), fullPage: true });

      // A label bought on the order's own page: the order-signals job tags the order in Shopify.
      await quoteOrdersFromTheAdmin(e2e, page, 6);
      const quoted = await db.shipment.findMany({ where: { shop: e2e.stack.shop, quoteStatus: "QUOTED", bookingStatus: "NONE" } });
      const domestic = quoted.find((row) => (JSON.parse(row.request) as { receiver: { country: string } }).receiver.country === "US");
      if (!domestic) throw new Error("no domestic order was quoted");
      const orderNumber = domestic.orderId.split("/").pop()!;
      expect(tagsOf(orderNumber)).not.toContain(TAG);
      await page.goto(e2e.stack.adminAppUrl(`/app/orders/${orderNumber}/book`));
      await frame.getByRole("button", { name: /^Book shipment for / }).click();
      await frame.getByTestId("booked-tracking").waitFor({ timeout: 30_000 });
      await expect.poll(() => tagsOf(orderNumber), { timeout: 30_000 }).toContain(TAG);

      // The order's page in Consign says what was written and sent.
      await page.goto(e2e.stack.adminAppUrl(`/app/orders/${orderNumber}/book`));
      const signal = frame.locator('[data-testid="order-signal"][data-fact="Label bought"]');
      await signal.getByText(`Tag “${TAG}” added`).waitFor();
      await signal.getByText("Flow trigger “Shipping label bought” sent").waitFor();
      for (const width of [1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await signal.scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(RESULTS_DIR, `order-signals-${width}.png`), fullPage: true });
      }

      await page.goto(`${e2e.stack.admin.url}/admin/orders/${orderNumber}`);
      await page.getByTestId("order-tags").getByTestId("order-tag").filter({ hasText: TAG }).waitFor();
      expect(await page.getByTestId("order-tag").allTextContents()).toEqual(expect.arrayContaining([TAG]));
    }));
});
