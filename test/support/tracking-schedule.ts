import type { Prisma, PrismaClient } from "@prisma/client";

/**
 * A followed shipment's schedule in tests (docs/decisions/055): when it is next polled lives on its TrackingSchedule
 * row, beside the shipment's own.
 */

/** Makes the followed shipment `id` due at `at` (a test's "poll it now"), with `more` of its schedule. */
export function makeDue(db: Pick<PrismaClient, "trackingSchedule">, id: string, at: Date, more: Omit<Prisma.TrackingScheduleUpdateInput, "nextTrackAt"> = {}) {
  return db.trackingSchedule.update({ where: { id }, data: { ...more, nextTrackAt: at } });
}

/** The shipment `id` with its schedule (null if it was never followed). */
export function shipmentWithSchedule(db: Pick<PrismaClient, "shipment">, id: string) {
  return db.shipment.findUniqueOrThrow({ where: { id }, include: { schedule: true } });
}
