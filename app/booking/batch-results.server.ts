import type { Batch, Prisma } from "@prisma/client";
import { afterBooked, recordBatchBooked, type BatchBooked } from "./record-booked.server";
import { updateRowsById } from "../db/db-batch.server";
import { batchMembers } from "../batches/batch-store.server";
import type { ShippingContext } from "../shipping/context.server";
import { explainShippingError } from "../shipping/errors";
import { loadSettings, recordPrepayBalance } from "../settings/account.server";
import { queueBoxReturnLabels } from "./box-return-job";
import { bookedRates, pickedQuote } from "../shipping/stored-rates";

/**
 * Recording a batch's booking results, from Batch Book's answer or, when that answer was lost, from Get
 * Batch. Both paths write the same way and only move a shipment that is not booked yet, so reading the
 * results twice (a reconcile racing a late answer) records each booking once and never resets the
 * fulfillment write-back of a shipment already on its way.
 */

export interface QuoteOutcome {
  quoteId: number;
  booked: { bookNumber: string; trackingNumber: string; shippingCost: string; zone: string | null } | null;
  /** Why it was not booked, in words (when `booked` is null). */
  error: string | null;
}

export async function recordBatchResults(
  ctx: ShippingContext,
  batch: Batch,
  outcomes: readonly QuoteOutcome[],
  options: { prepayBalance?: string | null } = {},
): Promise<{ booked: number; failed: number }> {
  const members = await batchMembers(ctx, batch.id);
  const byQuote = new Map(members.flatMap((member) => (member.selectedQuoteId === null ? [] : [[member.selectedQuoteId, member] as const])));
  const writes: Prisma.PrismaPromise<unknown>[] = [];
  const seen = new Set<string>();
  const booked: BatchBooked[] = [];
  const failures: Array<{ id: string; bookingError: string }> = [];
  for (const outcome of outcomes) {
    const member = byQuote.get(outcome.quoteId);
    if (!member) continue;
    seen.add(member.id);
    if (outcome.booked) {
      const quote = member.selectedQuote;
      const picked = pickedQuote(member);
      booked.push({
        id: member.id,
        bookNumber: outcome.booked.bookNumber,
        trackingNumber: outcome.booked.trackingNumber,
        shippingCost: outcome.booked.shippingCost,
        carrierCode: quote?.carrierCode ?? null,
        serviceCode: quote?.serviceCode ?? null,
        currency: quote?.currency ?? null,
        zone: outcome.booked.zone ?? quote?.zone ?? null,
        rates: picked ? bookedRates(picked) : member.rates,
      });
    } else failures.push({ id: member.id, bookingError: outcome.error ?? "It was not booked." });
  }
  // Set-based, a statement per chunk whatever the batch's size: the bookings, then the failures (only over BOOKING).
  writes.push(...recordBatchBooked(ctx, booked));
  writes.push(
    ...updateRowsById(ctx, {
      table: "Shipment",
      columns: ["bookingError"],
      rows: failures,
      set: { bookingStatus: "FAILED" },
      where: [`"bookingStatus" = 'BOOKING'`],
    }),
  );
  const bookedIds = booked.map((row) => row.id);
  const unanswered = members.filter((member) => member.bookingStatus === "BOOKING" && !seen.has(member.id)).map((member) => member.id);
  if (unanswered.length > 0) {
    writes.push(
      ctx.db.shipment.updateMany({
        where: { id: { in: unanswered }, bookingStatus: "BOOKING" },
        data: { bookingStatus: "FAILED", bookingError: "Its rate was not in the batch when it was booked, so it was not booked. Put it in a new batch." },
      }),
    );
  }
  // The return labels in the boxes (Settings): wanted for every order booked here, written with its booking and
  // booked after it by their own job, so nothing that happens to them holds up or fails an outbound label.
  const boxReturns = bookedIds.length > 0 && (await loadSettings(ctx)).returnLabelInBox;
  if (boxReturns)
    writes.push(ctx.db.shipment.updateMany({ where: { id: { in: bookedIds }, kind: "OUTBOUND", boxReturn: null }, data: { boxReturn: "WANTED" } }));
  const failed = outcomes.length - booked.length;
  writes.push(
    ctx.db.batch.update({
      where: { id: batch.id },
      data: {
        status: booked.length > 0 ? "COMPLETED" : "FAILED",
        bookedAt: ctx.now(),
        error: booked.length > 0 ? null : "No order in this batch could be booked. Each order says why; “Re-quote failed orders” puts them in a new batch.",
        ...(options.prepayBalance ? { prepayBalance: options.prepayBalance } : {}),
      },
    }),
  );
  await ctx.db.$transaction(writes);
  if (booked.length > 0) await afterBooked(ctx);
  if (boxReturns) await queueBoxReturnLabels(ctx);
  if (options.prepayBalance) await recordPrepayBalance(ctx, options.prepayBalance);
  return { booked: booked.length, failed };
}

export type ReconcileOutcome =
  { state: "booked"; booked: number; failed: number } | { state: "open" } | { state: "cancelled" } | { state: "unconfirmed"; message: string };

/**
 * A batch found BOOKING (after a crash, a timeout or a refusal) is read back with Get Batch before anything
 * else: quotes the service booked get their book and tracking numbers here; a batch the service still has
 * `open` never received the call (or refused it), so its orders are released and booking may be retried.
 */
export async function reconcileBooking(ctx: ShippingContext, batch: Batch): Promise<ReconcileOutcome> {
  // Nothing was booked: the batch takes the service's status and its orders may be booked again.
  const release = (status: "OPEN" | "CANCELLED") =>
    ctx.db.$transaction([
      ctx.db.batch.update({ where: { id: batch.id }, data: { status } }),
      ctx.db.shipment.updateMany({ where: { shop: ctx.shop, batchId: batch.id, bookingStatus: "BOOKING" }, data: { bookingStatus: "NONE" } }),
    ]);
  if (batch.remoteBatchId === null) {
    await release("OPEN");
    return { state: "open" };
  }
  const detail = await ctx.client.getBatch({ batchId: batch.remoteBatchId });
  if (!detail.ok) {
    const message = explainShippingError("read-batch", detail.error);
    await ctx.db.batch.update({ where: { id: batch.id }, data: { error: `Booking is not confirmed yet. ${message}` } });
    return { state: "unconfirmed", message };
  }
  switch (detail.value.status) {
    case "open":
      await release("OPEN");
      return { state: "open" };
    case "cancelled":
      await release("CANCELLED");
      return { state: "cancelled" };
    case "processing":
      return { state: "unconfirmed", message: "The Shipping API is still booking this batch. This page updates by itself." };
    case "completed":
    case "failed": {
      const outcomes = detail.value.quotes.map((quote): QuoteOutcome =>
        quote.status === "booked" && quote.bookNumber
          ? {
              quoteId: quote.quoteId,
              booked: { bookNumber: quote.bookNumber, trackingNumber: quote.trackingNumber ?? "", shippingCost: quote.totalAmount, zone: null },
              error: null,
            }
          : {
              quoteId: quote.quoteId,
              booked: null,
              error: `${quote.bookingError ?? (quote.status === "expired" ? "Its rate expired before booking." : "It was not booked.")} “Re-quote failed orders” puts it in a new batch.`,
            },
      );
      return { state: "booked", ...(await recordBatchResults(ctx, batch, outcomes)) };
    }
  }
}
