import type { Batch, Shipment } from "@prisma/client";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import { MAX_BATCH_SIZE } from "../../shipping-api/contract";
import { requoteShipments } from "../quoting/requote.server";
import { adoptRemoteMembers, batchMembers, batchableShipments, membershipView, withSelectedQuotes, type BatchStatus } from "../batches/batch-store.server";
import { type ShippingContext } from "../shipping/context.server";
import { orderNumber } from "../shopify/gid";
import type { Refusal } from "../batches/eligibility";
import { explainShippingError } from "../shipping/errors";
import { bookingBlockers, isExpired, repairPlan } from "../batches/membership";
import { recordedBatch } from "./settle.server";
import { loadPrepayOnFile } from "../settings/account.server";
import type { Outcome } from "../outcome";
import { prepayOutlook, type PrepayOutlook } from "../settings/prepay";
import { readByIds } from "../db/id-lists.server";
import { storedQuotes } from "../shipping/stored-rates";

/**
 * Batches of picked rates, mirrored from the Shipping API: list, open, add, remove, cancel, delete. Every
 * change is asked of the service first and recorded here after, so a crash in between leaves a difference
 * that opening the batch shows (and adopts or repairs) rather than a batch that disagrees silently.
 */

export interface BatchListRow {
  id: string;
  name: string;
  status: BatchStatus;
  createdAt: string;
  bookedAt: string | null;
  orders: number;
  booked: number;
  failed: number;
}

const BATCHES_PER_PAGE = 25;

/**
 * The shop's batches, newest first, a page at a time, with per-batch counts of orders, booked and failed. It
 * only reads: a batch being created or booked shows so until its job has recorded the outcome.
 */
export async function listBatches(
  ctx: ShippingContext,
  options: { page: number },
): Promise<{ rows: BatchListRow[]; total: number; page: number; pages: number }> {
  const total = await ctx.db.batch.count({ where: { shop: ctx.shop } });
  const pages = Math.max(1, Math.ceil(total / BATCHES_PER_PAGE));
  const page = Math.min(Math.max(1, options.page), pages);
  const batches = await ctx.db.batch.findMany({
    where: { shop: ctx.shop },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * BATCHES_PER_PAGE,
    take: BATCHES_PER_PAGE,
  });
  const counts = await ctx.db.shipment.groupBy({
    by: ["batchId", "bookingStatus"],
    where: { shop: ctx.shop, batchId: { in: batches.map((batch) => batch.id) } },
    _count: { _all: true },
  });
  const count = (batchId: string, statuses?: string[]) =>
    counts.filter((row) => row.batchId === batchId && (!statuses || statuses.includes(row.bookingStatus))).reduce((sum, row) => sum + row._count._all, 0);
  return {
    rows: batches.map((batch) => ({
      id: batch.id,
      name: batch.name,
      status: batch.status as BatchStatus,
      createdAt: batch.createdAt.toISOString(),
      bookedAt: batch.bookedAt?.toISOString() ?? null,
      orders: count(batch.id),
      booked: count(batch.id, ["BOOKED"]),
      failed: count(batch.id, ["FAILED"]),
    })),
    total,
    page,
    pages,
  };
}

export interface BatchLine {
  shipmentId: string;
  orderId: string;
  orderNumber: string;
  orderName: string;
  carrierCode: string | null;
  serviceCode: string | null;
  serviceDescription: string | null;
  totalAmount: string | null;
  currency: string | null;
  expiresAt: string | null;
  /** The picked rate: in the batch, expired, or not (yet) in the batch on the service. */
  rate: "in-batch" | "expired" | "not-in-batch" | "unknown";
  bookingStatus: string;
  bookingError: string | null;
  bookNumber: string | null;
  trackingNumber: string | null;
  /** Every box's number (one for a shipment whose boxes share it, or before a batch's multi-box shipment's are read). */
  trackingNumbers: string[];
  shippingCost: string | null;
  /** The write-back to Shopify: NONE, PENDING, CREATING, FULFILLED, FAILED. */
  fulfillmentStatus: string;
  /** The return label going in its box (Settings' "Put a return label in the box"; docs/decisions/044), or null when none was asked for. */
  returnLabel: BoxReturnNote | null;
}

/** What happened to an order's return label in the box, in the merchant's words. */
export interface BoxReturnNote {
  state: "added" | "booking" | "none";
  note: string;
}

