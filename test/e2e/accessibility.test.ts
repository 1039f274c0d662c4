import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { PrismaClient } from "@prisma/client";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { connectShop, quoteOrdersFromTheAdmin } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

// axe-core over the app's pages as a merchant reaches them in the local admin's frame, with real data on each:
// a critical or serious violation fails the test, naming the rule, the page and the elements.
const e2e = useStackInBrowser();
let db: PrismaClient | undefined;
afterAll(() => db?.$disconnect());

interface Violation {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The app's page (inside `#app-iframe`) checked by axe at WCAG 2.1 A and AA and axe's best practices. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  const results = await new AxeBuilder({ page }).include("#app-iframe").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? "",
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => JSON.stringify(node.target)),
    }));
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(RESULTS_DIR, `a11y-${name}.png`), fullPage: true });
  const frame = page.frameLocator("#app-iframe");
  // Every page has a main landmark and a document title of its own.
  await frame.locator("main").first().waitFor();
  const app = await (await page.locator("#app-iframe").elementHandle())?.contentFrame();
  const title = await app?.title();
  expect(title, `${name}: the document title`).toMatch(/^.+ · Consign$/);
  expect(await seriousViolations(page), `${name}: critical or serious accessibility violations`).toEqual([]);
}

describe("accessibility of the app's pages", () => {
  it(
    "GIVEN a shop with quoted orders, a booked batch and shipments WHEN axe checks Orders to ship, Rates, the batch, Shipments, Overview, Settings and a single booking THEN none has a critical or serious violation, and each has a title and a main landmark",
    () =>
      withPage(e2e.browser.context, async (page) => {
        await page.setViewportSize({ width: 1280, height: 900 });
        db = (await connectShop(e2e)).db;
        const { frame } = await quoteOrdersFromTheAdmin(e2e, page, 4);
        await expectAccessible(page, "rates");

        // A batch of two of them, booked.
        await page.goto(e2e.stack.adminAppUrl("/app/batches/new"));
        const candidates = frame.getByRole("row").filter({ has: frame.getByTestId("candidate-order") });
        await candidates.first().waitFor();
        for (let index = 0; index < 2; index++) await candidates.nth(index).getByRole("checkbox").click({ force: true });
        await frame.getByRole("button", { name: "Create batch (2 orders)" }).click();
        await page.waitForURL(/\/admin\/apps\/consign\/app\/batches\/(?!new)\w+$/);
        await expect.poll(() => frame.getByTestId("batch-line").count(), { timeout: 60_000 }).toBe(2);
        await expectAccessible(page, "batch-open");
        await frame.getByRole("button", { name: "Book 2 labels" }).click();
        await frame.getByRole("button", { name: "Confirm: book 2 labels" }).click();
        await expect.poll(() => frame.locator('[data-testid="batch-line"][data-booking-status="BOOKED"]').count(), { timeout: 60_000 }).toBe(2);
        await frame.getByTestId("batch-progress").waitFor({ state: "detached" });
        await expectAccessible(page, "batch-booked");

        await page.goto(e2e.stack.adminAppUrl("/app"));
        await frame.getByTestId("shop-name").waitFor();
        await expectAccessible(page, "orders-to-ship");

        await page.goto(e2e.stack.adminAppUrl("/app/shipments"));
        await frame.getByRole("table").first().waitFor();
        await expectAccessible(page, "shipments");

        await page.goto(e2e.stack.adminAppUrl("/app/overview"));
        await frame.getByTestId("spend-by-carrier").waitFor();
        await expectAccessible(page, "overview");

        await page.goto(e2e.stack.adminAppUrl("/app/settings"));
        await frame.getByTestId("account-email").waitFor();
        await expectAccessible(page, "settings");

        // A quoted order not in the batch, on its own booking page.
        const unbooked = await db.shipment.findFirst({ where: { shop: e2e.stack.shop, bookingStatus: "NONE", batchId: null }, select: { orderId: true } });
        expect(unbooked, "a quoted order left to book on its own").not.toBeNull();
        await page.goto(e2e.stack.adminAppUrl(`/app/orders/${unbooked!.orderId.split("/").pop()}/book`));
        await frame.getByLabel("Service").waitFor();
        await expectAccessible(page, "single-booking");
      }),
    420_000,
  );
});
