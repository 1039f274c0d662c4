import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncOrderMirror } from "../support/mirror-sync";
import { contextOf } from "../factories/context";
import { domesticOrders, WEIGHTLESS_PRODUCT } from "../factories/mirrored-orders";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// "Also save this weight to the product in Shopify" through the real parts: the local admin (its orders read into
// the app's mirror, its productVariantsBulkUpdate holding the app to the scopes the merchant granted), the
// Shipping API service quoting the fixed orders, and the app's SQLite database.
const { harness, close } = await startServiceAndAdmin({ orders: 60, throttle: { bucketSize: 2000, restoreRate: 1000 }, scope: "read_orders" });
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { saveLineDetailsAndRequote } = await import("../../app/quoting/blocked-fix.server");
const { loadQuoteRunView } = await import("../../app/quoting/run-view.server");
const { MAY_NOT_EDIT_PRODUCTS } = await import("../../app/orders/product-weights.server");

const NOW = new Date("2026-11-23T15:00:00Z");

type MirroredOrder = Awaited<ReturnType<typeof domesticOrders>>[number];
type Weight = { unit: string; value: number };

/** The line's variant and its weight, read back through the local admin's GraphQL. */
async function variantOf(lineId: string): Promise<{ id: string; weight: Weight }> {
  const { body } = await harness.gql<{ nodes: Array<{ variant: { id: string; inventoryItem: { measurement: { weight: Weight } } } }> }>(
    `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on FulfillmentOrderLineItem { variant { id inventoryItem { measurement { weight { unit value } } } } } } }`,
    { ids: [lineId] },
  );
  const variant = body.data!.nodes[0]!.variant;
  return { id: variant.id, weight: variant.inventoryItem.measurement.weight };
}

describe("saving a typed weight to the product in Shopify", () => {
  let ctx: ReturnType<typeof contextOf>;
  /** Three open domestic orders of the seed's weightless Enamel Pin Set, blocked in one run for its weight alone. */
  let weightless: MirroredOrder[];
  let runId: string;

  beforeAll(async () => {
    const { admin, session } = await unauthenticated.admin(SHOP);
    ctx = contextOf({ admin, shop: session.shop }, prisma, NOW);
    await syncOrderMirror({ admin, shop: session.shop }, prisma, 30);
    weightless = (await domesticOrders(prisma, SHOP, (titles) => titles.includes(WEIGHTLESS_PRODUCT))).slice(0, 3);
    if (weightless.length < 3) throw new Error("the seed has fewer than three open domestic orders of the Enamel Pin Set");
    const started = await startQuoteRun(
      ctx,
      weightless.map((order) => order.id),
    );
    await started.finished;
    runId = started.runId;
  });

  afterAll(() => close());

  /** "Save and quote again" for the order's pin line with `weight` typed and the box ticked. */
  async function saveTicked(order: MirroredOrder, weight: string, productAccess?: "declined") {
    const view = await loadQuoteRunView(ctx, runId);
    const blocked = view.orders.find((entry) => entry.orderId === order.id)!;
    expect(blocked.blocked.map((issue) => issue.code)).toEqual(["ZERO_WEIGHT"]);
    const line = blocked.lineFixes!.lines.find((entry) => entry.product === "Enamel Pin Set")!;
    const outcome = await saveLineDetailsAndRequote(ctx, runId, {
      orderId: order.id,
      lineId: [line.lineId],
      hsCode: [""],
      countryOfOrigin: [""],
      weight: [weight],
      weightUnit: blocked.lineFixes!.weightUnit,
      saveToProduct: "on",
      productAccess,
    });
    if (!outcome.ok) throw new Error(outcome.message);
    await outcome.finished;
    const after = (await loadQuoteRunView(ctx, runId)).orders.find((entry) => entry.orderId === order.id)!;
    return { outcome, lineId: line.lineId, unit: blocked.lineFixes!.weightUnit, quoted: after.shipments.map((shipment) => shipment.status) };
  }

  it("GIVEN the app has no write_products WHEN the merchant saves a typed weight with the box ticked THEN the order is quoted with it, Shopify refuses the product write, and the message says what to do", async () => {
    // The local admin refuses the mutation itself as Shopify does: a top-level ACCESS_DENIED naming the scope.
    const direct = await harness.gql(
      `mutation ($productId: ID!, $variants: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $productId, variants: $variants) { userErrors { message } } }`,
      { productId: "gid://shopify/Product/1", variants: [] },
    );
    expect(direct.body.errors).toMatchObject([{ extensions: { code: "ACCESS_DENIED", requiredAccess: "`write_products` access scope." } }]);

    const { outcome, lineId, quoted } = await saveTicked(weightless[0]!, "0.2");
    expect(quoted).toEqual(["QUOTED"]);
    expect(outcome.product).toEqual({ ok: false, reason: "refused", message: MAY_NOT_EDIT_PRODUCTS });
    expect((await variantOf(lineId)).weight.value).toBe(0);
  });

  it("GIVEN the merchant declined the permission WHEN the form posts it THEN the weight is kept for the order and Shopify is not asked", async () => {
    const { outcome, lineId, quoted } = await saveTicked(weightless[1]!, "0.2", "declined");
    expect(quoted).toEqual(["QUOTED"]);
    expect(outcome.product).toMatchObject({ ok: false, reason: "declined", message: expect.stringMatching(/^You did not allow Consign to edit products\./) });
    expect((await variantOf(lineId)).weight.value).toBe(0);
  });

  it("GIVEN the merchant allowed write_products WHEN they save a typed weight with the box ticked THEN the variant in Shopify has that weight and unit, and app/scopes_update told the app", async () => {
    expect(harness.admin.grantOptionalScopes(["write_products"])).toContain("write_products");
    const update = harness.admin.store.listWebhookDeliveries().find((delivery) => delivery.topic === "app/scopes_update");
    expect(JSON.parse(update!.body)).toMatchObject({ current: expect.arrayContaining(["read_orders", "write_products"]) });

    const { outcome, lineId, unit, quoted } = await saveTicked(weightless[2]!, "0.35");
    expect(quoted).toEqual(["QUOTED"]);
    expect(outcome.product).toEqual({ ok: true, products: ["Enamel Pin Set"] });
    expect((await variantOf(lineId)).weight).toEqual({ unit, value: 0.35 });
  });
});
