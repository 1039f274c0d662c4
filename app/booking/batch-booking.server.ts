import type { Batch } from "@prisma/client";
import { crashPoint } from "../crash-points.server";
import type { Outcome } from "../outcome";
import { requoteShipments } from "../quoting/requote.server";
import { MAX_NAME_BEFORE_SUFFIX } from "../batches/batch-plan";
import { adoptRemoteMembers, batchGuard, batchMembers, membershipView, type BatchStatus } from "../batches/batch-store.server";
import { queueBatchWork, settleBatchWork } from "./batch-work-job";
import type { ShippingContext } from "../shipping/context.server";
import { startBatchCreation, type CreateBatchesResult } from "./creation.server";
import { explainBookingFailure, explainShippingError } from "../shipping/errors";
import { bookingBlockers } from "../batches/membership";
import { reconcileBooking, recordBatchResults, type QuoteOutcome } from "./batch-results.server";
import { recordedBatch } from "./settle.server";

/**
 * Booking a batch. The intent is recorded first (the batch and its orders BOOKING), then Batch Book is
 * called once; its answer is recorded per order (BOOKED with book number, tracking number, cost and zone,
 * queued for fulfillment write-back; or FAILED with the reason), all by the batch's job. Any doubt about
 * the outcome (a crash, a timeout, a refusal) is settled by that job with Get Batch before anything else
 * (pages only show the batch BOOKING meanwhile), and the service books a batch only while it is open, so
 * no order is booked twice.
 */

/**
 * Booked (how many orders were and were not), or not: `refused` when the batch cannot be booked as it is,
 * `pending` while its booking runs or its outcome is not known yet (the page follows the batch).
 */
export type BookBatchOutcome = Outcome<{ booked: number; failed: number; prepayBalance: string | null }, { reason: "refused" | "pending" }>;

const refuse = (message: string) => ({ ok: false as const, reason: "refused" as const, message });
const pending = (message: string) => ({ ok: false as const, reason: "pending" as const, message });

const NOT_BOOKABLE: Partial<Record<BatchStatus, string>> = {
  CREATING: "This batch is still being created on the Shipping API. Try again in a minute.",
  BOOKING: "This batch is being booked already. This page updates by itself.",
  COMPLETED: "This batch is booked already. Download its labels below; “Re-quote failed orders” books the ones that failed in a new batch.",
  FAILED: "This batch was booked and every order failed. “Re-quote failed orders” puts them in a new batch.",
  CANCELLED: "This batch was cancelled. Delete it to put its orders in another batch.",
};

/**
 * Checks the batch can be booked (open on the service, no expired or stray rates, no order that already
 * has a label) and records the intent. Returns the batch to book, or why not.
 */
export async function claimBatchBooking(ctx: ShippingContext, batchId: string): Promise<Outcome<{ batch: Batch }, { reason: "refused" }>> {
  const batch = await recordedBatch(ctx, batchId);
  const notBookable = NOT_BOOKABLE[batch.status as BatchStatus];
  if (notBookable) return refuse(notBookable);
  if (batch.remoteBatchId === null) return refuse("The Shipping API does not have this batch yet. Try again in a minute.");

  const detail = await ctx.client.getBatch({ batchId: batch.remoteBatchId });
  if (!detail.ok) return refuse(explainShippingError("read-batch", detail.error));
  if (detail.value.status === "open") await adoptRemoteMembers(ctx, batch.id, detail.value);
  const members = await batchMembers(ctx, batch.id);
  const blockers = detail.value.status === "open" ? bookingBlockers(membershipView(ctx, members, detail.value), ctx.now()) : [];
  const guard = await batchGuard(
    ctx,
    members.map((member) => member.fulfillmentOrderId),
    batch.id,
  );
  const labelled = members.filter((member) => guard.labelled.has(member.fulfillmentOrderId) || member.bookingStatus === "BOOKED");
  if (labelled.length > 0)
    blockers.push(
      `${labelled.map((member) => member.orderName).join(", ")} already ${labelled.length === 1 ? "has a label" : "have labels"}. Remove ${labelled.length === 1 ? "it" : "them"} from the batch, then book.`,
    );
  if (blockers.length > 0) return refuse(blockers.join(" "));

  // Conditional on OPEN: of two clicks, one books.
  const claimed = await ctx.db.batch.updateMany({ where: { id: batch.id, shop: ctx.shop, status: "OPEN" }, data: { status: "BOOKING", error: null } });
  if (claimed.count !== 1) return refuse(NOT_BOOKABLE.BOOKING!);
  await ctx.db.shipment.updateMany({
    where: { shop: ctx.shop, batchId: batch.id, bookingStatus: { in: ["NONE", "FAILED"] } },
    data: { bookingStatus: "BOOKING", bookingError: null },
  });
  return { ok: true, batch: { ...batch, status: "BOOKING" } };
}

/** Calls Batch Book for a claimed batch and records the outcome (or reads it back when the answer is lost). */
export async function bookClaimedBatch(ctx: ShippingContext, batch: Batch): Promise<BookBatchOutcome> {
  crashPoint("booking:before-call");
  const response = await ctx.client.batchBook({ body: { batchId: batch.remoteBatchId! } });
  crashPoint("booking:after-call");
  if (response.ok) {
    const outcomes = response.value.results.map((result): QuoteOutcome =>
      result.status === "success"
        ? {
            quoteId: result.quoteId,
            booked: { bookNumber: result.bookNumber, trackingNumber: result.trackingNumber, shippingCost: result.totalShippingCost, zone: result.zone },
            error: null,
          }
        : { quoteId: result.quoteId, booked: null, error: explainBookingFailure(result.errorCategory, result.error) },
    );
    const prepayBalance = response.value.prepayBalance ?? null;
    return { ok: true, prepayBalance, ...(await recordBatchResults(ctx, batch, outcomes, { prepayBalance })) };
  }
  const settled = await reconcileBooking(ctx, batch);
  switch (settled.state) {
    case "booked":
      return { ok: true, booked: settled.booked, failed: settled.failed, prepayBalance: null };
    case "open":
      return refuse(explainShippingError("book-batch", response.error));
    case "cancelled":
      return refuse(NOT_BOOKABLE.CANCELLED!);
    case "unconfirmed":
      return pending(`${explainShippingError("book-batch", response.error)} ${settled.message}`);
  }
}

