import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncOrderMirror } from "../support/mirror-sync";
import { contextOf } from "../factories/context";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";
import { appRequest, callRoute, jsonBody } from "../support/route-call";
import { storedQuotes } from "../../app/shipping/stored-rates";

// Shipping rules and product presets (issue 25 §1, §2) with the real parts: the local admin's orders and products
// (read into the mirror and through the gateway), the Shipping API service quoting, and the app's SQLite database.
const { harness, close } = await startServiceAndAdmin({ orders: 40, scope: "read_orders,read_products" });
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const mirror = await import("../../app/orders/mirror.server");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
const { savePresets } = await import("../../app/orders/product-presets.server");
const { pickByRules } = await import("../../app/automation/rules.server");
const rulesRoute = await import("../../app/routes/app.rules/route");
const presetsRoute = await import("../../app/routes/app.presets/route");
const { EMPTY_RULE_FORM } = await import("../../app/automation/rule-form");

type MirroredOrder = Awaited<ReturnType<typeof mirror.loadMirroredOrders>>[number];
type RulesPage = Awaited<ReturnType<typeof rulesRoute.loader>>;
type PresetsPage = Awaited<ReturnType<typeof presetsRoute.loader>>;

const NOW = new Date("2026-11-23T15:00:00Z");
let ctx: ReturnType<typeof contextOf>;
let orders: MirroredOrder[];
const lines = (order: MirroredOrder) => order.fulfillmentOrders.flatMap((fo) => fo.lines);
const open = (order: MirroredOrder) => order.fulfillmentOrders.filter((fo) => fo.status === "OPEN");
const quotable = (order: MirroredOrder) =>
  open(order).length === 1 &&
  order.fulfillmentOrders.length === 1 &&
  order.fulfillmentOrders.every((fo) => fo.holds.length === 0 && fo.deliveryMethod !== "PICK_UP") &&
  lines(order).every((line) => (line.weight?.value ?? 0) > 0 && line.requiresShipping !== false) &&
  (order.shippingAddress?.countryCode !== "US" || /^\d{5}$/.test(order.shippingAddress.zip ?? ""));

beforeAll(async () => {
  const { admin, session } = await unauthenticated.admin(SHOP);
  ctx = contextOf({ admin, shop: session.shop }, prisma, NOW);
  await syncOrderMirror({ admin, shop: session.shop }, prisma, 40);
  const rows = await prisma.mirrorOrder.findMany({ where: { shop: SHOP }, orderBy: { orderCreatedAt: "asc" }, select: { id: true } });
  orders = await mirror.loadMirroredOrders(
    ctx,
    rows.map((row) => row.id),
  );
  const settings = await loadSettings(ctx);
  await saveSettings(ctx, {
    ...settings,
    boxes: [...settings.boxes, { kind: "custom", name: "Tall box", length: "10", width: "10", height: "30", dimUnit: "in" }],
  });
});
afterAll(close);

const rulesPost = async (body: unknown) => callRoute(rulesRoute.action, await appRequest(harness.admin, "/app/rules", jsonBody(body)));
const rulesPage = async () => (await callRoute(rulesRoute.loader, await appRequest(harness.admin, "/app/rules"))).body as RulesPage;

async function quote(order: MirroredOrder) {
  const started = await startQuoteRun(ctx, [order.id]);
  await started.finished;
  const blocked = await prisma.blockedOrder.findMany({ where: { runId: started.runId } });
  expect(blocked.map((row) => row.issues)).toEqual([]);
  const shipments = await prisma.shipment.findMany({ where: { runId: started.runId } });
  return shipments.map((shipment) => ({ ...shipment, quotes: storedQuotes(shipment) }));
}

