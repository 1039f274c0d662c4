import type { EventStatus } from "../../shipping-api/contract";

/**
 * When a tracked shipment is next polled (docs/decisions/006). The Shipping API has no push events, so the
 * app asks Track Shipment on a schedule that fits the parcel's state, jittered so that a shop's shipments
 * booked together do not all come due in the same second. Pure; the clock and the randomness are passed in.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** First look after the fulfillment is written: the carrier usually has the label's information by then. */
export const FIRST_POLL_AFTER_MS = 15 * MINUTE;
/** While a poll is in flight its row is leased for this long; a crashed poller's rows come due again after it. */
export const CLAIM_LEASE_MS = 10 * MINUTE;
/** After Track Shipment failed (outage, refused): try again in this long. */
export const RETRY_AFTER_MS = 30 * MINUTE;
/** No new carrier event for this long: the shipment is stale, shown under Needs attention and no longer polled. */
export const STALE_AFTER_MS = 30 * DAY;
/**
 * Labels are voided at the provider (its portal; the Shipping API only shows `voided` in Search Shipments), and
 * only before the carrier scans them: a label printed and never shipped. From this long after booking, while the
 * carrier has nothing beyond Info Received, a poll also asks Search Shipments whether the label was voided, at
 * most once per this long.
 */
export const VOID_CHECK_AFTER_MS = DAY;
/** Up to this share of the interval is added or taken away at random. */
export const JITTER = 0.1;

/** How long to wait after a poll, by the carrier's latest status (none yet: the label is not scanned). */
export const POLL_INTERVAL_MS: Readonly<Record<EventStatus | "none", number>> = {
  none: 2 * HOUR,
  "Info Received": 2 * HOUR,
  "In Transit": 6 * HOUR,
  "Delivered to Broker": 4 * HOUR,
  Exception: 3 * HOUR,
  "Delivery Arragned": 2 * HOUR,
  "With Delivery Courier": HOUR,
  "Out for Delivery": HOUR,
  "Failed Attempt": 2 * HOUR,
  Delivered: Number.POSITIVE_INFINITY,
};

/** `interval` moved by up to ±JITTER of itself; `random` is in [0, 1). */
export function jittered(interval: number, random: () => number): number {
  return Math.round(interval * (1 - JITTER + 2 * JITTER * random()));
}

export type NextPoll = { state: "ACTIVE"; nextTrackAt: Date } | { state: "DELIVERED" | "STALE"; nextTrackAt: null };

/** Whether a shipment's latest carrier event (or, with none, its fulfillment) is older than STALE_AFTER_MS at `now`. */
export function isStale(input: { now: Date; lastEventAt: Date | null; trackedSince: Date }): boolean {
  const quietSince = input.lastEventAt ?? input.trackedSince;
  return input.now.getTime() - quietSince.getTime() >= STALE_AFTER_MS;
}

/**
 * What follows a poll at `now`: delivered shipments are never polled again; a shipment whose latest carrier
 * event (or, with none, its fulfillment) is older than STALE_AFTER_MS is stale; otherwise the next poll.
 */
export function nextPoll(input: { now: Date; latest: EventStatus | null; lastEventAt: Date | null; trackedSince: Date; random: () => number }): NextPoll {
  if (input.latest === "Delivered") return { state: "DELIVERED", nextTrackAt: null };
  if (isStale(input)) return { state: "STALE", nextTrackAt: null };
  return { state: "ACTIVE", nextTrackAt: new Date(input.now.getTime() + jittered(POLL_INTERVAL_MS[input.latest ?? "none"], input.random)) };
}

/** When the first poll of a shipment whose fulfillment was just recorded is due: soon (following.server.ts starts it). */
export function firstPollAt(now: Date, random: () => number = Math.random): Date {
  return new Date(now.getTime() + jittered(FIRST_POLL_AFTER_MS, random));
}

/**
 * Whether a poll also asks Search Shipments if the label was voided (docs/decisions/006). Never once the carrier
 * has the parcel (any status beyond Info Received among `statuses`, the carrier's whole history): a label that
 * has moved cannot be voided. Before that: when the label is at least VOID_CHECK_AFTER_MS old and was not
 * checked within VOID_CHECK_AFTER_MS, and always right before the shipment would be marked stale, so a voided
 * label is reported as voided rather than as gone quiet.
 */
export function voidCheckDue(input: { now: Date; statuses: readonly EventStatus[]; bookedAt: Date; voidCheckedAt: Date | null; goingStale: boolean }): boolean {
  if (input.statuses.some((status) => status !== "Info Received")) return false;
  if (input.goingStale) return true;
  const now = input.now.getTime();
  if (now - input.bookedAt.getTime() < VOID_CHECK_AFTER_MS) return false;
  return input.voidCheckedAt === null || now - input.voidCheckedAt.getTime() >= VOID_CHECK_AFTER_MS;
}
