import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncOrderMirror } from "../support/mirror-sync";
import { appRequest, callRoute, formBody, type RouteAnswer } from "../support/route-call";
import { contextOf, shippingContext } from "../factories/context";
import { pageTexts, readPages, textOffPage } from "../../lib/pdf/read-back";
import { SHOP } from "../support/devstore-harness";
import { startServiceAndAdmin } from "../support/service-and-admin";

// An order split into two boxes on the rates page, as the embedded app posts it (a session token the local admin
// signed, the real route), with the items each box holds: saved, quoted again in the same run, booked in a batch
// on the real service, and its packing slips read back from the PDFs the batch page and Shopify's Print menu print.
// (The print actions' world: the local admin, the real service, the app's database with the shop's account.)
const { service, harness, close } = await startServiceAndAdmin({ orders: 30, scope: "read_orders" });
afterAll(close);
const { default: prisma } = await import("../../app/db/db.server");
const { unauthenticated } = await import("../../app/shopify.server");
const rates = await import("../../app/routes/app.quotes.$runId/route");
const { loadMirroredOrders } = await import("../../app/orders/mirror.server");
const { startQuoteRun } = await import("../../app/quoting/quote-run.server");
const { listQuoteRuns } = await import("../../app/quoting/run-view.server");
const { createBatches } = await import("../../app/booking/creation.server");
const { bookBatch } = await import("../../app/booking/batch-booking.server");
const { batchPrintJob } = await import("../../app/documents/print-job.server");
const { printOrders } = await import("../../app/documents/order-print.server");
type QuoteRunView = Awaited<ReturnType<typeof import("../../app/quoting/run-view.server").loadQuoteRunView>>;

const NOW = () => service.clock.now();

/** A domestic order of one fulfillment order with at least two items of distinct SKUs, every one weighed: the mirror's first. */
async function orderOfSeveralItems() {
  const { admin, session } = await unauthenticated.admin(SHOP);
  const shopAdmin = { admin, shop: session.shop };
  await syncOrderMirror(shopAdmin, prisma);
  const rows = await prisma.mirrorOrder.findMany({ where: { shop: SHOP, destinationCountry: "US" }, orderBy: { orderCreatedAt: "asc" }, select: { id: true } });
  const orders = await loadMirroredOrders(
    { db: prisma, shop: SHOP },
    rows.map((row) => row.id),
  );
  const order = orders.find(
    (candidate) =>
      /^\d{5}$/.test(candidate.shippingAddress?.zip ?? "") &&
      candidate.fulfillmentOrders.length === 1 &&
      candidate.fulfillmentOrders[0]!.status === "OPEN" &&
      candidate.fulfillmentOrders[0]!.lines.length >= 2 &&
      new Set(candidate.fulfillmentOrders[0]!.lines.map((line) => line.sku || null)).size === candidate.fulfillmentOrders[0]!.lines.length &&
      candidate.fulfillmentOrders[0]!.lines.every((line) => line.requiresShipping !== false && (line.weight?.value ?? 0) > 0),
  );
  if (!order) throw new Error("the seed has no domestic order of several weighed items");
  return { order, shopAdmin };
}

let setup: Awaited<ReturnType<typeof orderOfSeveralItems>>;
beforeAll(async () => {
  setup = await orderOfSeveralItems();
});

async function ratesPage(runId: string): Promise<QuoteRunView> {
  const answer = await callRoute(rates.loader, await appRequest(harness.admin, `/app/quotes/${runId}`), { runId });
  expect(answer.status).toBe(200);
  return answer.body as QuoteRunView;
}

async function repack(runId: string, fields: Record<string, string | string[]>): Promise<RouteAnswer> {
  return callRoute(rates.action, await appRequest(harness.admin, `/app/quotes/${runId}`, formBody({ intent: "repack", ...fields })), { runId });
}