describe("product presets in the mapping", () => {
  it("GIVEN two products of one order with different preset boxes WHEN it is quoted THEN it ships in the largest, saying which and why", async () => {
    const order = orders.find(
      (candidate) =>
        quotable(candidate) && candidate.shippingAddress?.countryCode === "US" && new Set(lines(candidate).map((line) => line.productId)).size >= 2,
    )!;
    expect(order, "the seed has a domestic order of two products").toBeDefined();
    const [first, second] = [...new Map(lines(order).map((line) => [line.productId!, line])).values()] as [
      ReturnType<typeof lines>[number],
      ReturnType<typeof lines>[number],
    ];
    await savePresets(ctx, [{ targetId: first.productId!, title: first.productTitle }], () => ({
      box: { kind: "settings", name: "Tall box" },
      hsCode: null,
      countryOfOrigin: null,
      description: null,
    }));
    await savePresets(ctx, [{ targetId: second.variantId!, title: second.productTitle }], () => ({
      box: { kind: "own", length: "40", width: "30", height: "20", dimUnit: "in" },
      hsCode: null,
      countryOfOrigin: null,
      description: null,
    }));
    const [shipment] = await quote(order);
    const request = JSON.parse(shipment!.request) as { pieces: Array<{ length: string; width: string; height: string }> };
    expect(request.pieces[0]).toMatchObject({ length: "40", width: "30", height: "20" });
    expect(shipment!.packingNote).toContain("the largest of the items' boxes");
    expect(shipment!.packingNote).toMatch(new RegExp(`${first.productTitle}[^;]*: box 'Tall box'`));
    expect(shipment!.quoteStatus).toBe("QUOTED");
    await prisma.productPreset.deleteMany({ where: { shop: SHOP } });
  });

  it("GIVEN an international order whose product has no HS code in Shopify WHEN its preset has one THEN the order is quoted with the preset's customs details", async () => {
    const order = orders.find((candidate) => quotable(candidate) && candidate.shippingAddress?.countryCode === "GB")!;
    const line = lines(order)[0]!;
    // Shopify has none for this line: the mirror's copy loses its HS code and origin.
    const row = await prisma.mirrorFulfillmentOrder.findFirstOrThrow({ where: { orderId: order.id } });
    const stored = (JSON.parse(row.lines) as Array<Record<string, unknown>>).map((entry) =>
      entry.id === line.id ? { ...entry, hsCode: null, countryOfOrigin: null } : entry,
    );
    await prisma.mirrorFulfillmentOrder.update({ where: { id: row.id }, data: { lines: JSON.stringify(stored) } });

    const blocked = await startQuoteRun(ctx, [order.id]);
    await blocked.finished;
    const issues = await prisma.blockedOrder.findFirstOrThrow({ where: { runId: blocked.runId } });
    expect(issues.issues).toContain("MISSING_HS_CODE");

    await savePresets(ctx, [{ targetId: line.productId!, title: line.productTitle }], () => ({
      box: null,
      hsCode: "420292",
      countryOfOrigin: "IN",
      description: "Cotton tote bag",
    }));
    const [shipment] = await quote(order);
    const invoice = (JSON.parse(shipment!.request) as { commercialInvoice: { items: Array<Record<string, string>> } }).commercialInvoice;
    expect(invoice.items[0]).toMatchObject({ htsNumber: "420292", countryOfOrigin: "IN", description: "Cotton tote bag" });
    expect(shipment!.quoteStatus).toBe("QUOTED");
    await prisma.productPreset.deleteMany({ where: { shop: SHOP } });
    await prisma.mirrorFulfillmentOrder.update({ where: { id: row.id }, data: { lines: row.lines } });
  });
});

describe("the shipping rules page", () => {
  it("GIVEN invalid rules WHEN they are saved THEN each is refused (400) on its field in the page's words, and nothing is kept", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: "" }, "name", "Rule name is required"],
      [{ weightMin: "5", weightMax: "1" }, "weightMax", "Weight up to must not be less than the minimum"],
      [{ countries: "Germany" }, "countries", "Countries must be two-letter country codes"],
      [{ box: "Crate" }, "box", "Box is not one of your boxes in Settings"],
      [{ rateKind: "service", service: "NOPE/NOPE" }, "service", "Service is not a service of your account"],
      [{ rateKind: "none" }, "rateKind", "Pick the rate: choose what the rule does"],
      [{ maxAmount: "-2" }, "maxAmount", "Price ceiling must be more than 0"],
    ];
    for (const [change, field, said] of cases) {
      const answer = await rulesPost({ intent: "save", id: null, values: { ...EMPTY_RULE_FORM, name: "Broken", ...change } });
      expect(answer.status, field).toBe(400);
      const body = answer.body as { fieldErrors: Record<string, string>; message: string };
      expect(body.fieldErrors[field], field).toContain(said);
      expect(body.message).toContain(said);
    }
    expect(await prisma.shippingRule.count({ where: { shop: SHOP } })).toBe(0);
    expect((await rulesPost({ intent: "delete" })).status).toBe(400);
  });

  it("GIVEN two rules WHEN the page opens THEN each previews how many open orders it matches, as counted from the mirror", async () => {
    expect((await rulesPost({ intent: "save", id: null, values: { ...EMPTY_RULE_FORM, name: "Abroad", destination: "international" } })).status).toBe(200);
    expect((await rulesPost({ intent: "save", id: null, values: { ...EMPTY_RULE_FORM, name: "Heavy", weightMin: "3", rateKind: "fastest" } })).status).toBe(
      200,
    );
    const page = await rulesPage();
    const open = orders.filter((order) => order.cancelledAt === null);
    const abroad = open.filter((order) => (order.shippingAddress?.countryCode ?? "") !== "US").length;
    expect(page.previewed).toBe(open.length);
    expect(page.rules.map((rule) => [rule.name, rule.when, rule.does])).toEqual([
      ["Abroad", "international", "Cheapest"],
      ["Heavy", "from 3 lb", "Fastest"],
    ]);
    expect(page.rules[0]!.matches).toBe(abroad);
    expect(page.rules[0]!.matches).toBeGreaterThan(0);
    expect(page.rules[1]!.matches).toBeLessThan(open.length);

    // Reordering: Heavy up, then back down; a move of a rule not of this shop is refused.
    const heavy = page.rules[1]!.id;
    expect((await rulesPost({ intent: "move", id: heavy, to: "up" })).status).toBe(200);
    expect((await rulesPage()).rules.map((rule) => rule.name)).toEqual(["Heavy", "Abroad"]);
    expect((await rulesPost({ intent: "move", id: heavy, to: 1 })).status).toBe(200);
    expect((await rulesPage()).rules.map((rule) => rule.name)).toEqual(["Abroad", "Heavy"]);
    expect((await rulesPost({ intent: "move", id: "someone-elses", to: "up" })).status).toBe(400);
  });

  it("GIVEN an unsaved rule WHEN it is tested on an order THEN the answer says which rule would pick and why each condition holds or not", async () => {
    const order = orders.find((candidate) => quotable(candidate) && candidate.shippingAddress?.countryCode === "GB")!;
    const answer = await rulesPost({ intent: "test", ruleId: null, orderId: order.id, values: { ...EMPTY_RULE_FORM, name: "To Britain", countries: "GB" } });
    expect(answer.status).toBe(200);
    const { test } = answer.body as { test: { verdict: string; rules: Array<{ name: string; holds: boolean; checks: Array<{ why: string }> }> } };
    expect(test.verdict).toBe(
      `${order.name}: rule 'Abroad' would pick the rate, unless its action cannot be met by the rates quoted; then the next matching rule.`,
    );
    expect(test.rules.map((rule) => [rule.name, rule.holds])).toEqual([
      ["Abroad", true],
      ["Heavy", expect.any(Boolean)],
      ["To Britain", true],
    ]);
    expect(test.rules[2]!.checks[0]!.why).toBe("goes to United Kingdom");
    expect(await prisma.shippingRule.count({ where: { shop: SHOP } })).toBe(2);
  });

  it("GIVEN the rules WHEN an international order is quoted THEN its rate is picked by the first rule, with its reason, and pickByRules picks the same", async () => {
    const order = orders.find((candidate) => quotable(candidate) && candidate.shippingAddress?.countryCode === "GB")!;
    const [shipment] = await quote(order);
    expect(shipment!.selectionReason).toMatch(/^Rule 'Abroad' \(international\): .+, cheapest of \d+ rates?$/);
    const pick = await pickByRules(ctx, order.id, shipment!.quotes);
    expect(pick).toMatchObject({ quoteId: shipment!.selectedQuoteId, reason: shipment!.selectionReason });
    await prisma.shippingRule.deleteMany({ where: { shop: SHOP } });
  });
});

