import { describe, expect, it } from "vitest";
import type { MirroredOrder } from "../../app/orders/order-node";
import { buildAddress, buildFulfillmentOrder, buildLine, buildOrder } from "../factories/orders";
import { useAppEnvironment } from "../support/app-env";

useAppEnvironment();
const { default: prisma } = await import("../../app/db/db.server");
const { saveMirroredOrders } = await import("../../app/orders/mirror-store.server");
const { listOrdersToShip, matchingShippableOrderIds, orderListFilters } = await import("../../app/orders/orders-to-ship.server");
const { lastQuoteBlockers } = await import("../../app/quoting/last-quote.server");

const SHOP = "filters.myshopify.com";
const NOW = new Date("2026-11-21T12:00:00Z");
const DAY = 24 * 60 * 60 * 1000;

function mirrored(number: number, overrides: { country?: string; tags?: string[]; ageDays?: number; onHold?: boolean; shipped?: boolean }): MirroredOrder {
  const order = buildOrder({
    id: `gid://shopify/Order/${number}`,
    name: `#${number}`,
    shippingAddress: buildAddress({ countryCode: overrides.country ?? "US", provinceCode: overrides.country === "US" || !overrides.country ? "NY" : null }),
    fulfillmentOrders: [
      buildFulfillmentOrder({
        id: `gid://shopify/FulfillmentOrder/${number}`,
        ...(overrides.onHold ? { status: "ON_HOLD", holds: [{ reason: "AWAITING_PAYMENT", reasonNotes: null }], supportedActions: ["RELEASE_HOLD"] } : {}),
        ...(overrides.shipped ? { status: "CLOSED", supportedActions: [] } : {}),
      }),
    ],
  });
  return {
    ...order,
    customerId: null,
    createdAt: new Date(NOW.getTime() - (overrides.ageDays ?? 0) * DAY).toISOString(),
    updatedAt: null,
    cancelledAt: null,
    tags: overrides.tags ?? [],
    displayFulfillmentStatus: "UNFULFILLED",
    shippingLine: null,
    note: null,
    customAttributes: [],
    fulfillmentOrders: order.fulfillmentOrders.map((fo) => ({ ...fo, assignedLocationId: "gid://shopify/Location/1" })),
  };
}

await saveMirroredOrders({ db: prisma, shop: SHOP, now: () => NOW }, [
  mirrored(1, { tags: ["wholesale"], ageDays: 0 }),
  mirrored(2, { country: "GB", tags: ["wholesale", "gift"], ageDays: 2 }),
  mirrored(3, { country: "CA", tags: ["wholesale gift"], ageDays: 8 }),
  mirrored(4, { ageDays: 4, onHold: true }),
  // Shipped since the last full sync: a fulfillments/create webhook refreshed it with its fulfillment order closed.
  mirrored(5, { ageDays: 1, shipped: true }),
]);
// Order 2 has rates picked and not booked; order 3 was quoted and booked already.
for (const [orderId, bookingStatus] of [
  ["gid://shopify/Order/2", "NONE"],
  ["gid://shopify/Order/3", "BOOKED"],
] as const) {
  await prisma.shipment.create({
    data: {
      shop: SHOP,
      orderId,
      orderName: "#x",
      fulfillmentOrderId: orderId.replace("Order", "FulfillmentOrder"),
      lines: "[]",
      request: "{}",
      quoteStatus: "QUOTED",
      bookingStatus,
    },
  });
}

const base = { scope: "all", quoted: "any", homeCountry: "US", now: NOW, weightUnit: "POUNDS" } as const;
const ctx = { db: prisma, shop: SHOP };
const names = async (filters: Partial<Parameters<typeof listOrdersToShip>[1]>) =>
  (await listOrdersToShip(ctx, { ...base, page: 1, ...filters })).rows.map((row) => row.name);

