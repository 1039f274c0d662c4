import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncOrderMirror } from "../support/mirror-sync";
import { contextOf } from "../factories/context";
import type { JobSender } from "../../app/context";
import { sumAmounts } from "../../app/shipping/money";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// The real parts: the local admin (orders, read into the app's mirror through the real library and the
// gateway), the Shipping API service on HTTP, and the app's SQLite database with the shop's account.
const { harness, close } = await startServiceAndAdmin({ orders: 60, throttle: { bucketSize: 2000, restoreRate: 1000 }, scope: "read_orders" });
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const mirror = await import("../../app/orders/mirror.server");
const { startQuoteRun, resumeQuoteRun } = await import("../../app/quoting/quote-run.server");
const { saveLineDetailsAndRequote } = await import("../../app/quoting/blocked-fix.server");
const { batchCandidates } = await import("../../app/batches/batch-store.server");
const { withShipping } = await import("../../app/shipping/context.server");
const { requoteShipments } = await import("../../app/quoting/requote.server");
const { selectRate, applyRule } = await import("../../app/quoting/rate-pick.server");
const { loadQuoteRunView, loadShipmentRates, listQuoteRuns, runShipmentIds } = await import("../../app/quoting/run-view.server");
const { QUOTE_VALIDITY_MS, storedQuotes } = await import("../../app/shipping/stored-rates");
const { QuotingInputError, SenderMissingError } = await import("../../app/quoting/errors");
const { loadSettings, saveSettings } = await import("../../app/settings/account.server");
const { NotConnectedError } = await import("../../app/shipping/client.server");
const { compareAmounts } = await import("../../app/shipping/money");

const NOW = new Date("2026-11-23T15:00:00Z");
/** A shipment row with its stored rates as the app reads them. */
const withRates = <Row extends { rates: string | null; quotedAt: Date | null }>(row: Row) => ({ ...row, quotes: storedQuotes(row) });
const DAY = 24 * 60 * 60 * 1000;

type MirroredOrder = Awaited<ReturnType<typeof mirror.loadMirroredOrders>>[number];
type ShopAdmin = { admin: Awaited<ReturnType<typeof unauthenticated.admin>>["admin"]; shop: string };

