import { OutcomeInDoubtError, defineJob } from "../jobs/job";
import { NotConnectedError } from "../shipping/client.server";
import { bookClaimedBatch } from "./batch-booking.server";
import { withShipping } from "../shipping/context.server";
import { createRemote } from "./creation.server";
import { reconcileBooking } from "./batch-results.server";
import { batchWorkJob } from "./batch-work-job";

/**
 * The batch job: everything done to one batch after its intent is recorded runs here, once at a time per
 * batch across every instance (docs/decisions/005, 011). What it does follows the batch's record: CREATING
 * is created (or found) on the service; BOOKING is booked when the job was sent by a booking, on its first
 * attempt, and otherwise read back with Get Batch. A later attempt, or a second job, finds the record
 * already moved on, or reads the service's outcome back: a batch is created once and booked once. While the
 * outcome is unknown (an answer lost and the service not answering the look-up yet) the attempt fails, so the
 * queue tries again after its backoff; once those attempts are spent, the recorded-work sweep sends the job
 * again every minute (app/recorded-work.server.ts), so the batch settles without a restart. Its definition,
 * and sending it, are app/booking/batch-work-job.ts.
 */
export const batchWorkSpec = defineJob({
  ...batchWorkJob,
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
