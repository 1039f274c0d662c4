import { reportedThrottle, type ShopAdmin } from "./gateway.server";

/** Restore rate that keeps one request busy: Shopify's standard plan (100 points/s) runs one at a time. */
export const POINTS_PER_SECOND_PER_REQUEST = 100;

/**
 * How many of the shop's requests may be in flight at once: one per 100 points/s its bucket restores, as
 * Shopify last reported it (one at the standard plan, two at 200/s, ten at 1,000/s), and one before any
 * answer. The gateway's pacer still decides when each request goes, so more in flight never spends points
 * faster than the bucket allows; it only keeps request latency from bounding a plan with points to spare.
 */
export function requestsInFlight(context: Pick<ShopAdmin, "shop" | "pacer">): number {
  const throttle = reportedThrottle(context);
  return throttle ? Math.max(1, Math.floor(throttle.restoreRate / POINTS_PER_SECOND_PER_REQUEST)) : 1;
}

/**
 * Runs `work` on every item, keeping `requestsInFlight` of them running (re-read as answers arrive, so the
 * first answer sets the pace); resolves when all ended, rejects with the first failure once the rest ended.
 */
export async function forEachInFlight<T>(context: Pick<ShopAdmin, "shop" | "pacer">, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const running = new Set<Promise<void>>();
  const failures: unknown[] = [];
  let next = 0;
  while (running.size > 0 || (next < items.length && failures.length === 0)) {
    while (failures.length === 0 && next < items.length && running.size < requestsInFlight(context)) {
      const task: Promise<void> = work(items[next++]!)
        .catch((error: unknown) => void failures.push(error))
        .finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size > 0) await Promise.race(running);
  }
  if (failures.length > 0) throw failures[0];
}