describe("quoting selected orders against the Shipping API service", () => {
  let context: ShopAdmin;
  let orders: MirroredOrder[];
  /** Orders picked for the mixed run, by what the seed made of them. */
  let picked: Record<"domestic" | "international" | "twoLocations" | "onHold" | "pickup" | "noWeight" | "badZip" | "unmirrored" | "giftCard", MirroredOrder>;

  beforeAll(async () => {
    const { admin, session } = await unauthenticated.admin(SHOP);
    context = { admin, shop: session.shop };

    await syncOrderMirror(context, prisma, 30);
    const rows = await prisma.mirrorOrder.findMany({ where: { shop: SHOP }, orderBy: { orderCreatedAt: "asc" }, select: { id: true } });
    orders = await mirror.loadMirroredOrders(
      { db: prisma, shop: SHOP },
      rows.map((row) => row.id),
    );

    const open = (order: MirroredOrder) => order.fulfillmentOrders.filter((fo) => fo.status === "OPEN");
    const find = (what: string, test: (order: MirroredOrder) => boolean) => {
      const order = orders.find(test);
      if (!order) throw new Error(`the seed has no ${what} order`);
      return order;
    };
    const lines = (order: MirroredOrder) => order.fulfillmentOrders.flatMap((fo) => fo.lines);
    const domestic = (order: MirroredOrder) =>
      order.shippingAddress?.countryCode === "US" &&
      /^\d{5}$/.test(order.shippingAddress.zip ?? "") &&
      order.fulfillmentOrders.length === 1 &&
      open(order).length === 1 &&
      lines(order).every((line) => (line.weight?.value ?? 0) > 0);
    const firstDomestic = find("domestic", domestic);
    picked = {
      domestic: firstDomestic,
      international: find("international", (order) => order.shippingAddress?.countryCode === "GB" && open(order).length === 1),
      twoLocations: find("two-location", (order) => open(order).length === 2),
      onHold: find("on-hold", (order) => order.fulfillmentOrders.some((fo) => fo.holds.some((hold) => hold.reason === "HIGH_RISK_OF_FRAUD"))),
      pickup: find("pickup", (order) => order.fulfillmentOrders.some((fo) => fo.deliveryMethod === "PICK_UP")),
      noWeight: find("weightless", (order) => lines(order).some((line) => line.productTitle === "Enamel Pin Set") && open(order).length === 1),
      badZip: find("bad-ZIP", (order) => order.shippingAddress?.zip === "8020"),
      giftCard: find("gift card", (order) => lines(order).some((line) => line.sku === "GIFT-50")),
      unmirrored: find("second domestic", (order) => order !== firstDomestic && domestic(order)),
    };
    // This one is missing from the mirror (a webhook not yet processed): the run reads it from Shopify.
    await prisma.mirrorOrder.delete({ where: { id: picked.unmirrored.id } });
  });

  /** The shop's context at `now` (the test's clock), its Shopify gateway the test's admin. */
  const at = (now: Date) => contextOf(context, prisma, now);

  afterAll(close);

  const UNKNOWN_ORDER = "gid://shopify/Order/999999999";
  let runId: string;

  it("GIVEN mixed orders WHEN a run quotes them THEN shippable ones get rates with the rule's pick and the others say why", async () => {
    const { giftCard: _own, ...mixed } = picked;
    const ids = [...Object.values(mixed).map((order) => order.id), UNKNOWN_ORDER];
    const started = await startQuoteRun(at(NOW), ids);
    runId = started.runId;

    // Progress only grows, up to the total, while the run quotes in the background.
    const seen: number[] = [];
    let finished = false;
    void started.finished.then(() => (finished = true));
    while (!finished) {
      seen.push((await prisma.quoteRun.findUniqueOrThrow({ where: { id: runId } })).shipmentsDone);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const run = await prisma.quoteRun.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("COMPLETED");
    // domestic, international, two shipments for the two-location order, and the refreshed one (the bad ZIP is refused before quoting)
    expect(run.shipmentsTotal).toBe(5);
    expect(run.shipmentsDone).toBe(5);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeLessThanOrEqual(5);

    const view = await loadQuoteRunView(at(NOW), runId);
    expect(view.run.status).toBe("COMPLETED");
    expect(view.orders.map((order) => order.orderId)).toEqual(ids);
    const byId = new Map(view.orders.map((order) => [order.orderId, order]));

    for (const order of [picked.domestic, picked.international, picked.twoLocations, picked.unmirrored]) {
      const shown = byId.get(order.id)!;
      expect(shown.blocked).toEqual([]);
      for (const shipment of shown.shipments) {
        expect(shipment.status).toBe("QUOTED");
        // The page carries the pick alone; every rate is read when the order is unfolded.
        const options = await loadShipmentRates(at(NOW), shipment.id);
        expect(options.length).toBeGreaterThan(0);
        expect(shipment.rateCount).toBe(options.length);
        expect(shipment.options.map((option) => option.quoteId)).toEqual([shipment.selectedQuoteId]);
        // The cheapest rule picked the cheapest rate and says so.
        const cheapest = [...options].sort((a, b) => compareAmounts(a.totalAmount, b.totalAmount))[0]!;
        expect(shipment.selectedQuoteId).toBe(cheapest.quoteId);
        expect(shipment.selectionReason).toBe(options.length === 1 ? "The only rate offered" : `Cheapest of ${options.length} rates`);
        expect(shipment.selectedBy).toBe("RULE");
        expect(shipment.ready).toBe(true);
      }
    }
    expect(byId.get(picked.twoLocations.id)!.shipments).toHaveLength(2);
    // International rates come from international services only.
    const abroad = byId.get(picked.international.id)!.shipments[0]!;
    expect(abroad.destination, "the country by name").toMatch(/, United Kingdom$/);
    expect((await loadShipmentRates(at(NOW), abroad.id)).every((option) => /INTL|INTERNATIONAL|WORLDWIDE/.test(option.serviceCode))).toBe(true);

    // Names from the account's List Services, weights with their unit, and filters that work across the run.
    expect(view.names.carriers.NPS).toBe("National Postal Service");
    expect(abroad.weight).toMatch(/^\d+(\.\d+)? (lb|oz|kg|g)$/);
    expect(abroad.international).toBe(true);
    const international = await loadQuoteRunView(at(NOW), runId, { filter: { international: "1" } });
    expect(international.orders.map((order) => order.orderId)).toEqual([picked.international.id]);
    expect(international.filteredOrderCount).toBe(1);
    const attention = await loadQuoteRunView(at(NOW), runId, { filter: { attention: "1" } });
    // Needs attention: blocked or failed, or the pick falls short of what the customer paid for.
    const needsMerchant = (order: (typeof view.orders)[number]) =>
      order.blocked.length > 0 || order.shipments.some((shipment) => shipment.status === "FAILED" || shipment.choice.flag !== null);
    expect(attention.orders.map((order) => order.orderId)).toEqual(view.orders.filter(needsMerchant).map((order) => order.orderId));
    expect(attention.orders.map((order) => order.orderId)).toEqual(
      expect.arrayContaining([picked.onHold.id, picked.pickup.id, picked.noWeight.id, picked.badZip.id, UNKNOWN_ORDER]),
    );
    // The seed's orders carry shipping lines, mirrored with the order.
    expect(byId.get(picked.domestic.id)!.paidShipping).toEqual({ title: expect.any(String), amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: "USD" });
    const carrier = abroad.options.find((option) => option.quoteId === abroad.selectedQuoteId)!.carrierCode;
    const byCarrier = await loadQuoteRunView(at(NOW), runId, { filter: { carrier } });
    expect(byCarrier.orders.map((order) => order.orderId)).toContain(picked.international.id);
    expect(
      byCarrier.orders.every((order) =>
        order.shipments.some((shipment) => shipment.options.find((option) => option.quoteId === shipment.selectedQuoteId)?.carrierCode === carrier),
      ),
    ).toBe(true);
    expect(view.filterCounts).toMatchObject({ all: ids.length, international: 1, attention: attention.orders.length });
    // The ready shipments' total per currency; their ids are read where an action needs them, not sent with the page.
    expect(await runShipmentIds(at(NOW), runId, "ready")).toHaveLength(view.counts.ready);
    expect(view.readyTotals).toEqual([{ currency: "USD", total: sumAmounts(view.totals.flatMap((carrier) => carrier.amounts.map((amount) => amount.total))) }]);

    expect(byId.get(picked.onHold.id)!.blocked).toEqual([
      expect.objectContaining({ code: "ON_HOLD", message: expect.stringMatching(/Billing and shipping countries differ.*Release the hold/) }),
    ]);
    // A pickup order has no shipping address, and that is not what to fix: it is picked up in store.
    expect(byId.get(picked.pickup.id)!.blocked).toEqual([
      { code: "NOT_SHIPPED", message: "The customer chose to have this order picked up in store; it needs no shipping label." },
    ]);
    expect(byId.get(picked.noWeight.id)!.blocked).toEqual([
      expect.objectContaining({ code: "ZERO_WEIGHT", message: expect.stringContaining("Enamel Pin Set") }),
    ]);
    expect(byId.get(UNKNOWN_ORDER)!.blocked).toEqual([expect.objectContaining({ code: "NOT_FOUND" })]);
    // A 4-digit US ZIP is refused before quoting, saying what to fix (the service would refuse it only after).
    expect(byId.get(picked.badZip.id)!.shipments).toEqual([]);
    expect(byId.get(picked.badZip.id)!.blocked).toEqual([
      {
        code: "INVALID_ADDRESS",
        message: expect.stringMatching(
          /^Carriers would refuse this address: the ZIP code “8020” is not a United States ZIP code \(5 digits.*Correct the order's shipping address in Shopify/,
        ),
      },
    ]);
    expect(await runShipmentIds(at(NOW), runId, "failed")).toEqual([]);

    expect(view.counts).toEqual({ quoted: 5, failed: 0, pending: 0, blockedOrders: 5, expired: 0, ready: 5 });
    expect(view.totals.reduce((sum, carrier) => sum + carrier.count, 0)).toBe(5);
    expect((await listQuoteRuns(at(NOW)))[0]).toMatchObject({ id: runId, status: "COMPLETED", orderCount: ids.length, shipments: 5, blockedOrders: 5 });
  });

  it("GIVEN an order blocked for a missing weight WHEN the merchant types the weight on the rates page THEN it is quoted into the same run and can join a batch with the rest", async () => {
    const started = await startQuoteRun(at(NOW), [picked.noWeight.id, picked.giftCard.id, picked.pickup.id]);
    await started.finished;
    const before = await loadQuoteRunView(at(NOW), started.runId);
    const blocked = before.orders.find((order) => order.orderId === picked.noWeight.id)!;
    expect(blocked.blocked.map((issue) => issue.code)).toEqual(["ZERO_WEIGHT"]);
    // The form asks for the weight of the weightless line, in the shop's unit, and nothing else.
    expect(blocked.lineFixes).toMatchObject({ fields: { weight: true, customs: false }, lines: [{ product: "Enamel Pin Set", weight: null }] });
    // The gift card beside a mug is no blocker: it is quoted, and its parcel holds the mug alone.
    const giftCard = before.orders.find((order) => order.orderId === picked.giftCard.id)!;
    expect(giftCard.blocked).toEqual([]);
    expect(giftCard.shipments.map((shipment) => shipment.status)).toEqual(["QUOTED"]);
    const giftRequest = JSON.parse((await prisma.shipment.findUniqueOrThrow({ where: { id: giftCard.shipments[0]!.id } })).request) as {
      pieces: Array<{ lineItems: Array<{ productName: string }> }>;
    };
    expect(giftRequest.pieces[0]!.lineItems.map((item) => item.productName)).not.toContainEqual(expect.stringContaining("Gift Card"));

    const lineId = blocked.lineFixes!.lines[0]!.lineId;
    const refused = saveLineDetailsAndRequote(at(NOW), started.runId, {
      orderId: picked.noWeight.id,
      lineId: [lineId],
      hsCode: [""],
      countryOfOrigin: [""],
      weight: ["0"],
      weightUnit: blocked.lineFixes!.weightUnit,
    });
    await expect(refused).rejects.toMatchObject({ status: 400, field: "lines[0].weight" });

    const runsBefore = (await listQuoteRuns(at(NOW))).map((run) => run.id);
    const outcome = await saveLineDetailsAndRequote(at(NOW), started.runId, {
      orderId: picked.noWeight.id,
      lineId: [lineId],
      hsCode: [""],
      countryOfOrigin: [""],
      weight: ["0.2"],
      weightUnit: blocked.lineFixes!.weightUnit,
    });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.shipments).toBe(1);
    await outcome.finished;

    // Same run: no new run, the order's blocked row gone, its shipment quoted beside the gift card order's.
    // (Runs started at one instant have no order between them: the list is compared as a set.)
    expect(new Set((await listQuoteRuns(at(NOW))).map((run) => run.id))).toEqual(new Set(runsBefore));
    const after = await loadQuoteRunView(at(NOW), started.runId);
    expect(after.run).toMatchObject({ status: "COMPLETED", shipmentsTotal: 2, shipmentsDone: 2 });
    const fixed = after.orders.find((order) => order.orderId === picked.noWeight.id)!;
    expect(fixed.blocked).toEqual([]);
    expect(fixed.shipments.map((shipment) => shipment.status)).toEqual(["QUOTED"]);
    expect(after.counts).toMatchObject({ blockedOrders: 1, ready: 2 });
    const ready = await runShipmentIds(at(NOW), started.runId, "ready");
    expect(new Set(ready)).toEqual(new Set([fixed.shipments[0]!.id, giftCard.shipments[0]!.id]));
    const candidates = await batchCandidates(await withShipping(at(NOW)), { shipmentIds: ready });
    expect(candidates.map((candidate) => candidate.orderId).sort()).toEqual([picked.giftCard.id, picked.noWeight.id].sort());

    // The order is no longer blocked in the run: saving for it again is refused.
    await expect(
      saveLineDetailsAndRequote(at(NOW), started.runId, {
        orderId: picked.noWeight.id,
        lineId: [lineId],
        hsCode: [""],
        countryOfOrigin: [""],
        weight: ["0.2"],
        weightUnit: "POUNDS",
      }),
    ).rejects.toMatchObject({ status: 404, field: "orderId" });
  });

  it("GIVEN the run WHEN its rows are read THEN order, fulfillment order and every quote are linked, expiring 30 days after quoting", async () => {
    const shipment = withRates(await prisma.shipment.findFirstOrThrow({ where: { runId, orderId: picked.domestic.id } }));
    expect(shipment.fulfillmentOrderId).toBe(picked.domestic.fulfillmentOrders[0]!.id);
    expect(shipment.orderName).toBe(picked.domestic.name);
    expect(JSON.parse(shipment.lines)).toEqual(
      picked.domestic.fulfillmentOrders[0]!.lines.map((line) => ({ fulfillmentOrderLineItemId: line.id, quantity: line.remainingQuantity })),
    );
    expect(JSON.parse(shipment.request)).toMatchObject({ shipmentReference: picked.domestic.name, currency: "USD", weightUnit: "lb" });
    expect(shipment.quotes.length).toBeGreaterThan(3);
    for (const quote of shipment.quotes) {
      expect(quote).toMatchObject({ currency: "USD", quotedAt: NOW, expiresAt: new Date(NOW.getTime() + QUOTE_VALIDITY_MS) });
      expect(quote.serviceCode).toMatch(/^(NPS|BLP|MRX|GPC)_/);
      expect(quote.zone).not.toBe("");
      expect(Number(quote.totalAmount)).toBeGreaterThan(0);
      expect(["Actual", "Dimensional"]).toContain(quote.quotedWeightType);
    }
    expect(shipment.quotes.map((quote) => quote.quoteId)).toContain(shipment.selectedQuoteId);
  });

  it("GIVEN a quoted shipment WHEN the merchant repacks it THEN bad packages are refused naming the field, and good ones are stored, applied to its request and re-quoted", async () => {
    const { repackShipment } = await import("../../app/quoting/repack.server");
    const shipment = withRates(await prisma.shipment.findFirstOrThrow({ where: { runId, orderId: picked.international.id } }));
    const picked0 = shipment.quotes.find((quote) => quote.quoteId === shipment.selectedQuoteId)!;
    const refusal = (posted: Parameters<typeof repackShipment>[1]) => repackShipment(at(NOW), posted).catch((error: unknown) => error);
    expect(await refusal({ shipmentId: shipment.id, box: ["Standard box"], weight: ["-2"] })).toMatchObject({
      status: 400,
      field: "packages[0].weight",
      message: "Box 1: weight must be more than 0",
    });
    expect(await refusal({ shipmentId: shipment.id, box: ["Crate"], weight: ["2"] })).toMatchObject({ status: 400, field: "packages[0].box" });
    expect(await refusal({ shipmentId: "nope", box: ["Standard box"], weight: ["2"] })).toMatchObject({ status: 404, field: "shipmentId" });
    // Two boxes must say which items each holds: the editor lists the shipment's items as the mirror names them.
    const { lines } = (await loadQuoteRunView(at(NOW), runId)).orders.flatMap((order) => order.shipments).find((view) => view.id === shipment.id)!.packing;
    const mirroredLines = picked.international.fulfillmentOrders[0]!.lines.filter((line) => line.requiresShipping !== false);
    expect(lines.map((line) => [line.id, line.quantity])).toEqual(mirroredLines.map((line) => [line.id, line.remainingQuantity]));
    const [first, ...rest] = lines;
    expect(await refusal({ shipmentId: shipment.id, box: ["Standard box", "Standard box"], weight: ["3", "4.5"] })).toMatchObject({
      status: 400,
      field: "lines",
      message: `${first!.name}: none of its ${first!.quantity} is in a box; put them in the boxes`,
    });
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({ request: shipment.request, packages: null });

    // The first item in box 2, the rest in box 1 (quantities per item, in box order).
    const quantity = lines.flatMap((line, index) => (index === 0 ? ["0", String(line.quantity)] : [String(line.quantity), "0"]));
    const line = lines.map((entry) => entry.id);
    const outcome = await repackShipment(at(NOW), { shipmentId: shipment.id, box: ["Standard box", "Standard box"], weight: ["3", "4.5"], line, quantity });
    expect(outcome).toMatchObject({ ok: true });
    const repacked = withRates(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }));
    expect(JSON.parse(repacked.packages!)).toEqual([
      { box: "Standard box", weight: "3", lines: rest.map((entry) => ({ lineId: entry.id, quantity: entry.quantity })) },
      { box: "Standard box", weight: "4.5", lines: [{ lineId: first!.id, quantity: first!.quantity }] },
    ]);
    expect((JSON.parse(repacked.request) as { pieces: Array<{ weight: string; length: string }> }).pieces).toMatchObject([
      { weight: "3", length: "12" },
      { weight: "4.5", length: "12" },
    ]);
    // Quoted again for the new pieces: the old rates are gone; the same service is kept when it still takes them.
    const picked1 = repacked.quotes.find((quote) => quote.quoteId === repacked.selectedQuoteId)!;
    expect(repacked.quotes.map((quote) => quote.quoteId)).not.toContain(picked0.quoteId);
    if (outcome.ok && outcome.sameService) expect(picked1).toMatchObject({ carrierCode: picked0.carrierCode, serviceCode: picked0.serviceCode });
    else expect(repacked.selectionReason).toContain("is no longer offered");
  });

  it("GIVEN a quoted shipment WHEN the merchant picks another rate THEN it is theirs, and Apply rule keeps it unless told to override", async () => {
    const shipment = withRates(await prisma.shipment.findFirstOrThrow({ where: { runId, orderId: picked.domestic.id } }));
    const other = shipment.quotes.find((quote) => quote.quoteId !== shipment.selectedQuoteId)!;
    await selectRate(at(NOW), shipment.id, other.quoteId);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).toMatchObject({
      selectedQuoteId: other.quoteId,
      selectedBy: "MERCHANT",
      selectionReason: "Chosen by you",
    });

    const foreign = storedQuotes(await prisma.shipment.findFirstOrThrow({ where: { orderId: picked.international.id } }))[0]!;
    const refused = await selectRate(at(NOW), shipment.id, foreign.quoteId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QuotingInputError);
    expect(refused).toMatchObject({ status: 400, field: "quoteId" });

    expect(await applyRule(at(NOW), runId)).toEqual({ applied: 4, keptManual: 1, locked: 0, needRequote: 0 });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).selectedQuoteId).toBe(other.quoteId);

    // The merchant switches to a preferred carrier with a ceiling below its prices, then re-applies to all.
    await saveSettings(at(NOW), { ...(await loadSettings(at(NOW))), rateRule: { kind: "preferred", carrierCode: "MRX", maxAmount: "5.00" } });
    expect(await applyRule(at(NOW), runId, { overrideManual: true })).toMatchObject({ applied: 5, keptManual: 0 });
    const after = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(after).toMatchObject({ selectedBy: "RULE", selectionReason: "Preferred carrier Meridian Express is over your $5.00 ceiling: cheapest instead" });
    await saveSettings({ db: prisma, shop: SHOP }, { ...(await loadSettings({ db: prisma, shop: SHOP })), rateRule: { kind: "cheapest" } });
  });

  it("GIVEN 31 days later WHEN the run is shown THEN its rates are expired, cannot be picked, and a re-quote keeps the merchant's service", async () => {
    const later = new Date(NOW.getTime() + 31 * DAY);
    const shipment = withRates(await prisma.shipment.findFirstOrThrow({ where: { runId, orderId: picked.domestic.id } }));
    const mrx = shipment.quotes.find((quote) => quote.carrierCode === "MRX")!;
    await selectRate(at(NOW), shipment.id, mrx.quoteId);

    const view = await loadQuoteRunView(at(later), runId);
    expect(view.counts).toMatchObject({ expired: 5, ready: 0 });
    expect(await runShipmentIds(at(later), runId, "ready")).toEqual([]);
    const shown = view.orders.find((order) => order.orderId === picked.domestic.id)!.shipments[0]!;
    expect(shown.selectedExpired).toBe(true);
    expect((await loadShipmentRates(at(later), shown.id)).every((option) => option.expired)).toBe(true);
    await expect(selectRate(at(later), shipment.id, mrx.quoteId)).rejects.toMatchObject({ status: 409, field: "quoteId" });

    // A shipment whose stored address the service refuses (quoted before Consign checked ZIP codes).
    const refusedShipment = await prisma.shipment.findFirstOrThrow({ where: { runId, orderId: picked.unmirrored.id } });
    const refusedRequest = JSON.parse(refusedShipment.request) as { receiver: { zip: string } };
    refusedRequest.receiver.zip = "8020";
    await prisma.shipment.update({ where: { id: refusedShipment.id }, data: { request: JSON.stringify(refusedRequest) } });
    const failedId = refusedShipment.id;
    const outcomes = await requoteShipments(at(later), [...(await runShipmentIds(at(later), runId, "expired")), "no-such-shipment"]);
    expect(outcomes).toHaveLength(6);
    const mine = outcomes.find((outcome) => outcome.shipmentId === shipment.id)!;
    expect(mine).toMatchObject({ ok: true, oldQuoteId: mrx.quoteId, sameService: true });
    const requoted = withRates(await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }));
    const kept = requoted.quotes.find((quote) => quote.quoteId === requoted.selectedQuoteId)!;
    expect(kept).toMatchObject({
      carrierCode: "MRX",
      serviceCode: mrx.serviceCode,
      quotedAt: later,
      expiresAt: new Date(later.getTime() + QUOTE_VALIDITY_MS),
    });
    expect(requoted).toMatchObject({
      selectedBy: "MERCHANT",
      selectionReason: `Same service as before (Meridian Express ${mrx.serviceDescription}), re-quoted`,
    });
    // The old quotes are replaced, not kept beside the new ones.
    expect(requoted.quotes.map((quote) => quote.quoteId)).not.toContain(mrx.quoteId);
    expect(JSON.parse(requoted.request).shipmentDate).toBe("2026-12-24");

    // The bad address still fails, with the same words; unknown ids are reported, not thrown.
    expect(outcomes.find((outcome) => outcome.shipmentId === failedId)).toMatchObject({ ok: false, message: expect.stringMatching(/zip/) });
    expect(outcomes.at(-1)).toEqual({ shipmentId: "no-such-shipment", ok: false, oldQuoteId: null, message: "No such shipment in this store." });

    const fresh = await loadQuoteRunView(at(later), runId);
    // The refused one keeps its earlier (expired) rates and says why; the others are ready again.
    expect(fresh.counts).toMatchObject({ expired: 1, ready: 4, failed: 0 });
    expect(await runShipmentIds(at(later), runId, "expired")).toEqual([failedId]);
  });

  it("GIVEN an order quoted before WHEN it is quoted again THEN its shipment is reused, and items in a batch or booked are not quoted twice", async () => {
    const earlier = await prisma.shipment.findFirstOrThrow({ where: { runId, orderId: picked.domestic.id } });
    const second = await startQuoteRun(at(NOW), [picked.domestic.id, picked.international.id, picked.twoLocations.id]);
    await second.finished;
    const reused = await prisma.shipment.findMany({ where: { orderId: picked.domestic.id } });
    expect(reused.map((shipment) => shipment.id)).toEqual([earlier.id]);
    expect(reused[0]).toMatchObject({ runId: second.runId, quoteStatus: "QUOTED", selectedBy: "RULE" });
    // The international order was repacked into two boxes above: quoted again as mapped, in one box, its boxes and their items go.
    const remapped = await prisma.shipment.findFirstOrThrow({ where: { orderId: picked.international.id } });
    expect(remapped).toMatchObject({ runId: second.runId, packages: null });
    expect((JSON.parse(remapped.request) as { pieces: unknown[] }).pieces).toHaveLength(1);

    // The batches and booking steps own these states; here they are set as those steps would leave them.
    const [first, other] = await prisma.shipment.findMany({ where: { orderId: picked.twoLocations.id }, orderBy: { fulfillmentOrderId: "asc" } });
    const batch = await prisma.batch.create({ data: { shop: SHOP, name: "Monday pickup", status: "OPEN" } });
    await prisma.shipment.update({ where: { id: first!.id }, data: { batchId: batch.id } });
    await prisma.shipment.update({ where: { id: reused[0]!.id }, data: { bookingStatus: "BOOKED", trackingNumber: "9400100000000000000001" } });

    const third = await startQuoteRun(at(NOW), [picked.domestic.id, picked.twoLocations.id]);
    await third.finished;
    const view = await loadQuoteRunView(at(NOW), third.runId);
    const [domestic, twoLocations] = view.orders;
    expect(domestic!.shipments).toEqual([]);
    expect(domestic!.blocked).toEqual([{ code: "ALREADY_BOOKED", message: expect.stringContaining("tracking 9400100000000000000001") }]);
    expect(twoLocations!.blocked).toEqual([{ code: "IN_BATCH", message: expect.stringContaining("Monday pickup") }]);
    expect(twoLocations!.shipments.map((shipment) => shipment.id)).toEqual([other!.id]);
    expect(await prisma.shipment.count({ where: { fulfillmentOrderId: first!.fulfillmentOrderId } })).toBe(1);
    // The first run no longer owns the shipments quoted again later, and says so.
    const firstRun = await loadQuoteRunView(at(NOW), runId);
    expect(
      firstRun.orders
        .filter((order) => order.movedToLaterRun)
        .map((order) => order.orderId)
        .sort(),
    ).toEqual([picked.domestic.id, picked.international.id, picked.twoLocations.id].sort());
  });

  it("GIVEN an order quoted before WHEN it is quoted again THEN until its new rates are stored its earlier ones are neither shown nor taken, and then only the new ones are kept", async () => {
    const earlier = withRates(await prisma.shipment.findFirstOrThrow({ where: { orderId: picked.international.id, quoteStatus: "QUOTED" } }));
    expect(earlier.quotes.length).toBeGreaterThan(0);
    // The run is recorded and its job held: the moment between the merchant's click and the job's start.
    const queued: string[] = [];
    const held: JobSender = {
      send: async (_job, data) => void queued.push((data as { runId: string }).runId),
      drained: async () => {},
      busy: async () => false,
    };
    const again = await startQuoteRun(contextOf(context, prisma, NOW, held), [picked.international.id]);
    expect(queued).toEqual([again.runId]);
    const pending = await loadQuoteRunView(at(NOW), again.runId);
    expect(pending.orders[0]!.shipments).toEqual([expect.objectContaining({ id: earlier.id, status: "PENDING", options: [], rateCount: 0 })]);
    expect(await loadShipmentRates(at(NOW), earlier.id)).toEqual([]);
    await expect(selectRate(at(NOW), earlier.id, earlier.quotes[0]!.quoteId)).rejects.toMatchObject({ status: 409, field: "shipmentId" });

    await resumeQuoteRun(at(NOW), again.runId);
    const stored = storedQuotes(await prisma.shipment.findUniqueOrThrow({ where: { id: earlier.id } }));
    expect(stored).toHaveLength(earlier.quotes.length);
    expect(stored.filter((quote) => earlier.quotes.some((old) => old.quoteId === quote.quoteId))).toEqual([]);
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: earlier.id } })).toMatchObject({ runId: again.runId, quoteStatus: "QUOTED" });
  });

  it("GIVEN more selected orders missing from the mirror than a few WHEN quoted THEN they are not read one by one from Shopify but reported", async () => {
    const missing = Array.from({ length: 11 }, (_, index) => `gid://shopify/Order/${88_000 + index}`);
    const { runId: manyId, finished } = await startQuoteRun(at(NOW), [picked.international.id, ...missing]);
    await finished;
    const view = await loadQuoteRunView(at(NOW), manyId);
    expect(view.orders[0]!.shipments).toHaveLength(1);
    // Read from Shopify, these ids would be NOT_FOUND: NOT_SYNCED shows they were not.
    expect(view.orders.slice(1).map((order) => order.blocked.map((issue) => issue.code))).toEqual(missing.map(() => ["NOT_SYNCED"]));
    expect(view.orders[1]!.blocked[0]!.message).toMatch(/already fulfilled or closed, or not synced yet.*Sync orders/);
  });

  it("GIVEN no sender address yet (first use) WHEN quoting is started THEN the shop's primary location becomes the saved sender and the orders are quoted from it", async () => {
    const settings = await loadSettings({ db: prisma, shop: SHOP });
    await saveSettings({ db: prisma, shop: SHOP }, { ...settings, sender: null, senderLocationId: null });
    // A domestic order no other test quoted.
    const quoted = new Set((await prisma.shipment.findMany({ select: { orderId: true } })).map((row) => row.orderId));
    const fresh = orders.find(
      (order) =>
        order.shippingAddress?.countryCode === "US" &&
        picked.domestic.fulfillmentOrders.length === order.fulfillmentOrders.length &&
        !quoted.has(order.id) &&
        !Object.values(picked).includes(order),
    );
    expect(fresh).toBeDefined();
    try {
      const { runId, finished } = await startQuoteRun(at(NOW), [fresh!.id]);
      await finished;
      const primary = harness.admin.store.getLocation(harness.admin.store.defaultLocationId())!;
      const saved = await loadSettings({ db: prisma, shop: SHOP });
      expect(saved.senderLocationId).toBe(`gid://shopify/Location/${primary.id}`);
      expect(saved.sender).toMatchObject({
        name: primary.name,
        address1: primary.address1,
        city: primary.city,
        state: primary.province_code,
        zip: primary.zip,
        country: primary.country_code,
      });
      const view = await loadQuoteRunView(at(NOW), runId);
      expect(view.orders[0]!.blocked).toEqual([]);
      expect(view.orders[0]!.shipments.map((shipment) => shipment.status)).toEqual(["QUOTED"]);
      const request = await prisma.shipment.findFirstOrThrow({ where: { runId }, select: { request: true } });
      expect(JSON.parse(request.request).sender).toMatchObject({ city: primary.city, zip: primary.zip });
    } finally {
      await saveSettings({ db: prisma, shop: SHOP }, settings);
    }
  });

  it("GIVEN no sender address, or no account WHEN quoting is started THEN it says what to set up, before creating a run", async () => {
    const runs = await prisma.quoteRun.count();
    const settings = await loadSettings({ db: prisma, shop: SHOP });
    await saveSettings({ db: prisma, shop: SHOP }, { ...settings, sender: null, senderLocationId: null });
    // The primary location has no phone, which carriers print on the label: it cannot be the sender by itself.
    const store = harness.admin.store;
    const primary = store.getLocation(store.defaultLocationId())!;
    store.sql("UPDATE locations SET phone = NULL WHERE id = ?").run(primary.id);
    try {
      await expect(startQuoteRun(at(NOW), [picked.domestic.id])).rejects.toBeInstanceOf(SenderMissingError);
      expect((await loadSettings(at(NOW))).sender).toBeNull();
    } finally {
      store.sql("UPDATE locations SET phone = ? WHERE id = ?").run(primary.phone, primary.id);
      await saveSettings({ db: prisma, shop: SHOP }, settings);
    }
    await expect(startQuoteRun(contextOf({ ...context, shop: "unconnected.myshopify.com" }, prisma, NOW), [picked.domestic.id])).rejects.toBeInstanceOf(
      NotConnectedError,
    );
    await expect(startQuoteRun(at(NOW), [])).rejects.toMatchObject({ status: 400, field: "ids" });
    expect(await prisma.quoteRun.count()).toBe(runs);
  });
});