describe("the product presets page", () => {
  const presetsPage = async (query = "") => (await callRoute(presetsRoute.loader, await appRequest(harness.admin, `/app/presets${query}`))).body as PresetsPage;
  const presetsPost = async (body: unknown) => callRoute(presetsRoute.action, await appRequest(harness.admin, "/app/presets", jsonBody(body)));

  it("GIVEN the shop's products WHEN searched THEN only those whose title or SKU match are listed, variants under their product", async () => {
    const page = await presetsPage("?q=mug");
    expect(page.rows.map((row) => row.title)).toEqual(["Stoneware Mug", "Stoneware Mug – Speckled White", "Stoneware Mug – Midnight"]);
    expect((await presetsPage("?q=SKILLET")).rows.map((row) => [row.title, row.sku])).toEqual([["Cast Iron Skillet 10in", "SKILLET-10"]]);
    expect((await presetsPage("?q=zzz")).rows).toEqual([]);
    // A cursor Shopify does not know (an old or edited address) starts again at the first page, not a 500.
    const stale = await presetsPage("?q=mug&after=bm90LWEtY3Vyc29y");
    expect(stale.rows.map((row) => row.title)).toEqual(page.rows.map((row) => row.title));
    expect(stale.problem).toBeNull();
  });

  it("GIVEN selected products WHEN a box is set on them at once THEN each keeps it; a preset typed wrong is refused on its field", async () => {
    const page = await presetsPage("?q=mug");
    const targets = page.rows.slice(1).map((row) => ({ targetId: row.targetId, title: row.title }));
    expect((await presetsPost({ intent: "box", targets, boxName: "Tall box" })).status).toBe(200);
    expect((await presetsPage("?q=mug")).rows.map((row) => row.box)).toEqual([null, "Tall box", "Tall box"]);
    expect((await presetsPost({ intent: "box", targets, boxName: "Crate" })).body).toMatchObject({
      fieldErrors: { boxName: "Box: choose one of your boxes in Settings" },
    });

    const refused = await presetsPost({
      intent: "save",
      target: targets[0],
      values: { box: "own", boxName: "", length: "0", width: "10", height: "500", dimUnit: "in", hsCode: "12", countryOfOrigin: "Portugal", description: "" },
    });
    expect(refused.status).toBe(400);
    expect((refused.body as { fieldErrors: Record<string, string> }).fieldErrors).toEqual({
      length: "Length must be more than 0",
      height: "Height must be at most 120 in",
      hsCode: "HS code must be 6 to 10 digits, like 6912.00 or 691200",
      countryOfOrigin: "Country of origin must be a two-letter country code, like PT or US",
    });
    expect((await presetsPost({ intent: "box", targets: [], boxName: null })).status).toBe(400);
  });
});