/** The batch page's note on an outbound shipment's return label in the box, from its mark and the label booked for it. */
function boxReturnNote(member: Pick<Shipment, "boxReturn" | "boxReturnNote">, label: Pick<Shipment, "trackingNumber"> | undefined): BoxReturnNote | null {
  switch (member.boxReturn) {
    case "WANTED":
      return { state: "booking", note: "Its return label is being booked. It prints after this label." };
    case "ADDED":
      return {
        state: "added",
        note: `Return label added${label?.trackingNumber ? ` (tracking ${label.trackingNumber})` : ""}. It prints after this label and costs nothing unless the customer sends it.`,
      };
    case "SKIPPED":
      return { state: "none", note: `No return label: ${member.boxReturnNote ?? "it could not be booked."}` };
    default:
      return null;
  }
}

export interface OrphanLine {
  quoteId: number;
  carrierCode: string;
  serviceCode: string;
  totalAmount: string;
  currency: string;
  expired: boolean;
}

export interface BatchView {
  batch: {
    id: string;
    name: string;
    status: BatchStatus;
    remoteBatchId: number | null;
    error: string | null;
    prepayBalance: string | null;
    createdAt: string;
    bookedAt: string | null;
  };
  /** The service's counts; null before it has the batch or when it could not be read. */
  remote: { status: string; quoteCount: number; bookedCount: number; errorCount: number; processedAt: string | null } | null;
  /** Why the service's view is missing, in words. */
  remoteError: string | null;
  /** The page's lines, in the batch's order (the order its labels print in). */
  lines: BatchLine[];
  /** Which page of LINES_PER_PAGE lines `lines` is (the last when asked past it), and how many there are. */
  page: number;
  pages: number;
  orphans: OrphanLine[];
  /** Why it cannot be booked now (open batches only). */
  blockers: string[];
  /** Lines "Re-quote expired rates" would fix. */
  repairable: number;
  /** Open batches: what booking it will do to the prepay balance (settings/prepay.ts). */
  prepay: PrepayOutlook | null;
  counts: { orders: number; booked: number; failed: number; booking: number };
}

/** Lines the batch page shows at a time: a batch holds up to 500. */
export const LINES_PER_PAGE = 50;

/**
 * Opens a batch: merges the service's Get Batch (which quotes are in it, their status) with the orders
 * Consign knows, one line per order, and returns the lines of `page`; counts, blockers and the prepay outlook
 * cover every line. A batch being created or booked shows so until its job records the outcome; opening it
 * settles nothing.
 */
