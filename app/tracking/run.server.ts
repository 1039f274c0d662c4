import type { Context } from "../context";
import { z } from "zod";
import { defineJob, defineMinuteJob } from "../jobs/job";
import { shopsWithDueTracking, syncDueTracking, type TrackingPassSummary } from "./pass.server";
import { followAgainNow } from "./following.server";
import { trackingDashboard, type TrackingDashboard, type TrackingFilter } from "./tracking-views.server";

/**
 * Tracking passes over a shop's context: its Shopify gateway (the offline session, in jobs) and its Shipping
 * API account. Whatever triggers them (the schedule, a merchant's Check again) comes through here, as jobs.
 */

/**
 * Shipments claimed per pass; a shop with more due keeps passing until none are left. Each pass waits for its
 * slowest poll, so a larger pass idles less; but every shop's pass holds its rows and their events, and at 1,000
 * ten shops' passes side by side took the app's peak RSS from 221 to 284 MB.
 */
const PASS_LIMIT = 500;

/** Runs passes for the shop until nothing it can claim is due; returns the totals. */
export async function trackShop(ctx: Context): Promise<TrackingPassSummary> {
  const totals: TrackingPassSummary = { polled: 0, events: 0, written: 0, linked: 0, failed: 0, delivered: 0, stale: 0, stopped: 0, errors: 0 };
  for (;;) {
    const summary = await syncDueTracking(ctx, { limit: PASS_LIMIT });
    for (const key of Object.keys(totals) as (keyof TrackingPassSummary)[]) totals[key] += summary[key];
    if (summary.polled + summary.stopped < PASS_LIMIT) return totals;
  }
}

/** A shop's tracking passes: once at a time per shop across every instance. */
export const trackingSyncJob = defineJob({
  name: "tracking-sync",
  data: z.object({ shop: z.string().min(1) }),
  key: ({ shop }) => shop,
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 30 * 60,
  run: async ({ shop }, { services }) => {
    const ctx = services.context(shop);
    const totals = await trackShop(ctx);
    if (totals.written + totals.errors > 0)
      ctx.log.info(totals, `tracking wrote ${totals.written} Shopify events over ${totals.polled} shipments (${totals.errors} to retry)`);
  },
});

/**
 * The one trigger of tracking sync: every minute, each shop with shipments due gets its tracking job. The
 * work and its schedule live in the database (TrackingSchedule), so a restart or a dead instance loses nothing.
 */
export const trackingScheduleJob = defineMinuteJob("tracking-schedule", async (services) => {
  for (const shop of await shopsWithDueTracking(services)) await startTrackingPass(services.context(shop));
});

/** Queues the shop's tracking passes (once more after the running ones, when they are under way). */
export function startTrackingPass(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  return ctx.jobs.send(trackingSyncJob, { shop: ctx.shop });
}

/** Whether the shop's tracking passes are waiting or running. */
export function isTrackingRunning(ctx: Pick<Context, "shop" | "jobs">): Promise<boolean> {
  return ctx.jobs.busy(trackingSyncJob, { shop: ctx.shop });
}

/**
 * Check again (the Shipments page): every shipment of the shop that is followed, or stale, is due now, and
 * a pass starts. Stale shipments are followed again (the merchant asked), until the stale bound passes again.
 */
export async function checkTrackingNow(ctx: Pick<Context, "db" | "shop" | "now" | "jobs">): Promise<{ due: number }> {
  const count = await followAgainNow(ctx);
  if (count > 0) await startTrackingPass(ctx);
  return { due: count };
}

/** The Shipments dashboard with whether a pass is running here and how many shipments are due now (its progress). */
export async function viewTracking(
  ctx: Pick<Context, "db" | "shop" | "now" | "jobs">,
  options: { filter: TrackingFilter; q: string; page?: number },
): Promise<TrackingDashboard & { running: boolean; due: number }> {
  const { db, shop } = ctx;
  const [dashboard, due] = await Promise.all([
    trackingDashboard(ctx, options),
    db.trackingSchedule.count({ where: { shop, nextTrackAt: { lte: ctx.now() } } }),
  ]);
  return { ...dashboard, running: await isTrackingRunning(ctx), due };
}
