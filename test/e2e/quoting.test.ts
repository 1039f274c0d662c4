import { join } from "node:path";
import type { FrameLocator, Locator } from "playwright-core";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db/db-client.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStackAccount } from "../support/account.js";
import { formatMoney, sumAmounts } from "../../app/shipping/money.js";
import { createShippingClient } from "../../shipping-api/client.js";
import { quoteFromTheAdmin, quoteOrdersFromTheAdmin, splitIntoPackages, waitUntilQuoted } from "./flows.js";
import { RESULTS_DIR, useStackInBrowser, withPage } from "./harness.js";

const e2e = useStackInBrowser();
let db: PrismaClient;

// Past onboarding: the shop's Shipping API account (on the stack's service) and settings with a sender.
let credentials: Awaited<ReturnType<typeof connectStackAccount>>;
const account = () => createShippingClient({ baseUrl: e2e.stack.service.url, credentials: { kind: "customer", ...credentials } });
beforeAll(async () => {
  credentials = await connectStackAccount(e2e.stack);
  db = createPrismaClient(e2e.stack.app.databaseUrl);
});
afterAll(() => db?.$disconnect());

const SELECTED = 25;

interface OrderOnPage {
  name: string;
  shipments: Array<{ status: string; country: string; rates: number; reason: string; failure: string }>;
  blocked: string[];
}

/** Resolves once the first shipment in `scope` (the rates page, or one order on it) is quoted: a fixed blocked order quoted again in its run. */
async function shipmentQuoted(scope: FrameLocator | Locator): Promise<void> {
  await expect
    .poll(
      () =>
        scope
          .getByTestId("quote-shipment")
          .first()
          .getAttribute("data-status")
          .catch(() => null),
      { timeout: 30_000 },
    )
    .toBe("QUOTED");
}

async function readOrder(order: Locator): Promise<OrderOnPage> {
  const shipments = [];
  for (const shipment of await order.getByTestId("quote-shipment").all()) {
    shipments.push({
      status: (await shipment.getAttribute("data-status")) ?? "",
      country: (await shipment.getAttribute("data-destination-country")) ?? "",
      rates: Number(await shipment.getAttribute("data-rate-count")),
      reason:
        (await shipment
          .getByTestId("pick-reason")
          .textContent()
          .catch(() => null)) ?? "",
      failure: (await shipment.getByTestId("failed-reason").allTextContents()).join(" "),
    });
  }
  return {
    name: (await order.getAttribute("data-order-name")) ?? "",
    shipments,
    blocked: (await order.getByTestId("blocked-reason").allTextContents()).map((text) => text.trim()),
  };
}

