import type { JobServices } from "../jobs/job";
import { reconcileSingleBooking } from "./single-booking.server";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping } from "../shipping/context.server";
import { queueBatchWork } from "./batch-work-job";

/**
 * A batch whose intent changed less than this long ago is left to the job its change sent: a booking is
 * claimed (BOOKING) a moment before its job is sent, and a look-up sent in between would find the batch
 * still open on the service and release it. Its own job retries while its outcome is in doubt.
 */
export const BOOKING_SWEEP_GRACE_MS = 30_000;

/**
 * Bookings a crash or a lost answer left unconfirmed are settled without waiting for a merchant to open a
 * page (pages only read): at process start (`graceMs` 0) and every minute by the recorded-work sweep. Each
 * batch CREATING or BOOKING whose record has not changed for `graceMs` gets its job again (batch-work: found
 * by name and linked, or read back with Get Batch), which runs once at a time per batch in whichever instance
 * takes it; single bookings are settled here through Search Shipments (each waits out its own in-flight
 * grace). What was booked is recorded (and queued for fulfillment write-back); running this twice changes
 * nothing. All of it is dated one instant, the services' `now()` when it starts.
 */
export async function resumeBookings(services: JobServices, { graceMs = 0 }: { graceMs?: number } = {}): Promise<{ batches: number; shipments: number }> {
  const { db } = services;
  const now = services.now();
  // At start-up (no grace) every open intent is settled, whatever its time.
  const unchangedSince = graceMs > 0 ? { lte: new Date(now.getTime() - graceMs) } : undefined;
  const [batches, shipments] = await Promise.all([
    db.batch.findMany({ where: { status: { in: ["CREATING", "BOOKING"] }, updatedAt: unchangedSince } }),
    // Members of a BOOKING batch are settled with their batch.
    db.shipment.findMany({
      where: { bookingStatus: "BOOKING", updatedAt: unchangedSince, OR: [{ batchId: null }, { batch: { status: { not: "BOOKING" } } }] },
    }),
  ]);
  for (const batch of batches) await queueBatchWork({ ...services.context(batch.shop), now: () => now }, batch.id, false);
  for (const shop of new Set(shipments.map((shipment) => shipment.shop))) {
    let ctx;
    try {
      ctx = await withShipping({ ...services.context(shop), now: () => now });
    } catch (error) {
      // An uninstalled shop's account is gone: nothing can be asked about its bookings.
      if (error instanceof NotConnectedError) continue;
      throw error;
    }
    for (const shipment of shipments.filter((entry) => entry.shop === shop)) await reconcileSingleBooking(ctx, shipment);
  }
  return { batches: batches.length, shipments: shipments.length };
}
