import { z } from "zod";
import type { Context } from "../context";
import { OutcomeInDoubtError, defineJob } from "../jobs/job";
import { jobs } from "../jobs/queue.server";
import { NotConnectedError } from "../shipping/client.server";
import { bookClaimedBatch } from "./batch-booking.server";
import { withShipping } from "../shipping/context.server";
import { createRemote } from "./creation.server";
import { reconcileBooking } from "./batch-results.server";

/**
 * The batch job: everything done to one batch after its intent is recorded runs here, once at a time per
 * batch across every instance (docs/decisions/005, 011). What it does follows the batch's record: CREATING
 * is created (or found) on the service; BOOKING is booked when the job was sent by a booking, on its first
 * attempt, and otherwise read back with Get Batch. A later attempt, or a second job, finds the record
 * already moved on, or reads the service's outcome back: a batch is created once and booked once. While the
 * outcome is unknown (an answer lost and the service not answering the look-up yet) the attempt fails, so the
 * queue tries again after its backoff; once those attempts are spent, the recorded-work sweep sends the job
 * again every minute (app/recorded-work.server.ts), so the batch settles without a restart.
 */
export const batchWorkJob = defineJob({
  name: "batch-work",
  data: z.object({ shop: z.string().min(1), batchId: z.string().min(1), now: z.iso.datetime(), book: z.boolean() }),
  key: ({ batchId }) => batchId,
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 10 * 60,
  run: async ({ shop, batchId, now, book }, { attempt, services }) => {
    const batch = await services.db.batch.findFirst({ where: { id: batchId, shop } });
    if (!batch || (batch.status !== "CREATING" && batch.status !== "BOOKING")) return;
    let ctx;
    try {
      // The job's time is the time of the intent that sent it (quote expiry is judged then).
      ctx = await withShipping({ ...services.context(shop), now: () => new Date(now) });
    } catch (error) {
      // An uninstalled shop's account is gone: nothing can be asked about its batches.
      if (error instanceof NotConnectedError) return;
      throw error;
    }
    if (batch.status === "CREATING") {
      const created = await createRemote(ctx, batch);
      if (created.status === "CREATING") {
        await ctx.db.batch.updateMany({ where: { id: batchId, status: "CREATING" }, data: { error: created.error ?? null } });
        throw new OutcomeInDoubtError(`Batch ${batchId} is not confirmed created on the Shipping API yet: ${created.error ?? "no answer"}`);
      }
      return;
    }
    if (book && attempt === 1) {
      const outcome = await bookClaimedBatch(ctx, batch);
      if (outcome.ok) return;
      await ctx.db.batch.update({ where: { id: batchId }, data: { error: outcome.message } });
      // A later attempt reads the outcome back with Get Batch instead of booking again.
      if (outcome.reason === "pending") throw new OutcomeInDoubtError(`Booking of batch ${batchId} is not confirmed yet: ${outcome.message}`);
      return;
    }
    const settled = await reconcileBooking(ctx, batch);
    if (settled.state === "unconfirmed") throw new OutcomeInDoubtError(`Booking of batch ${batchId} is not confirmed yet: ${settled.message}`);
  },
});

/**
 * Resolves when the batch's job (sent already) and any waiting behind it have run: its record holds the outcome.
 * The job is named by the shop's context: its shop, and `ctx.now()` as the instant of the intent.
 */
export function batchWorkSettled(ctx: Pick<Context, "shop" | "now">, batchId: string, book: boolean): Promise<void> {
  return jobs().drained(batchWorkJob, batchWorkData(ctx, batchId, book));
}

/** Queues the batch's job and resolves when it has run (scripts and tests): the batch's record then holds the outcome. */
export async function runBatchWork(ctx: Pick<Context, "shop" | "now">, batchId: string, book: boolean): Promise<void> {
  const at = ctx.now();
  const stopped = { shop: ctx.shop, now: () => at };
  await queueBatchWork(stopped, batchId, book);
  await batchWorkSettled(stopped, batchId, book);
}

/** Queues the batch's job, dated `ctx.now()` (a creation or booking the page follows by polling; start-up's resume). */
export function queueBatchWork(ctx: Pick<Context, "shop" | "now">, batchId: string, book: boolean): Promise<void> {
  return jobs().send(batchWorkJob, batchWorkData(ctx, batchId, book));
}

function batchWorkData(ctx: Pick<Context, "shop" | "now">, batchId: string, book: boolean): z.infer<typeof batchWorkJob.data> {
  return { shop: ctx.shop, batchId, now: ctx.now().toISOString(), book };
}