describe("Orders to ship: filters", () => {
  it("GIVEN no filter THEN every order with something left to ship is listed newest first, with the tags and countries to filter by", async () => {
    const list = await listOrdersToShip(ctx, { ...base, page: 1 });
    expect(list.rows.map((row) => row.name)).toEqual(["#1", "#2", "#4", "#3"]);
    expect(list.total).toBe(4);
    expect(list.tags).toEqual(["gift", "wholesale", "wholesale gift"]);
    expect(list.countries).toEqual([
      { code: "CA", name: "Canada" },
      { code: "GB", name: "United Kingdom" },
      { code: "US", name: "United States" },
    ]);
    expect(list.rows.find((row) => row.name === "#4")).toMatchObject({ shippable: false, reason: expect.stringContaining("hold") });
  });

  it("GIVEN a tag THEN only orders carrying exactly that tag are listed", async () => {
    expect(await names({ tag: "wholesale" })).toEqual(["#1", "#2"]);
    expect(await names({ tag: "gift" })).toEqual(["#2"]);
  });

  it("GIVEN a search in other capitals than the order's THEN it finds the same orders, on SQLite and PostgreSQL alike", async () => {
    const all = ["#1", "#2", "#4", "#3"];
    expect(await names({ q: "ada@example" })).toEqual(all);
    expect(await names({ q: "ADA@Example.COM" })).toEqual(all);
    expect(await names({ q: "nobody@example" })).toEqual([]);
  });

  it("GIVEN an age THEN only orders older than that are listed", async () => {
    expect(await names({ age: "3" })).toEqual(["#4", "#3"]);
    expect(await names({ age: "7" })).toEqual(["#3"]);
  });

  it("GIVEN already quoted / not quoted THEN orders with rates waiting to be booked are told apart", async () => {
    expect(await names({ quoted: "quoted" })).toEqual(["#2"]);
    expect(await names({ quoted: "not-quoted" })).toEqual(["#1", "#4", "#3"]);
    const list = await listOrdersToShip(ctx, { ...base, page: 1 });
    expect(list.rows.filter((row) => row.quoted).map((row) => row.name)).toEqual(["#2"]);
  });

  it("GIVEN domestic or international THEN orders are split by the shop's country", async () => {
    expect(await names({ scope: "domestic" })).toEqual(["#1", "#4"]);
    expect(await names({ scope: "international", tag: "wholesale" })).toEqual(["#2"]);
  });

  it("GIVEN a shop with no country on file WHEN it filters domestic THEN its home country is taken to be the US", async () => {
    const filters = orderListFilters({ scope: "domestic", quoted: "any" }, { countryCode: null }, NOW);
    expect((await listOrdersToShip(ctx, { ...filters, page: 1, weightUnit: "POUNDS" })).rows.map((row) => row.name)).toEqual(["#1", "#4"]);
    const british = orderListFilters({ scope: "domestic", quoted: "any" }, { countryCode: "GB" }, NOW);
    expect((await listOrdersToShip(ctx, { ...british, page: 1, weightUnit: "POUNDS" })).rows.map((row) => row.name)).toEqual(["#2"]);
  });

  it("GIVEN “all matching orders” THEN every shippable match is selected across pages, orders on hold left out", async () => {
    expect(await matchingShippableOrderIds(ctx, { ...base })).toEqual(["gid://shopify/Order/1", "gid://shopify/Order/2", "gid://shopify/Order/3"]);
    expect(await matchingShippableOrderIds(ctx, { ...base, age: "1" })).toEqual(["gid://shopify/Order/2", "gid://shopify/Order/3"]);
  });
});