describe("quoting orders selected in the admin", () => {
  it(`GIVEN ${SELECTED} seeded orders selected in the local admin WHEN “Create shipping labels” is clicked THEN the rates page shows rates for every shippable one and a reason for each other`, () =>
    withPage(e2e.browser.context, async (page) => {
      const { chosen, frame } = await quoteOrdersFromTheAdmin(e2e, page, SELECTED);

      const orders = await Promise.all((await frame.getByTestId("quote-order").all()).map(readOrder));
      expect(orders.map((order) => order.name).sort()).toEqual([...chosen].sort());
      for (const order of orders) {
        // Every order is accounted for: quoted, or not, with a reason.
        expect(order.shipments.length + order.blocked.length, order.name).toBeGreaterThan(0);
        for (const reason of order.blocked) expect(reason, order.name).toMatch(/\w{3,}.*\./);
        for (const shipment of order.shipments) {
          // The seeded addresses and products are valid: every shipment that is quoted gets rates.
          expect(shipment.status, `${order.name}: ${shipment.failure}`).toBe("QUOTED");
          expect(shipment.rates, order.name).toBeGreaterThan(0);
          expect(shipment.reason, order.name).toMatch(/^(Cheapest of \d+ rates|The only rate offered)$/);
        }
      }
      const quoted = orders.flatMap((order) => order.shipments);
      expect(quoted.some((shipment) => shipment.country === "US")).toBe(true);
      expect(quoted.some((shipment) => shipment.country !== "US")).toBe(true);
      expect(orders.some((order) => order.blocked.length > 0)).toBe(true);
      await expect.poll(() => frame.getByTestId("carrier-totals").getByRole("row").count()).toBeGreaterThan(1);
      await page.screenshot({ path: join(RESULTS_DIR, "quoting-rates.png"), fullPage: true });

      // One compact row per order: the picked carrier by name (never a code), its total and speed, weights with units.
      const first = frame.getByTestId("quote-shipment").first();
      expect(await first.getByTestId("picked-carrier").textContent()).not.toMatch(/^[A-Z_]+$/);
      expect(await first.getByTestId("picked-service").textContent()).not.toMatch(/_/);
      expect(await first.getByTestId("picked-total").textContent()).toMatch(/^\$\d/);
      expect(await first.getByTestId("shipment-weight").textContent()).toMatch(/^\d+(\.\d+)? (lb|oz|kg|g)$/);
      expect(await frame.getByTestId("rate-option").count(), "all rates stay folded until asked for").toBe(0);
      const pickedTotals = await frame.locator('[data-testid="quote-shipment"][data-status="QUOTED"]').getByTestId("picked-total").allTextContents();
      expect(await frame.getByTestId("grand-total").textContent()).toBe(
        formatMoney(sumAmounts(pickedTotals.map((total) => total.replace(/[$,]/g, ""))), "USD"),
      );

      // Filters: International shows only the orders going abroad; All shows every order again.
      await frame.getByRole("button", { name: /^International \(\d+\)$/ }).click();
      await expect
        .poll(
          async () =>
            new Set(
              await frame.getByTestId("quote-shipment").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-destination-country") === "US")),
            ),
        )
        .toEqual(new Set([false]));
      await frame.getByRole("button", { name: /^All \(\d+\)$/ }).click();
      await expect.poll(() => frame.getByTestId("quote-order").count()).toBe(SELECTED);

      // The merchant prefers another rate for the first quoted shipment; Apply rule (replacing their picks) undoes it.
      const quotedOrder = frame
        .getByTestId("quote-order")
        .filter({ has: frame.getByTestId("quote-shipment") })
        .first();
      const shipment = quotedOrder.getByTestId("quote-shipment").first();
      await quotedOrder.getByRole("button", { name: /^All \d+ rates? of / }).click();
      const other = shipment.locator('[data-testid="rate-option"][data-selected="false"]').first();
      // Polaris draws its own radio over the input.
      await other.getByRole("radio").click({ force: true });
      await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toBe("Chosen by you");
      await frame.getByLabel("Also replace rates you chose").check();
      await frame.getByRole("button", { name: "Apply rule" }).click();
      await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toMatch(/^(Cheapest of \d+ rates|The only rate offered)$/);
      await page.locator(".toast", { hasText: "Rule applied" }).waitFor();
    }));

  it("GIVEN quote runs WHEN Rates is opened THEN the latest run is listed and opens its rates page", () =>
    withPage(e2e.browser.context, async (page) => {
      await page.goto(e2e.stack.adminAppUrl("/app/quotes"));
      const frame = page.frameLocator("#app-iframe");
      await frame.getByTestId("quote-run-link").first().click();
      await waitUntilQuoted(frame);
      expect(await frame.getByTestId("quote-order").count()).toBe(SELECTED);
    }));

  it("GIVEN a domestic order whose customer paid for UPS 2nd Day Air WHEN the cheapest rule picks a slower service THEN the rates page flags it beside the customer's choice, and the rule “match the customer's choice” picks an express service instead", () =>
    withPage(e2e.browser.context, async (page) => {
      // The seed's express orders, as the app's mirror read them from the local admin.
      const express = await db.mirrorOrder.findMany({
        where: { shop: e2e.stack.shop, destinationCountry: "US", shippingLine: { contains: "UPS 2nd Day Air" } },
        select: { name: true, shippingLine: true },
      });
      expect(JSON.parse(express[0]?.shippingLine ?? "null")).toEqual({ title: "UPS 2nd Day Air", amount: "18.40", currency: "USD" });
      const names = new Set(express.map((order) => order.name));
      const { frame } = await quoteFromTheAdmin(e2e, page, async (rows) => rows.filter((name) => names.has(name)).slice(0, 1));
      const order = frame.getByTestId("quote-order").first();
      expect(await order.getByTestId("paid-shipping").textContent()).toBe("UPS 2nd Day Air · $18.40");
      const shipment = order.getByTestId("quote-shipment").first();
      await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toMatch(/^Cheapest of \d+ rates$/);
      expect(await shipment.getByTestId("choice-flag").getAttribute("data-slower")).toBe("true");
      expect(await shipment.getByTestId("choice-flag").textContent()).toMatch(/slower \([a-z0-9-]+\) than the customer.s UPS 2nd Day Air \(express\)/);
      await frame.getByRole("button", { name: /^Needs attention \(1\)$/ }).waitFor();
      const runUrl = page.url();

      // Settings: the new rule, with a ceiling.
      await page.goto(e2e.stack.adminAppUrl("/app/settings"));
      await frame.getByText("Match the customer's choice, up to a price", { exact: true }).click();
      await frame.getByLabel("Price ceiling", { exact: true }).fill("100");
      await page.getByTestId("save-bar").getByRole("button", { name: "Save" }).click();
      await page.locator(".toast", { hasText: "Settings saved" }).waitFor();

      await page.goto(runUrl);
      await waitUntilQuoted(frame);
      expect(await frame.getByTestId("rule-words").textContent()).toBe(
        "the service nearest the customer's choice at checkout, up to $100.00, else the cheapest",
      );
      await frame.getByRole("button", { name: "Apply rule" }).click();
      await page.locator(".toast", { hasText: "Rule applied" }).waitFor();
      await expect.poll(() => shipment.getByTestId("pick-reason").textContent()).toMatch(/^Matches the customer's UPS 2nd Day Air \(express\): express/);
      expect(await shipment.getByTestId("picked-speed").textContent()).toBe("Express (by service name)");
      expect(await shipment.locator('[data-testid="choice-flag"][data-slower="true"]').count()).toBe(0);
      await page.screenshot({ path: join(RESULTS_DIR, "rates-customer-choice.png"), fullPage: true });
    }));

  it("GIVEN a quoted domestic order WHEN its package weight is changed on the rates page THEN it is re-quoted at the new weight; split into two packages it is booked alone with two pieces", () =>
    withPage(e2e.browser.context, async (page) => {
      // An order the first test quoted without trouble, going within the US.
      const quoted = await db.shipment.findMany({
        where: { shop: e2e.stack.shop, quoteStatus: "QUOTED", bookingStatus: "NONE", batchId: null },
        select: { orderName: true, request: true },
      });
      const names = new Set(
        quoted.filter((row) => (JSON.parse(row.request) as { receiver: { country: string } }).receiver.country === "US").map((row) => row.orderName),
      );
      const { frame } = await quoteFromTheAdmin(e2e, page, async (rows) => rows.filter((name) => names.has(name)).slice(-1));
      const shipment = frame.getByTestId("quote-shipment").first();
      await expect.poll(() => shipment.getAttribute("data-status")).toBe("QUOTED");
      const before = await shipment.getByTestId("picked-total").textContent();
      const amount = (text: string | null) => Number((text ?? "").replace(/[$,]/g, ""));

      // A weight the merchant cannot mean is refused on its field, in words.
      await shipment.getByRole("button", { name: /^Change the packages of / }).click();
      const editor = shipment.getByTestId("packages-editor");
      await editor.getByLabel("Box 1 weight").fill("0");
      await editor.getByRole("button", { name: "Re-quote with these boxes" }).click();
      await editor.getByText("Box 1: weight must be more than 0").waitFor();

      // 40 lb: the same service, re-quoted, costs more.
      await editor.getByLabel("Box 1 weight").fill("40");
      await editor.getByRole("button", { name: "Re-quote with these boxes" }).click();
      await expect.poll(() => shipment.getByTestId("shipment-weight").textContent()).toMatch(/^40(\.0+)? lb$/);
      await expect.poll(async () => amount(await shipment.getByTestId("picked-total").textContent())).toBeGreaterThan(amount(before));

      // Split into two packages of 20 lb, then book the order on its own.
      await splitIntoPackages(shipment, ["20", "20"]);
      const id = (await shipment.getAttribute("data-shipment-id"))!;
      const stored = await db.shipment.findUniqueOrThrow({ where: { id } });
      expect((JSON.parse(stored.request) as { pieces: Array<{ weight: string }> }).pieces.map((piece) => piece.weight)).toEqual(["20", "20"]);
      expect(JSON.parse(stored.packages ?? "[]")).toHaveLength(2);

      await frame.getByTestId("quote-order").first().getByRole("link", { name: "Book alone" }).click();
      // The booking page shows the two packages, which it can change too.
      await expect.poll(() => frame.getByTestId("booking-packages").textContent()).toMatch(/^[^+]+, 20(\.0+)? lb \+ [^+]+, 20(\.0+)? lb$/);
      await frame.getByRole("button", { name: "Change packages" }).waitFor();
      const book = frame.getByRole("button", { name: /^Book shipment for / });
      await book.click();
      await frame.getByTestId("booked-tracking").waitFor({ timeout: 30_000 });
      const booked = await db.shipment.findUniqueOrThrow({ where: { id } });
      expect(booked.bookingStatus).toBe("BOOKED");
      const found = await account().searchShipments({ body: { keyword: booked.bookNumber! } });
      expect(found.ok && found.value.shipments[0]?.pieces.map((piece) => Number(piece.weight))).toEqual([20, 20]);
      await page.screenshot({ path: join(RESULTS_DIR, "rates-repacked-booked.png"), fullPage: true });
    }));

  it("GIVEN an international order blocked for a missing HS code WHEN the merchant types it on the rates page THEN a bad code is refused on its field, and a good one quotes the order", () =>
    withPage(e2e.browser.context, async (page) => {
      // The seed's Sticker Pack has no HS code in Shopify; an order of it going abroad (and nothing weightless).
      const candidates = await db.mirrorOrder.findMany({
        where: { shop: e2e.stack.shop, NOT: { destinationCountry: "US" }, fulfillmentOrders: { some: { lines: { contains: "Sticker Pack" } } } },
        select: { name: true, fulfillmentOrders: { select: { lines: true } } },
      });
      const names = new Set(
        candidates.filter((order) => order.fulfillmentOrders.every((fo) => !fo.lines.includes("Enamel Pin Set"))).map((order) => order.name),
      );
      const { frame } = await quoteFromTheAdmin(e2e, page, async (rows) => rows.filter((name) => names.has(name)).slice(0, 1));
      const order = frame.getByTestId("quote-order").first();
      await order.locator('[data-testid="blocked-reason"][data-code="MISSING_HS_CODE"]').waitFor();
      const form = order.getByTestId("line-details-form");
      await form.getByLabel("HS code of Sticker Pack").fill("stickers");
      await form.getByRole("button", { name: /^Save and quote / }).click();
      await form.getByText("Sticker Pack: HS code must be 6 to 10 digits, like 6912.00 or 691200").waitFor();

      await form.getByLabel("HS code of Sticker Pack").fill("4911.99");
      await form.getByRole("button", { name: /^Save and quote / }).click();
      await shipmentQuoted(frame);
      expect(await frame.getByTestId("blocked-reason").count()).toBe(0);
      const shipmentId = (await frame.getByTestId("quote-shipment").first().getAttribute("data-shipment-id"))!;
      const stored = await db.shipment.findUniqueOrThrow({ where: { id: shipmentId } });
      const items = (JSON.parse(stored.request) as { commercialInvoice: { items: Array<{ description: string; htsNumber: string }> } }).commercialInvoice.items;
      expect(items.find((item) => item.description.includes("Sticker Pack"))?.htsNumber).toBe("491199");
    }));

  it("GIVEN two domestic orders blocked for the weightless Enamel Pin Set WHEN the merchant types its weight with “Also save this weight to the product in Shopify” ticked, declines editing products for the first and allows it for the second THEN both are quoted, the page says the first left the product as it was, and the local admin's product has the second's weight", () =>
    withPage(e2e.browser.context, async (page) => {
      // Open, shipped from one location, to a US address with a five-digit ZIP: blocked for the pins' weight alone.
      const candidates = await db.mirrorOrder.findMany({
        where: { shop: e2e.stack.shop, destinationCountry: "US", fulfillmentOrders: { some: { status: "OPEN", lines: { contains: "Enamel Pin Set" } } } },
        select: { name: true, shippingAddress: true, _count: { select: { fulfillmentOrders: true } } },
      });
      const names = new Set(
        candidates
          .filter((order) => order._count.fulfillmentOrders === 1 && /^\d{5}$/.test((JSON.parse(order.shippingAddress ?? "{}") as { zip?: string }).zip ?? ""))
          .map((order) => order.name),
      );
      expect(e2e.stack.admin.grantedScopes()).not.toContain("write_products");
      const { chosen, frame } = await quoteFromTheAdmin(e2e, page, async (rows) => rows.filter((name) => names.has(name)).slice(0, 2));
      expect(chosen).toHaveLength(2);

      // The product in the local admin, read through its GraphQL: the pins' variant weight.
      const pinsWeight = async () => {
        const answer = await e2e.stack.admin.graphql({
          query: `{ products(first: 30) { nodes { title variants(first: 2) { nodes { inventoryItem { measurement { weight { unit value } } } } } } } }`,
        });
        expect(answer.errors).toBeUndefined();
        type Products = { products: { nodes: Array<{ title: string; variants: { nodes: Array<{ inventoryItem: { measurement: { weight: unknown } } }> } }> } };
        const pins = (answer.data as Products).products.nodes.find((product) => product.title === "Enamel Pin Set")!;
        return pins.variants.nodes.map((variant) => variant.inventoryItem.measurement.weight);
      };
      // Types the weight, ticks the box, saves, and answers the admin's permission dialog (App Bridge's scopes.request).
      const saveToProduct = async (name: string, weight: string, answer: "Allow" | "Decline", screenshots?: string) => {
        const order = frame.locator(`[data-testid="quote-order"][data-order-name="${name}"]`);
        await order.locator('[data-testid="blocked-reason"][data-code="ZERO_WEIGHT"]').waitFor();
        const form = order.getByTestId("line-details-form");
        await form.getByLabel("Weight of one Enamel Pin Set").fill(weight);
        await form.getByLabel("Also save this weight to the product in Shopify").check();
        if (screenshots) await page.screenshot({ path: join(RESULTS_DIR, `${screenshots}-ticked.png`), fullPage: true });
        await form.getByRole("button", { name: /^Save and quote / }).click();
        const dialog = page.getByRole("dialog", { name: "Allow Consign more access?" });
        await dialog.getByText("edit products (write_products)", { exact: false }).waitFor();
        if (screenshots) await page.screenshot({ path: join(RESULTS_DIR, `${screenshots}-permission.png`), fullPage: true });
        await dialog.getByRole("button", { name: answer }).click();
        await shipmentQuoted(order);
      };

      await saveToProduct(chosen[0]!, "0.3", "Decline", "rates-weight-to-product");
      await frame
        .getByTestId("action-warning")
        .getByText("Kept for this order only; the product in Shopify was not changed. You did not allow Consign to edit products.", { exact: false })
        .waitFor();
      await page.screenshot({ path: join(RESULTS_DIR, "rates-weight-declined.png"), fullPage: true });
      expect(e2e.stack.admin.grantedScopes()).not.toContain("write_products");
      expect(await pinsWeight()).toEqual([{ unit: "GRAMS", value: 0 }]);

      await saveToProduct(chosen[1]!, "0.25", "Allow");
      expect(e2e.stack.admin.grantedScopes()).toContain("write_products");
      expect(await frame.getByTestId("action-warning").count()).toBe(0);
      // The variant weighs what was typed, in the shop's unit.
      expect(await pinsWeight()).toEqual([{ unit: "POUNDS", value: 0.25 }]);
    }));
});
