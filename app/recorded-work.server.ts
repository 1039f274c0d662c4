import { queueOpenOrderSignals } from "./signals/signals.server";
import { BOOKING_SWEEP_GRACE_MS, resumeBookings } from "./booking/resume.server";
import { queueOutstandingWriteBack } from "./fulfillment/write-back.server";
import { defineMinuteJob, type JobServices } from "./jobs/job";
import { resumeMirrorSyncs } from "./orders/mirror-sync.server";
import { resumeQuoteRuns } from "./quoting/quote-run.server";
import { resumeWebhookDeliveries } from "./webhooks/webhooks.server";
import { queueOutstandingReturnAttach } from "./returns/return-attach.server";
import { queueOutstandingBoxReturns } from "./returns/box-return.server";

/**
 * Work that a fault can leave in doubt, and what settles it without a restart (docs/decisions/011). Every
 * piece of work records its intent before an outside call and its outcome after; a job whose outcome is
 * unknown fails and is retried with backoff, each attempt looking before it acts. When a job's attempts are
 * spent (an upstream down for longer), or a process died holding it, the records still say what is open, and
 * this sends the jobs they call for again: at process start, and every minute on either queue.
 *
 * | records left open                       | job sent again                          |
 * |-----------------------------------------|-----------------------------------------|
 * | batch CREATING or BOOKING               | batch-work (found by name / Get Batch)  |
 * | single booking BOOKING                  | settled here with Search Shipments      |
 * | quote run RUNNING                       | quote-run (quotes what is not quoted)   |
 * | order sync RUNNING                      | order-mirror-sync                       |
 * | shipment fulfillment PENDING / CREATING | fulfillment-write-back (reads first)    |
 * | webhook delivery not processed          | the shop's webhook-deliveries           |
 * | shipment signalsDueAt, signal not done  | the shop's order-signals                |
 * | return label fulfillment PENDING / CREATING | return-label-attach (reads first)   |
 * | booked order's box return label WANTED  | box-return-labels (reads back first)    |
 *
 * Tracking needs no entry here: its schedule (tracking-schedule, every minute) sends every due shipment's
 * poll, and an event whose write was in doubt is due again.
 */
export async function resumeRecordedWork(services: JobServices, { graceMs }: { graceMs: number }): Promise<{ writeBackShops: string[] }> {
  const failures: Error[] = [];
  const attempt = async <T>(what: string, work: () => Promise<T>, otherwise: T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      failures.push(new Error(`${what} failed`, { cause: error }));
      return otherwise;
    }
  };
  // Bookings first: settling one can queue shipments for the write-back.
  await attempt("settling unconfirmed bookings", () => resumeBookings(services, { graceMs }), null);
  const [writeBackShops] = await Promise.all([
    attempt("queueing outstanding fulfillment write-back", () => queueOutstandingWriteBack(services), []),
    attempt("resuming quote runs", () => resumeQuoteRuns(services), 0),
    attempt("resuming order syncs", () => resumeMirrorSyncs(services), 0),
    attempt("resuming webhook deliveries", () => resumeWebhookDeliveries(services), 0),
    attempt("resuming order signals", () => queueOpenOrderSignals(services), []),
    attempt("queueing outstanding return labels for Shopify", () => queueOutstandingReturnAttach(services), []),
    attempt("queueing return labels for boxes", () => queueOutstandingBoxReturns(services, graceMs), []),
  ]);
  if (failures.length > 0) throw new AggregateError(failures, `Settling recorded work failed: ${failures.map((failure) => failure.message).join("; ")}`);
  return { writeBackShops };
}

/**
 * Every minute, on whichever instance's queue takes it: the recorded work no job holds any more is sent its
 * job again, so work in doubt settles within a minute of the upstream answering again. Batches whose record
 * changed in the last `BOOKING_SWEEP_GRACE_MS` are left to the job that change sent.
 */
export const recordedWorkSweepJob = defineMinuteJob("recorded-work-sweep", async (services) => {
  await resumeRecordedWork(services, { graceMs: BOOKING_SWEEP_GRACE_MS });
});