export async function openBatch(ctx: ShippingContext, batchId: string, { page = 1 }: { page?: number } = {}): Promise<BatchView> {
  const batch = await recordedBatch(ctx, batchId);
  let remote: BatchView["remote"] = null;
  let remoteError: string | null = null;
  let detail = null;
  if (batch.remoteBatchId !== null) {
    const fetched = await ctx.client.getBatch({ batchId: batch.remoteBatchId });
    if (fetched.ok) {
      detail = fetched.value;
      remote = {
        status: detail.status,
        quoteCount: detail.quoteCount,
        bookedCount: detail.bookedCount,
        errorCount: detail.errorCount,
        processedAt: detail.processedAt,
      };
      if (batch.status === "OPEN") await adoptRemoteMembers(ctx, batch.id, detail);
    } else remoteError = explainShippingError("read-batch", fetched.error);
  }
  const members = await batchMembers(ctx, batch.id);
  const view = batch.status === "OPEN" && detail ? membershipView(ctx, members, detail) : null;
  const inBatch = new Map(view?.members.map((member) => [member.shipmentId, member]) ?? []);
  const boxed = members.filter((member) => member.boxReturn === "ADDED").map((member) => member.id);
  const boxReturns = new Map(
    boxed.length === 0
      ? []
      : (
          await ctx.db.shipment.findMany({
            where: { shop: ctx.shop, kind: "RETURN", inBoxOf: { in: boxed }, bookingStatus: "BOOKED" },
            select: { inBoxOf: true, trackingNumber: true },
          })
        ).map((row) => [row.inBoxOf!, row]),
  );

  const lines = members.map((member): BatchLine => {
    const quote = member.selectedQuote;
    const compared = inBatch.get(member.id);
    const rate: BatchLine["rate"] = !view ? "unknown" : compared?.expired ? "expired" : compared?.inBatch ? "in-batch" : "not-in-batch";
    return {
      shipmentId: member.id,
      orderId: member.orderId,
      orderNumber: orderNumber(member.orderId),
      orderName: member.orderName,
      carrierCode: member.carrierCode ?? quote?.carrierCode ?? null,
      serviceCode: member.serviceCode ?? quote?.serviceCode ?? null,
      serviceDescription: quote?.serviceDescription ?? null,
      totalAmount: quote?.totalAmount ?? null,
      currency: member.currency ?? quote?.currency ?? null,
      expiresAt: quote?.expiresAt.toISOString() ?? null,
      rate,
      bookingStatus: member.bookingStatus,
      bookingError: member.bookingError,
      bookNumber: member.bookNumber,
      trackingNumber: member.trackingNumber,
      trackingNumbers: trackingNumbersOf(member),
      shippingCost: member.shippingCost,
      fulfillmentStatus: member.fulfillmentStatus,
      returnLabel: boxReturnNote(member, boxReturns.get(member.id)),
    };
  });
  const remoteById = new Map(detail?.quotes.map((quote) => [quote.quoteId, quote]) ?? []);
  const orphans = (view?.orphans ?? []).map((orphan): OrphanLine => {
    const entry = remoteById.get(orphan.quoteId)!;
    return {
      quoteId: orphan.quoteId,
      carrierCode: entry.carrierCode,
      serviceCode: entry.serviceCode,
      totalAmount: entry.totalAmount,
      currency: entry.currency,
      expired: isExpired(orphan, ctx.now()),
    };
  });
  const pages = Math.max(1, Math.ceil(lines.length / LINES_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  const count = (status: string) => members.filter((member) => member.bookingStatus === status).length;
  const repairable = view
    ? view.members.filter((member) => member.expired || member.inBatch === null).length +
      view.superseded.length +
      orphans.filter((orphan) => orphan.expired).length
    : 0;
  return {
    batch: {
      id: batch.id,
      name: batch.name,
      status: batch.status as BatchStatus,
      remoteBatchId: batch.remoteBatchId,
      error: batch.error,
      prepayBalance: batch.prepayBalance,
      createdAt: batch.createdAt.toISOString(),
      bookedAt: batch.bookedAt?.toISOString() ?? null,
    },
    remote,
    remoteError,
    lines: lines.slice((current - 1) * LINES_PER_PAGE, current * LINES_PER_PAGE),
    page: current,
    pages,
    orphans,
    blockers: view ? bookingBlockers(view, ctx.now()) : [],
    repairable,
    prepay:
      batch.status === "OPEN"
        ? prepayOutlook(
            await loadPrepayOnFile(ctx),
            lines.flatMap((line) => (line.totalAmount && line.currency ? [{ amount: line.totalAmount, currency: line.currency }] : [])),
          )
        : null,
    counts: { orders: members.length, booked: count("BOOKED"), failed: count("FAILED"), booking: count("BOOKING") },
  };
}

/** A change to a batch: what was done, or why not. */
export type ChangeResult = Outcome<{ message: string }>;

const STATUS_WORDS: Record<BatchStatus, string> = {
  CREATING: "still being created",
  OPEN: "open",
  BOOKING: "being booked",
  COMPLETED: "booked",
  FAILED: "booked, and every order failed",
  CANCELLED: "cancelled",
};

async function openBatchOrRefuse(ctx: ShippingContext, batchId: string, doing: string): Promise<{ batch: Batch; remoteBatchId: number } | { refused: string }> {
  const batch = await recordedBatch(ctx, batchId);
  if (batch.status !== "OPEN" || batch.remoteBatchId === null) {
    return { refused: `This batch is ${STATUS_WORDS[batch.status as BatchStatus] ?? batch.status.toLowerCase()}; ${doing} only while a batch is open.` };
  }
  return { batch, remoteBatchId: batch.remoteBatchId };
}

/** Adds picked rates of these shipments to an open batch (up to 500 orders in all). */
export async function addToBatch(ctx: ShippingContext, batchId: string, shipmentIds: readonly string[]): Promise<ChangeResult & { refused: Refusal[] }> {
  const opened = await openBatchOrRefuse(ctx, batchId, "orders can be added");
  if ("refused" in opened) return { ok: false, message: opened.refused, refused: [] };
  const rows = await readByIds(ctx, [...new Set(shipmentIds)], (chunk) => ctx.db.shipment.findMany({ where: { shop: ctx.shop, id: { in: chunk } } }));
  const shipments = withSelectedQuotes(rows);
  const { accepted, refused } = await batchableShipments(ctx, shipments);
  if (accepted.length === 0) return { ok: false, message: "None of these orders can be added.", refused };
  const members = await ctx.db.shipment.count({ where: { shop: ctx.shop, batchId } });
  if (members + accepted.length > MAX_BATCH_SIZE) {
    return {
      ok: false,
      message: `A batch holds at most ${MAX_BATCH_SIZE} orders. This one has ${members}, so ${MAX_BATCH_SIZE - members} more fit; put the rest in a new batch.`,
      refused,
    };
  }
  const added = await ctx.client.addToBatch({ batchId: opened.remoteBatchId, body: { quoteIds: accepted.map((shipment) => shipment.selectedQuoteId!) } });
  if (!added.ok) return { ok: false, message: explainShippingError("add-to-batch", added.error), refused };
  await ctx.db.shipment.updateMany({
    where: { shop: ctx.shop, id: { in: accepted.map((shipment) => shipment.id) } },
    data: { batchId, bookingStatus: "NONE", bookingError: null },
  });
  return { ok: true, message: `Added ${accepted.length} order${accepted.length === 1 ? "" : "s"}.`, refused };
}

/** Takes an order (by shipment) or a leftover rate (by quote id) out of an open batch. */
export async function removeFromBatch(ctx: ShippingContext, batchId: string, target: { shipmentId: string } | { quoteId: number }): Promise<ChangeResult> {
  const opened = await openBatchOrRefuse(ctx, batchId, "orders can be removed");
  if ("refused" in opened) return { ok: false, message: opened.refused };
  const detail = await ctx.client.getBatch({ batchId: opened.remoteBatchId });
  if (!detail.ok) return { ok: false, message: explainShippingError("read-batch", detail.error) };
  const inRemote = new Set(detail.value.quotes.map((quote) => quote.quoteId));
  let quoteIds: number[];
  let shipmentId: string | null = null;
  if ("shipmentId" in target) {
    const shipment = await ctx.db.shipment.findFirst({ where: { id: target.shipmentId, shop: ctx.shop, batchId } });
    if (!shipment) return { ok: false, message: "That order is not in this batch any more." };
    shipmentId = shipment.id;
    // The picked rate, and any earlier rate of the same order still in the batch.
    const owned = storedQuotes(shipment);
    quoteIds = [...new Set([...(shipment.selectedQuoteId === null ? [] : [shipment.selectedQuoteId]), ...owned.map((quote) => quote.quoteId)])].filter((id) =>
      inRemote.has(id),
    );
  } else quoteIds = inRemote.has(target.quoteId) ? [target.quoteId] : [];
  for (const quoteId of quoteIds) {
    const removed = await ctx.client.removeFromBatch({ batchId: opened.remoteBatchId, quoteId });
    if (!removed.ok) return { ok: false, message: explainShippingError("remove-from-batch", removed.error) };
  }
  if (shipmentId) await ctx.db.shipment.update({ where: { id: shipmentId }, data: { batchId: null } });
  return { ok: true, message: shipmentId ? "Removed the order from the batch." : "Removed the rate from the batch." };
}

/** Cancels an open batch on the service. Its orders stay in it (as the service keeps its quotes) until it is deleted. */
export async function cancelBatch(ctx: ShippingContext, batchId: string): Promise<ChangeResult> {
  const opened = await openBatchOrRefuse(ctx, batchId, "it can be cancelled");
  if ("refused" in opened) return { ok: false, message: opened.refused };
  const cancelled = await ctx.client.cancelBatch({ batchId: opened.remoteBatchId });
  if (!cancelled.ok) return { ok: false, message: explainShippingError("cancel-batch", cancelled.error) };
  await ctx.db.batch.update({ where: { id: batchId }, data: { status: "CANCELLED" } });
  return { ok: true, message: "Batch cancelled. Delete it to put its orders in another batch." };
}

/**
 * Deletes a batch on the service and here. Its orders are free to be batched again; booked ones keep their
 * labels and tracking (reprint them from each order). A batch whose creation or booking is unconfirmed is
 * not deleted until its job has recorded the outcome.
 */
export async function deleteBatch(ctx: ShippingContext, batchId: string): Promise<ChangeResult> {
  const batch = await recordedBatch(ctx, batchId);
  if (batch.status === "CREATING" || batch.status === "BOOKING") {
    return { ok: false, message: `This batch is ${STATUS_WORDS[batch.status]} and the Shipping API has not confirmed it yet. Try again in a minute.` };
  }
  if (batch.remoteBatchId !== null) {
    const deleted = await ctx.client.deleteBatch({ batchId: batch.remoteBatchId });
    if (!deleted.ok && deleted.error.kind !== "not_found") return { ok: false, message: explainShippingError("delete-batch", deleted.error) };
  }
  await ctx.db.batch.delete({ where: { id: batch.id } });
  return { ok: true, message: `Deleted “${batch.name}”.` };
}

/** Orders whose re-quote failed, with why; they stay in the batch with their expired rate. */
type RequoteFailures = { requoteFailures: Array<{ orderName: string; error: string }> };

/** Repaired, or not (a step failed, or some orders could not be re-quoted); either way the orders whose re-quote failed. */
export type RepairResult = Outcome<{ message: string } & RequoteFailures, RequoteFailures>;

/**
 * "Re-quote expired rates": expired rates get new ones and the batch is brought in line with the picked
 * rates (superseded and expired leftovers removed, new rates added). Each step is read from the service's
 * state, so running it again after a crash or an error continues where it stopped.
 */
export async function repairBatch(ctx: ShippingContext, batchId: string): Promise<RepairResult> {
  const opened = await openBatchOrRefuse(ctx, batchId, "its rates can be re-quoted");
  if ("refused" in opened) return { ok: false, message: opened.refused, requoteFailures: [] };
  const remoteBatchId = opened.remoteBatchId;
  const read = async () => {
    const detail = await ctx.client.getBatch({ batchId: remoteBatchId });
    if (!detail.ok) return { ok: false as const, message: explainShippingError("read-batch", detail.error) };
    await adoptRemoteMembers(ctx, batchId, detail.value);
    const members = await batchMembers(ctx, batchId);
    return { ok: true as const, members, view: membershipView(ctx, members, detail.value) };
  };

  const before = await read();
  if (!before.ok) return { ok: false, message: before.message, requoteFailures: [] };
  const plan = repairPlan(before.view, ctx.now());
  for (const quoteId of plan.remove) {
    const removed = await ctx.client.removeFromBatch({ batchId: remoteBatchId, quoteId });
    if (!removed.ok) return { ok: false, message: explainShippingError("remove-from-batch", removed.error), requoteFailures: [] };
  }
  const names = new Map(before.members.map((member) => [member.id, member.orderName]));
  const outcomes = plan.requote.length > 0 ? await requoteShipments(ctx, plan.requote) : [];
  const requoteFailures = outcomes.flatMap((outcome) => (outcome.ok ? [] : [{ orderName: names.get(outcome.shipmentId) ?? "", error: outcome.message }]));

  const after = await read();
  if (!after.ok) return { ok: false, message: after.message, requoteFailures };
  const missing = new Set(repairPlan(after.view, ctx.now()).add);
  const quoteIds = after.members
    .filter((member) => missing.has(member.id))
    .flatMap((member) => (member.selectedQuoteId === null ? [] : [member.selectedQuoteId]));
  if (quoteIds.length > 0) {
    const added = await ctx.client.addToBatch({ batchId: remoteBatchId, body: { quoteIds } });
    if (!added.ok) return { ok: false, message: explainShippingError("add-to-batch", added.error), requoteFailures };
  }
  const requoted = outcomes.length - requoteFailures.length;
  const message =
    plan.remove.length === 0 && outcomes.length === 0 && quoteIds.length === 0
      ? "Every rate in the batch is current."
      : `Re-quoted ${requoted} order${requoted === 1 ? "" : "s"} and updated ${quoteIds.length} rate${quoteIds.length === 1 ? "" : "s"} in the batch.`;
  return requoteFailures.length === 0 ? { ok: true, message, requoteFailures } : { ok: false, message, requoteFailures };
}