/** Books a batch and waits for the outcome (scripts and tests; pages use `startBatchBooking`), read from its records. */
export async function bookBatch(ctx: ShippingContext, batchId: string): Promise<BookBatchOutcome> {
  const claim = await claimBatchBooking(ctx, batchId);
  if (!claim.ok) return claim;
  await settleBatchWork(ctx, batchId, true);
  const batch = await ctx.db.batch.findFirst({ where: { id: batchId, shop: ctx.shop } });
  switch (batch?.status) {
    case "COMPLETED":
    case "FAILED": {
      const members = await batchMembers(ctx, batchId);
      const count = (status: string) => members.filter((member) => member.bookingStatus === status).length;
      return { ok: true, booked: count("BOOKED"), failed: count("FAILED"), prepayBalance: batch.prepayBalance };
    }
    case "BOOKING":
      return pending(batch.error ?? NOT_BOOKABLE.BOOKING!);
    case "CANCELLED":
      return refuse(batch.error ?? NOT_BOOKABLE.CANCELLED!);
    default:
      return refuse(batch?.error ?? "This batch could not be booked. Try again.");
  }
}

/**
 * Claims the batch and queues its booking: the page answers at once and polls while the batch is BOOKING.
 * A crash in between leaves a BOOKING batch that its job (sent again at start-up) settles with Get Batch.
 */
export async function startBatchBooking(ctx: ShippingContext, batchId: string): Promise<BookBatchOutcome> {
  const claim = await claimBatchBooking(ctx, batchId);
  if (!claim.ok) return claim;
  await queueBatchWork(ctx, batchId, true);
  return pending("Booking started. This page updates by itself.");
}

/** The combined labels PDF of a booked batch (reprints too), from View Batch Labels. */
export async function batchLabels(ctx: ShippingContext, batchId: string): Promise<Outcome<{ pdf: Buffer; filename: string }>> {
  const batch = await recordedBatch(ctx, batchId);
  if (batch.remoteBatchId === null || (batch.status !== "COMPLETED" && batch.status !== "FAILED")) {
    return { ok: false, message: "Labels can be printed once the batch is booked." };
  }
  const labels = await ctx.client.getBatchLabels({ batchId: batch.remoteBatchId });
  if (!labels.ok) return { ok: false, message: explainShippingError("batch-labels", labels.error) };
  return { ok: true, pdf: Buffer.from(labels.value.labelsPdf, "base64"), filename: `${batchFileName(batch.name)}-labels.pdf` };
}

/** A batch's name as a file name: "Friday (1/2)" → "friday-1-2". */
export function batchFileName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 80)
      .toLowerCase() || "batch"
  );
}

/** Orders whose re-quote failed, with why. */
type RequoteFailures = { requoteFailures: Array<{ shipmentId: string; orderName: string; error: string }> };

/** The new batch's creation with what was re-quoted, or why there is none; either way the orders whose re-quote failed. */
export type RebatchResult = Outcome<{ created: CreateBatchesResult; message: string } & RequoteFailures, RequoteFailures>;

/** A retry batch's name: "Name (retry)", shortened so it keeps within the service's limit. */
function retryName(name: string): string {
  const suffix = " (retry)";
  return `${name.slice(0, MAX_NAME_BEFORE_SUFFIX - suffix.length)}${suffix}`;
}

/** The failed orders of a booked batch get new rates and go into a new batch, ready to book. */
export async function rebatchFailed(ctx: ShippingContext, batchId: string): Promise<RebatchResult> {
  const batch = await recordedBatch(ctx, batchId);
  if (batch.status !== "COMPLETED" && batch.status !== "FAILED") {
    return { ok: false, message: "Only a booked batch has failed orders to re-quote.", requoteFailures: [] };
  }
  const failed = (await batchMembers(ctx, batch.id)).filter((member) => member.bookingStatus === "FAILED");
  if (failed.length === 0) return { ok: false, message: "No order of this batch failed.", requoteFailures: [] };
  const names = new Map(failed.map((member) => [member.id, member.orderName]));
  const outcomes = await requoteShipments(
    ctx,
    failed.map((member) => member.id),
  );
  const requoteFailures = outcomes.flatMap((outcome) =>
    outcome.ok ? [] : [{ shipmentId: outcome.shipmentId, orderName: names.get(outcome.shipmentId) ?? "", error: outcome.message }],
  );
  const requoted = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.shipmentId] : []));
  if (requoted.length === 0) return { ok: false, message: "No failed order could be re-quoted. Each says why.", requoteFailures };
  const created = await startBatchCreation(ctx, { name: retryName(batch.name), shipmentIds: requoted });
  const orders = created.batches.reduce((sum, entry) => sum + entry.orders, 0);
  return {
    ok: true,
    requoteFailures,
    created,
    message: `Re-quoted ${requoted.length} failed order${requoted.length === 1 ? "" : "s"}; ${orders} went into a new batch.`,
  };
}
