import type { PrismaClient } from "@prisma/client";
import { isRunningInBackground, runInBackground } from "../background.server";
import prisma from "../db.server";
import { shippingClientFor } from "../settings/account.server";
import { unauthenticated } from "../shopify.server";
import { syncDueTracking, TrackingState, type TrackingPassSummary } from "./sync.server";
import { trackingDashboard, type TrackingDashboard, type TrackingFilter } from "./tracking-views.server";

/**
 * Tracking passes with the app's real dependencies: the shop's offline Admin API session and its Shipping
 * API account. Whatever triggers them (the scheduler, a merchant's Check again) comes through here.
 */

/** Shipments claimed per pass; a shop with more due keeps passing until none are left. */
const PASS_LIMIT = 200;

const workKey = (shop: string) => `tracking-sync:${shop}`;

/** Runs passes for the shop until nothing it can claim is due; returns the totals. */
export async function trackShop(shop: string, now: () => Date = () => new Date()): Promise<TrackingPassSummary> {
  const { admin, session } = await unauthenticated.admin(shop);
  const client = await shippingClientFor(prisma, shop);
  const totals: TrackingPassSummary = { polled: 0, events: 0, written: 0, linked: 0, failed: 0, delivered: 0, stale: 0, stopped: 0, errors: 0 };
  for (;;) {
    const summary = await syncDueTracking({ db: prisma, admin: { admin, shop: session.shop }, client, now }, { shop, limit: PASS_LIMIT });
    for (const key of Object.keys(totals) as (keyof TrackingPassSummary)[]) totals[key] += summary[key];
    if (summary.polled + summary.stopped < PASS_LIMIT) return totals;
  }
}

/** Starts the shop's passes in the background unless they are running here already. */
export function startTrackingPass(shop: string): Promise<void> {
  return runInBackground(workKey(shop), async () => {
    const totals = await trackShop(shop);
    if (totals.written + totals.errors > 0) console.info(`[consign] ${shop}: tracking wrote ${totals.written} Shopify events over ${totals.polled} shipments (${totals.errors} to retry)`);
  });
}

export function isTrackingRunning(shop: string): boolean {
  return isRunningInBackground(workKey(shop));
}

/**
 * Check again (the Shipments page): every shipment of the shop that is followed, or stale, is due now, and
 * a pass starts. Stale shipments are followed again (the merchant asked), until the stale bound passes again.
 */
export async function checkTrackingNow(db: Pick<PrismaClient, "shipment">, shop: string, now: Date = new Date()): Promise<{ due: number }> {
  const { count } = await db.shipment.updateMany({
    where: { shop, trackingState: { in: [TrackingState.ACTIVE, TrackingState.STALE] } },
    data: { trackingState: TrackingState.ACTIVE, nextTrackAt: now },
  });
  if (count > 0) void startTrackingPass(shop);
  return { due: count };
}

/** The Shipments dashboard with whether a pass is running here and how many shipments are due now (its progress). */
export async function viewTracking(
  db: Pick<PrismaClient, "shipment" | "trackingEvent">,
  shop: string,
  options: { filter: TrackingFilter; q: string; now: Date },
): Promise<TrackingDashboard & { running: boolean; due: number }> {
  const [dashboard, due] = await Promise.all([
    trackingDashboard(db, shop, options),
    db.shipment.count({ where: { shop, trackingState: TrackingState.ACTIVE, nextTrackAt: { lte: options.now } } }),
  ]);
  return { ...dashboard, running: isTrackingRunning(shop), due };
}