describe("Orders to ship: what each row says", () => {
  const shop = "rows.myshopify.com";
  const rowsCtx = { db: prisma, shop };
  const order = (number: number, overrides: Partial<MirroredOrder>): MirroredOrder => ({
    ...mirrored(number, {}),
    id: `gid://shopify/Order/${number}`,
    name: `#${number}`,
    ...overrides,
  });
  const unweighed = buildLine({ id: "gid://shopify/FulfillmentOrderLineItem/1201", productTitle: "Linen Apron", weight: null });

  it("GIVEN orders with a customer, paid shipping and weighed items THEN each row names the customer, the paid service and price, and the items' weight in the shop's unit", async () => {
    await saveMirroredOrders({ db: prisma, shop, now: () => NOW }, [
      order(1101, {
        shippingAddress: buildAddress({ name: "Grace Hopper" }),
        shippingLine: { title: "Priority Mail", amount: "12.50", currency: "USD" },
        fulfillmentOrders: [
          {
            ...buildFulfillmentOrder({
              id: "gid://shopify/FulfillmentOrder/1101",
              lines: [
                buildLine({ remainingQuantity: 2, weight: { unit: "GRAMS", value: 350 } }),
                buildLine({ weight: { unit: "KILOGRAMS", value: 0.15 } }),
                // A gift card is not in the parcel: it weighs nothing and needs no weight.
                buildLine({ productTitle: "Gift Card", requiresShipping: false, weight: null }),
              ],
            }),
            assignedLocationId: "gid://shopify/Location/1",
          },
        ],
      }),
      order(1102, {
        shippingAddress: buildAddress({ name: null, firstName: null, lastName: null }),
        email: "buyer@example.com",
        fulfillmentOrders: [{ ...buildFulfillmentOrder({ id: "gid://shopify/FulfillmentOrder/1102", lines: [unweighed] }), assignedLocationId: null }],
      }),
    ]);
    const rows = (await listOrdersToShip(rowsCtx, { ...base, page: 1, weightUnit: "GRAMS" })).rows;
    const [grace, buyer] = ["#1101", "#1102"].map((name) => rows.find((row) => row.name === name)!);
    expect(grace).toMatchObject({ customer: "Grace Hopper", shippingLine: { title: "Priority Mail", amount: "12.50", currency: "USD" }, weight: "850 g" });
    expect(buyer).toMatchObject({ customer: "buyer@example.com", shippingLine: null, weight: null });
    expect((await listOrdersToShip(rowsCtx, { ...base, page: 1, weightUnit: "OUNCES" })).rows.find((row) => row.name === "#1101")?.weight).toBe("29.99 oz");

    // The weight the merchant typed for the order's unweighed item (kept for the order) counts.
    await prisma.orderCustoms.create({
      data: { shop, orderId: "gid://shopify/Order/1102", lines: JSON.stringify({ [unweighed.id]: { weight: { value: 1.5, unit: "KILOGRAMS" } } }) },
    });
    expect((await listOrdersToShip(rowsCtx, { ...base, page: 1, weightUnit: "GRAMS" })).rows.find((row) => row.name === "#1102")?.weight).toBe("1500 g");
  });

  it("GIVEN an order blocked in its last quote and one blocked before but quoted since THEN only the first has its reasons, as the rates page lists them", async () => {
    const [older, newer] = await Promise.all(
      [1, 2].map((hour) =>
        prisma.quoteRun.create({ data: { shop, status: "COMPLETED", orderIds: "[]", startedAt: new Date(NOW.getTime() + hour * 60 * 60 * 1000) } }),
      ),
    );
    const issues = (message: string) => JSON.stringify([{ code: "ZERO_WEIGHT", message }]);
    await prisma.blockedOrder.createMany({
      data: [
        { runId: older!.id, orderId: "gid://shopify/Order/1101", orderName: "#1101", issues: issues("No weight for Ceramic mug.") },
        { runId: older!.id, orderId: "gid://shopify/Order/1102", orderName: "#1102", issues: issues("No weight for Linen Apron, from the older run.") },
        {
          runId: newer!.id,
          orderId: "gid://shopify/Order/1102",
          orderName: "#1102",
          issues: JSON.stringify([
            {
              code: "ZERO_WEIGHT",
              message: "No weight for Linen Apron. Type its weight for this order on the Rates page, or set it on the product in Shopify.",
            },
            { code: "MISSING_HS_CODE", message: "International shipments need an HS code for Linen Apron. Add it to the product in Shopify." },
          ]),
        },
      ],
    });
    await prisma.shipment.create({
      data: {
        shop,
        runId: newer!.id,
        orderId: "gid://shopify/Order/1101",
        orderName: "#1101",
        fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1101",
        lines: "[]",
        request: "{}",
        quoteStatus: "QUOTED",
      },
    });
    expect(await lastQuoteBlockers(rowsCtx, ["gid://shopify/Order/1101", "gid://shopify/Order/1102", "gid://shopify/Order/1103"])).toEqual(
      new Map([
        [
          "gid://shopify/Order/1102",
          [
            "No weight for Linen Apron. Type its weight for this order on the Rates page, or set it on the product in Shopify.",
            "International shipments need an HS code for Linen Apron. Add it to the product in Shopify.",
          ],
        ],
      ]),
    );
    // Another shop's runs are not this shop's.
    expect(await lastQuoteBlockers({ db: prisma, shop: SHOP }, ["gid://shopify/Order/1102"])).toEqual(new Map());
  });
});
