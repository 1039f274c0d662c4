import type { JobServices } from "../jobs/job";
import { reconcileSingleBooking } from "./single-booking.server";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping } from "../shipping/context.server";
import { queueBatchWork } from "./batch-work.server";

/**
 * At process start: bookings a crash left unconfirmed are settled without waiting for a merchant to open a
 * page (pages only read). Each batch CREATING or BOOKING gets its job again (batch-work: found by name and
 * linked, or read back with Get Batch), which runs once at a time per batch in whichever instance takes it;
 * single bookings are settled here through Search Shipments. What was booked is recorded (and queued for
 * fulfillment write-back); running this twice changes nothing. All of it is dated one instant, the services'
 * `now()` when it starts.
 */
export async function resumeBookings(services: JobServices): Promise<{ batches: number; shipments: number }> {
  const { db } = services;
  const now = services.now();
  const [batches, shipments] = await Promise.all([
    db.batch.findMany({ where: { status: { in: ["CREATING", "BOOKING"] } } }),
    // Members of a BOOKING batch are settled with their batch.
    db.shipment.findMany({ where: { bookingStatus: "BOOKING", OR: [{ batchId: null }, { batch: { status: { not: "BOOKING" } } }] } }),
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
