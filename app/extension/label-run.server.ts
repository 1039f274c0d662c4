import type { Batch } from "@prisma/client";
import type { Context } from "../context";
import type { Outcome } from "../outcome";
import { batchableShipments, withSelectedQuotes, type ShipmentWithQuote } from "../batches/batch-store.server";
import { startBatchBooking } from "../booking/batch-booking.server";
import { startBatchCreation } from "../booking/creation.server";
import { formatDateTime } from "../locale/shop-time";
import { loadMirroredOrders } from "../orders/mirror.server";
import { unshippableReason } from "../orders/orders-to-ship.server";
import { NotConnectedError } from "../shipping/client.server";
import type { ShippingContext } from "../shipping/context.server";
import { formatMoney, sumAmounts } from "../shipping/money";
import { carrierName, serviceName } from "../shipping/service-names";
import { QuotingInputError, QuotingUnavailableError, SenderMissingError } from "../quoting/errors";
import { startQuoteRun } from "../quoting/quote-run.server";
import { loadServiceNames } from "../quoting/service-names.server";
import { loadPrepayOnFile } from "../settings/account.server";
import { prepayOutlook, prepaySentence } from "../settings/prepay";
import { keptShopTimeZone } from "../settings/shop-time-zone.server";
import { orderNumber, shopifyGid } from "../shopify/gid";
import { z } from "zod";
import type { LabelPick, LabelProblem, LabelRunView } from "./label-run-view";

/**
 * The order list's Buy labels modal (extensions/buy-labels): the app's own quoting, batch booking and documents,
 * driven from Shopify's order list. The selected orders are quoted with the shop's rule as a quote run (a job,
 * its progress read back); the picks are bought as one batch, exactly once (the batch is recorded before the
 * Shipping API is asked, and booked only by the request that moves it from OPEN to BOOKING); booked labels are
 * written back to Shopify by the same write-back as any batch. Anything to review or fix is the run's rates page.
 */

/** A blocked order's issues as the quote run records them (BlockIssue of quote-run.server.ts). */
const BlockIssues = z.array(z.object({ code: z.string(), message: z.string() }));

/**
 * Whether the modal is worth offering (the selection action's should-render): how many of the selected orders
 * (numeric ids) may ship. An order Consign has not mirrored counts, as quoting reads it from Shopify; a mirrored
 * one counts unless nothing of it can ship (fulfilled, on hold, cancelled: unshippableReason).
 */
export async function shippableCount(ctx: Pick<Context, "db" | "shop">, numbers: readonly string[]): Promise<{ selected: number; shippable: number }> {
  const ids = numbers.map((number) => shopifyGid("Order", number));
  const mirrored = await loadMirroredOrders(ctx, ids);
  const unshippable = mirrored.filter((order) => unshippableReason(order) !== null).length;
  return { selected: ids.length, shippable: ids.length - unshippable };
}

/** Why the selection could not be quoted at all, in words, with the status the route answers. */
export type StartRefusal = { status: 404 | 409 | 503; message: string };

/** Quotes the selected orders (numeric ids) as a run; refuses when none is an order of this shop. */
export async function startLabelRun(ctx: Context, numbers: readonly string[]): Promise<Outcome<{ runId: string }, StartRefusal>> {
  let runId: string;
  try {
    ({ runId } = await startQuoteRun(
      ctx,
      numbers.map((number) => shopifyGid("Order", number)),
    ));
  } catch (error) {
    if (error instanceof NotConnectedError)
      return { ok: false, status: 409, message: "Consign is not connected to a Shipping API account yet. Open Consign and connect it, then buy labels." };
    if (error instanceof SenderMissingError) return { ok: false, status: 409, message: error.message };
    if (error instanceof QuotingUnavailableError) return { ok: false, status: 503, message: error.message };
    if (error instanceof QuotingInputError) return { ok: false, status: error.status === 400 ? 409 : error.status, message: error.message };
    throw error;
  }
  // Orders the shop does not have: quoting reports them blocked; when it is every one, there is nothing of this shop here.
  const blocked = await ctx.db.blockedOrder.findMany({ where: { runId }, select: { issues: true } });
  const missing = blocked.filter((row) => BlockIssues.parse(JSON.parse(row.issues)).some((issue) => issue.code === "NOT_FOUND")).length;
  if (missing === numbers.length)
    return { ok: false, status: 404, message: `Shopify has no ${numbers.length === 1 ? "such order" : "such orders"} in this store. Reload the order list.` };
  return { ok: true, runId };
}

