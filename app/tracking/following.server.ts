import type { Prisma, PrismaClient } from "@prisma/client";
import type { Context } from "../context";
import { firstPollAt } from "./schedule";
import { TrackingState, type StopReason } from "./tracking-states";

/**
 * Following a shipment (docs/decisions/006, 055): whether it is followed is its row's trackingState, when it is next
 * polled its TrackingSchedule row's nextTrackAt (null whenever it is not followed), and every change of one writes
 * the other in the same transaction. Such a transaction writes the schedule first and the shipment after it, as a
 * tracking pass's commits do: two of them on the same shipment (a write-back starting tracking, a webhook stopping
 * it) wait for each other instead of deadlocking.
 */

type Db = Pick<PrismaClient, "shipment" | "trackingSchedule">;

/**
 * The statements that start following a shipment whose fulfillment (or reverse delivery) is recorded with `data`:
 * its first poll due soon, with no settled answer of an earlier label (docs/decisions/054), then its row with `data`
 * and trackingState ACTIVE. For `$transaction([...])`.
 */
export function startTracking(
  db: Db,
  shipment: { id: string; shop: string },
  now: Date,
  data: Omit<Prisma.ShipmentUpdateInput, "trackingState" | "schedule">,
): [Prisma.PrismaPromise<unknown>, Prisma.PrismaPromise<unknown>] {
  const nextTrackAt = firstPollAt(now);
  return [
    db.trackingSchedule.upsert({
      where: { id: shipment.id },
      create: { id: shipment.id, shop: shipment.shop, nextTrackAt },
      update: { nextTrackAt, answerDigest: null },
    }),
    db.shipment.update({ where: { id: shipment.id }, data: { ...data, trackingState: TrackingState.ACTIVE } }),
  ];
}

/** Stops following shipments (all of a shop's, an order's, a fulfillment's or one shipment) for `reason`; returns how many stopped. */
export async function stopTracking(
  ctx: Pick<Context, "db" | "shop">,
  where: { orderId?: string; fulfillmentId?: string; shipmentId?: string },
  reason: StopReason,
): Promise<number> {
  const { db } = ctx;
  const stopping: Prisma.ShipmentWhereInput = {
    shop: ctx.shop,
    ...(where.orderId ? { orderId: where.orderId } : {}),
    ...(where.fulfillmentId ? { fulfillmentId: where.fulfillmentId } : {}),
    ...(where.shipmentId ? { id: where.shipmentId } : {}),
    trackingState: { in: [TrackingState.NONE, TrackingState.ACTIVE, TrackingState.STALE] },
  };
  const [, { count }] = await db.$transaction([
    db.trackingSchedule.updateMany({ where: { shipment: stopping, nextTrackAt: { not: null } }, data: { nextTrackAt: null } }),
    db.shipment.updateMany({ where: stopping, data: { trackingState: TrackingState.STOPPED, trackingStopReason: reason } }),
  ]);
  return count;
}

/**
 * Check again (the Shipments page): every shipment of the shop that is followed, or stale, is due now; stale ones are
 * followed again. Returns how many.
 */
export async function followAgainNow(ctx: Pick<Context, "db" | "shop" | "now">): Promise<number> {
  const { db, shop } = ctx;
  const again: Prisma.ShipmentWhereInput = { shop, trackingState: { in: [TrackingState.ACTIVE, TrackingState.STALE] } };
  const [, { count }] = await db.$transaction([
    db.trackingSchedule.updateMany({ where: { shop, shipment: again }, data: { nextTrackAt: ctx.now() } }),
    db.shipment.updateMany({ where: again, data: { trackingState: TrackingState.ACTIVE } }),
  ]);
  return count;
}