describe("an order split into two boxes, each with its own items", () => {
  it("GIVEN the rates page WHEN the merchant puts the first item in box 2 and the rest in box 1 THEN it is saved and quoted again in the same run, and once booked in a batch each box's packing slip lists its own items, on the batch's print job and from Shopify's Print menu", async () => {
    const { order, shopAdmin } = setup;
    const started = await startQuoteRun(contextOf(shopAdmin, prisma, NOW), [order.id]);
    await started.finished;
    const runsBefore = new Set((await listQuoteRuns(contextOf(shopAdmin, prisma, NOW))).map((run) => run.id));

    // The packages editor's items: the order's lines as the mirror names them, each with its weight known.
    const before = await ratesPage(started.runId);
    const shipment = before.orders[0]!.shipments[0]!;
    expect(shipment.status).toBe("QUOTED");
    const { lines } = shipment.packing;
    const mirrored = order.fulfillmentOrders[0]!.lines;
    expect(lines.map((line) => [line.id, line.sku, line.quantity])).toEqual(mirrored.map((line) => [line.id, line.sku ?? "", line.remainingQuantity]));
    expect(lines.every((line) => line.unitNanograms !== null && line.unitNanograms > 0)).toBe(true);
    const [moved, ...kept] = lines;
    const line = lines.map((entry) => entry.id);
    // Per item, its quantity in box 1 then in box 2.
    const split = lines.flatMap((entry, index) => (index === 0 ? ["0", String(entry.quantity)] : [String(entry.quantity), "0"]));
    const boxes = { shipmentId: shipment.id, box: ["Standard box", "Standard box"], weight: ["3", "2"], line };

    // Refused, naming the box and the item: one unit more in box 2 than there is; an item left out of both boxes.
    const over = await repack(started.runId, { ...boxes, quantity: split.map((each, index) => (index === 1 ? String(Number(each) + 1) : each)) });
    const overMessage = `Box 2: ${moved!.quantity + 1} × ${moved!.name} is more than the ${moved!.quantity} left`;
    expect(over).toMatchObject({ status: 400, body: { ok: false, message: overMessage, fieldErrors: { "packages[1].lines[0]": overMessage } } });
    const missing = await repack(started.runId, { ...boxes, quantity: split.map((each, index) => (index === 1 ? "0" : each)) });
    expect(missing).toMatchObject({
      status: 400,
      body: { ok: false, fieldErrors: { "lines[0]": expect.stringMatching(new RegExp(`^${moved!.name}: \\d+ of \\d+ (is|are) in no box`)) } },
    });
    expect((await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } })).packages).toBeNull();

    const saved = await repack(started.runId, { ...boxes, quantity: split });
    expect(saved).toMatchObject({ status: 200, body: { ok: true, message: "Packages saved and re-quoted" } });

    // Saved with the items per box, quoted again for two pieces in the same run (no new run), ready to batch.
    const row = await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    expect(row).toMatchObject({ runId: started.runId, quoteStatus: "QUOTED" });
    expect(JSON.parse(row.packages!)).toEqual([
      { box: "Standard box", weight: "3", lines: kept.map((entry) => ({ lineId: entry.id, quantity: entry.quantity })) },
      { box: "Standard box", weight: "2", lines: [{ lineId: moved!.id, quantity: moved!.quantity }] },
    ]);
    expect((JSON.parse(row.request) as { pieces: Array<{ weight: string }> }).pieces.map((piece) => piece.weight)).toEqual(["3", "2"]);
    expect(new Set((await listQuoteRuns(contextOf(shopAdmin, prisma, NOW))).map((run) => run.id))).toEqual(runsBefore);
    const after = (await ratesPage(started.runId)).orders[0]!.shipments[0]!;
    expect(after).toMatchObject({ id: shipment.id, ready: true, packages: JSON.parse(row.packages!) });

    // Booked in a batch.
    const ctx = await shippingContext(prisma, SHOP, NOW);
    const created = await createBatches(ctx, { name: "Two boxes", shipmentIds: [shipment.id] });
    expect(created.errors).toEqual([]);
    const batchId = created.batches[0]!.id;
    expect(await bookBatch(ctx, batchId)).toMatchObject({ ok: true, booked: 1, failed: 0 });

    const units = (entries: ReadonlyArray<{ quantity: number }>) => entries.reduce((sum, entry) => sum + entry.quantity, 0);
    const itemsIn = (entries: ReadonlyArray<{ quantity: number }>) => `${units(entries)} ${units(entries) === 1 ? "item" : "items"} in this box`;
    /** The two slips of the order: box 1 with the kept items alone, box 2 with the moved one alone. */
    const expectOwnLines = (slips: string[][]) => {
      expect(slips).toHaveLength(2);
      const [first, second] = slips as [string[], string[]];
      expect(first).toEqual(expect.arrayContaining(["PACKING SLIP", order.name, "Box 1 of 2", itemsIn(kept), ...kept.map((entry) => entry.sku)]));
      expect(first).not.toContain(moved!.sku);
      expect(second).toEqual(expect.arrayContaining(["PACKING SLIP", order.name, "Box 2 of 2", itemsIn([moved!]), moved!.sku, String(moved!.quantity)]));
      for (const entry of kept) expect(second).not.toContain(entry.sku);
      for (const slip of slips) expect(slip.join(" ")).not.toContain("in this shipment of");
    };

    // The batch page's print job: the label of each box, then the order's slips, one per box.
    const job = await batchPrintJob(ctx, batchId, "labels-and-slips");
    if (!job.ok) throw new Error(job.message);
    const pages = await pageTexts(job.pdf);
    expect(pages.map((page) => (page[0] === "PACKING SLIP" ? "slip" : "label"))).toEqual(["label", "label", "slip", "slip"]);
    expectOwnLines(pages.filter((page) => page[0] === "PACKING SLIP"));
    expect(textOffPage(await readPages(job.pdf))).toEqual([]);

    // Shopify's Print menu's Packing slips for the order: the same slips.
    const printed = await printOrders(ctx, "slips", [order.id.split("/").pop()!]);
    if (!printed.ok) throw new Error(printed.message);
    expectOwnLines(await pageTexts(printed.pdf));
  });
});