interface RunState {
  run: { id: string; status: string; error: string | null; shipmentsDone: number; shipmentsTotal: number };
  shipments: ShipmentWithQuote[];
  batch: Batch | null;
}

async function runState(ctx: ShippingContext, runId: string): Promise<RunState | null> {
  const run = await ctx.db.quoteRun.findFirst({
    where: { id: runId, shop: ctx.shop },
    select: { id: true, status: true, error: true, shipmentsDone: true, shipmentsTotal: true },
  });
  if (!run) return null;
  const shipments = withSelectedQuotes(await ctx.db.shipment.findMany({ where: { shop: ctx.shop, runId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }));
  // The batch this modal bought, when it did: the run's shipments are in it (a cancelled one frees them).
  const batchIds = [...new Set(shipments.flatMap((shipment) => (shipment.batchId ? [shipment.batchId] : [])))];
  const batch =
    batchIds.length === 0
      ? null
      : await ctx.db.batch.findFirst({ where: { shop: ctx.shop, id: { in: batchIds }, status: { not: "CANCELLED" } }, orderBy: { createdAt: "desc" } });
  return { run, shipments, batch };
}

/** The modal's view of the run, or null when it is not a run of this shop. */
export async function labelRunView(ctx: ShippingContext, runId: string): Promise<LabelRunView | null> {
  const state = await runState(ctx, runId);
  if (!state) return null;
  const { run, shipments, batch } = state;
  const base = {
    runId,
    progress: { done: run.shipmentsDone, total: run.shipmentsTotal },
    reviewPath: `/app/quotes/${runId}`,
    printPath: null,
    booking: null,
    message: null,
  };
  const problems = await blockedProblems(ctx, runId);
  if (run.status === "RUNNING") return { ...base, stage: "quoting", picks: [], problems, total: null, checkpoint: null };

  const names = await loadServiceNames(ctx);
  const pickOf = (shipment: ShipmentWithQuote): LabelPick => {
    const quote = shipment.selectedQuote!;
    return {
      orderName: shipment.orderName,
      carrier: carrierName(names, quote.carrierCode),
      service: serviceName(names, quote),
      price: formatMoney(quote.totalAmount, quote.currency),
    };
  };
  const costsOf = (rows: readonly ShipmentWithQuote[]) =>
    rows.map((row) => ({ amount: row.selectedQuote!.totalAmount, currency: row.selectedQuote!.currency }));

  if (batch) {
    const members = shipments.filter((shipment) => shipment.batchId === batch.id);
    const booked = members.filter((member) => member.bookingStatus === "BOOKED");
    const failed = members.filter((member) => member.bookingStatus === "FAILED");
    const settled = batch.status === "COMPLETED" || batch.status === "FAILED";
    return {
      ...base,
      stage: settled ? "booked" : "buying",
      picks: members.filter((member) => member.selectedQuote).map(pickOf),
      problems: [...problems, ...failed.map((member) => ({ orderName: member.orderName, reason: member.bookingError ?? "The label could not be booked." }))],
      total: totalOf(costsOf(members.filter((member) => member.selectedQuote))),
      checkpoint: null,
      booking: {
        state: settled ? "settled" : batch.status === "CREATING" ? "creating" : batch.status === "OPEN" ? "open" : "booking",
        booked: booked.length,
        failed: failed.length,
        writtenBack: booked.filter((member) => member.fulfillmentStatus === "FULFILLED").length,
        batchPath: `/app/batches/${batch.id}`,
      },
      printPath: booked.length > 0 ? printPath(booked) : null,
      message: settled ? null : (batch.error ?? (batch.status === "CREATING" ? "Preparing the labels…" : "Buying the labels…")),
    };
  }

  const quoted = shipments.filter((shipment) => shipment.quoteStatus === "QUOTED" && shipment.selectedQuote);
  const { accepted, refused } = await batchableShipments(ctx, quoted);
  const acceptedIds = new Set(accepted.map((entry) => entry.id));
  const ready = quoted.filter((shipment) => acceptedIds.has(shipment.id));
  const unquoted = shipments
    .filter((shipment) => shipment.quoteStatus !== "QUOTED" || !shipment.selectedQuote)
    .map((shipment): LabelProblem => ({
      orderName: shipment.orderName,
      reason: shipment.quoteError ?? "No rate picked by your rule. Open in Consign to choose one.",
    }));
  const costs = costsOf(ready);
  return {
    ...base,
    stage: run.status === "FAILED" && ready.length === 0 ? "failed" : "ready",
    picks: ready.map(pickOf),
    problems: [...problems, ...unquoted, ...refused.map((refusal) => ({ orderName: refusal.orderName, reason: refusal.reason }))],
    total: totalOf(costs),
    checkpoint: ready.length > 0 ? prepaySentence(prepayOutlook(await loadPrepayOnFile(ctx), costs), ready.length) : null,
    message: run.status === "FAILED" ? run.error : null,
  };
}

/** Each order the run could not quote, with its reasons in one line. */
async function blockedProblems(ctx: Pick<Context, "db">, runId: string): Promise<LabelProblem[]> {
  const rows = await ctx.db.blockedOrder.findMany({ where: { runId }, orderBy: { orderName: "asc" } });
  return rows.map((row) => ({
    orderName: row.orderName,
    reason: BlockIssues.parse(JSON.parse(row.issues))
      .map((issue) => issue.message)
      .join(" "),
  }));
}

/** "$312.40" when every cost is in one currency; the amounts per currency otherwise. */
function totalOf(costs: ReadonlyArray<{ amount: string; currency: string }>): string | null {
  if (costs.length === 0) return null;
  const currencies = [...new Set(costs.map((cost) => cost.currency))];
  return currencies
    .map((currency) => formatMoney(sumAmounts(costs.filter((cost) => cost.currency === currency).map((cost) => cost.amount)), currency))
    .join(" + ");
}

/** The Print menu's labels document of these booked orders (documents/order-print.server.ts). */
function printPath(booked: readonly ShipmentWithQuote[]): string {
  const numbers = [...new Set(booked.map((shipment) => orderNumber(shipment.orderId)))];
  return `/api/print/labels?${new URLSearchParams({ orders: numbers.join(",") }).toString()}`;
}

export type BuyRefusal = { status: 404 | 409; message: string };

/**
 * Buy: the run's picks that can ship become one batch (recorded CREATING, then created on the Shipping API by
 * its job); once the batch is open, the same call books it. Repeating it is harmless: a run whose shipments are
 * in a batch already gets that batch, and only the call that moves an OPEN batch to BOOKING books it, so two
 * clicks (or the modal and the batch page) book once.
 */
export async function buyLabels(ctx: ShippingContext, runId: string): Promise<Outcome<{ stage: "buying" }, BuyRefusal>> {
  const state = await runState(ctx, runId);
  if (!state) return { ok: false, status: 404, message: "Consign has no such quote for this store. Close this and select the orders again." };
  if (state.run.status === "RUNNING") return { ok: false, status: 409, message: "Consign is still getting rates for these orders. Buy once they are shown." };
  if (state.batch) {
    if (state.batch.status !== "OPEN") return { ok: true, stage: "buying" };
    const booking = await startBatchBooking(ctx, state.batch.id);
    return booking.ok || booking.reason === "pending" ? { ok: true, stage: "buying" } : { ok: false, status: 409, message: booking.message };
  }
  const ready = state.shipments.filter((shipment) => shipment.quoteStatus === "QUOTED" && shipment.selectedQuote);
  const name = `Order list · ${formatDateTime(ctx.now(), await keptShopTimeZone(ctx))}`;
  const created = await startBatchCreation(ctx, { name, shipmentIds: ready.map((shipment) => shipment.id) });
  if (created.batches.length === 0)
    return {
      ok: false,
      status: 409,
      message:
        [...created.errors, ...created.refused.map((refusal) => `${refusal.orderName}: ${refusal.reason}`)].join(" ") ||
        "No order here can ship now. Open in Consign to fix them.",
    };
  return { ok: true, stage: "buying" };
}
