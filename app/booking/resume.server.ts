import type { JobServices } from "../jobs/job";
import { reconcileSingleBooking } from "./single-booking.server";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping } from "../shipping/context.server";
import { settleBatch } from "./settle.server";

/**
 * At process start: bookings a crash left unconfirmed are settled before anything else — batches CREATING or
 * BOOKING through Get Batch (found by name, or read back), single bookings through Search Shipments — so
 * what was booked is recorded (and queued for fulfillment write-back) without waiting for a merchant to
 * open the page. Each is settled the same way a page visit would, so running this twice changes nothing.
 */
export async function resumeBookings(services: JobServices, now: Date = new Date()): Promise<{ batches: number; shipments: number }> {
  const { db } = services;
  const [batches, shipments] = await Promise.all([
    db.batch.findMany({ where: { status: { in: ["CREATING", "BOOKING"] } } }),
    // Members of a BOOKING batch are settled with their batch.
    db.shipment.findMany({ where: { bookingStatus: "BOOKING", OR: [{ batchId: null }, { batch: { status: { not: "BOOKING" } } }] } }),
  ]);
  const shops = [...new Set([...batches.map((batch) => batch.shop), ...shipments.map((shipment) => shipment.shop)])];
  for (const shop of shops) {
    let ctx;
    try {
      ctx = await withShipping({ ...services.context(shop), now: () => now });
    } catch (error) {
      // An uninstalled shop's account is gone: nothing can be asked about its bookings.
      if (error instanceof NotConnectedError) continue;
      throw error;
    }
    for (const batch of batches.filter((entry) => entry.shop === shop)) await settleBatch(ctx, batch);
    for (const shipment of shipments.filter((entry) => entry.shop === shop)) await reconcileSingleBooking(ctx, shipment);
  }
  return { batches: batches.length, shipments: shipments.length };
}
