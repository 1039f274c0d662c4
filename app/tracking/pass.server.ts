import { createHash } from "node:crypto";
import { Prisma, type TrackingEvent as TrackingEventRow, type TrackingSchedule } from "@prisma/client";
import { describeError, type ShippingClient } from "../../shipping-api/client";
import type { BookedShipment, EventStatus, TrackingEvent } from "../../shipping-api/contract";
import type { Context } from "../context";
import { crashPoint } from "../crash-points.server";
import { groupCommit, selectRowsByIds } from "../db/db-batch.server";
import { groupedBy } from "../grouped";
import { bound, sqlTemplate } from "../db/sql-template";
import type { JobServices } from "../jobs/job";
import { parseServiceTimestamp } from "../shipping/context.server";
import { chargeOf } from "../shipping/scan-charge";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import { positionOf, recordEvents, summaryOf, writeEvent, type EventWrites } from "./event-writes.server";
import { flushReschedules, holds, TRACKED_COLUMNS, type Reschedules, type ScheduleRow, type TrackedRow } from "./reschedule.server";
import { CLAIM_LEASE_MS, isStale, nextPoll, RETRY_AFTER_MS, jittered, voidCheckDue } from "./schedule";
import { stopTracking } from "./following.server";
import { queueOrderSignals } from "../signals/order-signals-job";
import { TrackingState, WriteStatus } from "./tracking-states";

/**
 * Tracking sync (docs/decisions/006): every shipment Consign wrote back to Shopify is polled with Track
 * Shipment until it is delivered, goes stale or is stopped, and each change of the carrier's status becomes
 * exactly one Shopify fulfillment event.
 *
 * The domain owns the work, not its trigger: `syncDueTracking` claims the shop's due shipments (nextTrackAt
 * in the past, moved ahead by a lease so that a second caller skips them), polls them and reschedules them.
 * Every carrier event is stored once (a unique key drops duplicates); only a change of status is queued for
 * Shopify (PENDING), the write records intent (WRITING) before fulfillmentEventCreate and the outcome
 * (WRITTEN) after it, and an event found WRITING was interrupted: the fulfillment's events are read back
 * before it is written again, as the write-back does (docs/decisions/005). A label still waiting for the
 * carrier may have been voided at the provider: such polls also ask Search Shipments now and then, and a voided
 * label stops being followed with nothing written to Shopify. A scan-based return label the carrier has scanned has
 * what it was charged read from Search Shipments the same way, until it is recorded.
 *
 * This module is the pass: the claim, each poll, and the pass over the claimed shipments. What a shipment and an
 * event can be is in tracking-states.ts, the statements that write what polls found in reschedule.server.ts, and
 * storing and writing the carrier's events in event-writes.server.ts.
 */

/**
 * Polls in flight at once per shop: Track Shipment is a cheap read, Shopify writes queue behind the pacer, and the
 * more polls wait on a commit at once, the fewer commits they take (groupCommit).
 */
export const POLL_CONCURRENCY = 8;

/** How a pass runs, besides its context: how many it claims, its randomness (jitter, lease token), polls in flight. */
export interface TrackingPassOptions {
  /** Shipments claimed by this pass; default 500. */
  limit?: number;
  random?: () => number;
  concurrency?: number;
}

export interface TrackingPassSummary {
  /** Shipments polled (Track Shipment calls that answered or failed). */
  polled: number;
  /** New carrier events stored. */
  events: number;
  /** fulfillmentEventCreate calls that created an event. */
  written: number;
  /** Interrupted writes found already in Shopify and linked. */
  linked: number;
  failed: number;
  delivered: number;
  stale: number;
  stopped: number;
  /** Polls that could not reach the Shipping API or Shopify; rescheduled. */
  errors: number;
}

const emptySummary = (): TrackingPassSummary => ({ polled: 0, events: 0, written: 0, linked: 0, failed: 0, delivered: 0, stale: 0, stopped: 0, errors: 0 });

/** One pass's working state: the context's database, shop, clock and logger, its two gateways opened, what it has to write. */
interface Run extends Pick<Context, "db" | "shop" | "now" | "log">, EventWrites, Reschedules {
  /** The shop's Shipping API account. */
  client: ShippingClient;
  random: () => number;
  summary: TrackingPassSummary;
  /** Whether a poll wrote a fact order automation announces (delivered, needs attention or no longer). */
  signalled: boolean;
}

/**
 * Claims up to `limit` of the shop's due shipments in one statement on their schedules (docs/decisions/055), which
 * returns them: their nextTrackAt moves to a lease end (a random part of a minute), so another caller finds them not
 * due. They are taken in order of id, not of due time: the shop's passes run until none is due (trackShop), so the
 * order only decides which come first, and schedules made together are stored together, so a claim and its
 * reschedule write a few pages of the database, not a page for each shipment. The index of due schedules holds their
 * ids, so picking the first ids reads no schedule's row. The statement takes only schedules
 * still due, checked again on each row as it is written (PostgreSQL re-reads a row another caller's claim changed
 * meanwhile), so a second caller cannot take the same rows. Then the claimed shipments' rows are read, in order of
 * id; a claimed schedule whose shipment is not followed (which no write leaves) is taken off the schedule.
 */
async function claimDue(run: Run, limit: number): Promise<TrackedRow[]> {
  const { db, shop } = run;
  const now = run.now();
  const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS + Math.floor(run.random() * 60_000));
  const [strings, ...values] = sqlTemplate([
    `UPDATE "TrackingSchedule" SET "nextTrackAt" = `,
    bound(leaseUntil),
    ` WHERE "id" IN (SELECT "id" FROM "TrackingSchedule" WHERE "shop" = `,
    bound(shop),
    ` AND "nextTrackAt" <= `,
    bound(now),
    ` ORDER BY "id" LIMIT `,
    bound(limit),
    `) AND "nextTrackAt" <= `,
    bound(now),
    ` RETURNING "id", "answerDigest"`,
  ]);
  const claimed = await db.$queryRaw<Array<Pick<TrackingSchedule, "id" | "answerDigest">>>(strings, ...values);
  if (claimed.length === 0) return [];
  const digests = new Map(claimed.map((schedule) => [schedule.id, schedule.answerDigest]));
  // In order of id: the ids sorted, each chunk's rows in order.
  const rows = await selectRowsByIds<Omit<TrackedRow, "answerDigest">>(run, {
    table: "Shipment",
    columns: TRACKED_COLUMNS,
    column: "id",
    ids: [...digests.keys()].sort(),
    orderBy: ["id"],
  });
  const followed = rows.filter((row) => row.trackingState === TrackingState.ACTIVE);
  if (followed.length < claimed.length) {
    const followedIds = new Set(followed.map((row) => row.id));
    const unfollowed = [...digests.keys()].filter((id) => !followedIds.has(id));
    run.log.warn({ shipmentIds: unfollowed }, "claimed schedules of shipments not followed; taken off the schedule");
    await db.trackingSchedule.updateMany({ where: { id: { in: unfollowed } }, data: { nextTrackAt: null } });
  }
  return followed.map((row) => ({ ...row, answerDigest: digests.get(row.id) ?? null }));
}

/** A stored event's every column, as the pass compares and rewrites them. */
const TRACKING_EVENT_COLUMNS = Object.values(Prisma.TrackingEventScalarFieldEnum);

/** The label's own record as Search Shipments answered (`found` null: not in the answer), or why it did not answer. */
type LabelSearch = { found: BookedShipment | null } | { failed: string };

/**
 * Asks Search Shipments for the label's own record (keyword: the book number, matched exactly in the answer), at
 * most once per poll: the void check and the charge read share the answer.
 */
function labelSearch(run: Run, row: TrackedRow & { bookNumber: string }): () => Promise<LabelSearch> {
  let answer: Promise<LabelSearch> | undefined;
  return () =>
    (answer ??= run.client
      .searchShipments({ body: { keyword: row.bookNumber } })
      .then((found) =>
        found.ok ? { found: found.value.shipments.find((shipment) => shipment.bookNumber === row.bookNumber) ?? null } : { failed: describeError(found.error) },
      ));
}

/** Whether Search Shipments says the label was voided; null when it did not answer, and the check is tried at the next poll. */
async function labelVoided(run: Run, row: TrackedRow, search: () => Promise<LabelSearch>): Promise<boolean | null> {
  const searched = await search();
  if ("failed" in searched) {
    run.log.warn({ shipmentId: row.id, orderName: row.orderName }, `Search Shipments did not answer (${searched.failed}); the void check is tried next poll`);
    return null;
  }
  return searched.found?.voided ?? false;
}

/**
 * A scan-based return label is charged by the Shipping API at its first scan (docs/decisions/041): once the carrier
 * has an event of it, its charge is read from Search Shipments and written with the poll's reschedule, the cost
 * charged and when, only while none is recorded. Search not answering, or its record not charged yet, leaves it to
 * the next poll; once recorded it is never read again. Search's answer carries no prepay balance: the stored balance
 * catches up with the next booking's answer (which includes every scan the service has charged).
 */
async function readScanCharge(run: Run, row: TrackedRow, search: () => Promise<LabelSearch>): Promise<void> {
  const searched = await search();
  if ("failed" in searched) {
    run.log.warn(
      { shipmentId: row.id, orderName: row.orderName },
      `Search Shipments did not answer (${searched.failed}); the label's charge is read next poll`,
    );
    return;
  }
  const charge = searched.found ? chargeOf(searched.found) : null;
  if (!charge?.chargedAt) return;
  crashPoint("tracking:after-charge-read");
  run.reschedules.push(() => run.db.shipment.updateMany({ where: { id: row.id, chargedAt: null }, data: charge }));
}

/** The latest time among the carrier's reported events and the shipment's stored latest event. */
function latestEventTime(reported: readonly TrackingEvent[], stored: Date | null): Date | null {
  let latest = stored?.getTime() ?? null;
  for (const event of reported) {
    const at = parseServiceTimestamp(event.eventTime).getTime();
    if (latest === null || at > latest) latest = at;
  }
  return latest === null ? null : new Date(latest);
}

/**
 * A digest of the carrier's answer: a poll whose answer has the digest of the last settled poll (every event stored,
 * none left to write) has nothing new to store or write.
 */
function answerDigestOf(events: readonly TrackingEvent[]): string {
  return createHash("sha256").update(JSON.stringify(events)).digest("base64url");
}

/** The shipment's stored events, in order. */
function storedEvents(run: Pick<Run, "db">, shipmentId: string): Promise<TrackingEventRow[]> {
  return run.db.trackingEvent.findMany({ where: { shipmentId }, orderBy: [{ eventTime: "asc" }, { seenAt: "asc" }] });
}

/**
 * Polls one claimed shipment, writes its changes of status, and reschedules it. `known` is its stored events when
 * the pass read them with the claim (a shipment without a settled answer); otherwise they are read if its answer
 * changed.
 */
async function pollShipment(run: Run, row: TrackedRow, known: TrackingEventRow[] | undefined): Promise<void> {
  const { summary } = run;
  if (!row.bookNumber || !row.fulfillmentId) {
    await stopTracking(run, { shipmentId: row.id }, "NO_LABEL");
    summary.stopped++;
    return;
  }
  const bookedRow = { ...row, bookNumber: row.bookNumber };
  const fulfillmentRow = { ...row, fulfillmentId: row.fulfillmentId };
  summary.polled++;
  const tracked = await run.client.trackShipment({ bookNumber: row.bookNumber });
  const now = run.now();
  if (!tracked.ok) {
    summary.errors++;
    run.scheduled.push({
      id: row.id,
      nextTrackAt: new Date(now.getTime() + jittered(RETRY_AFTER_MS, run.random)),
      lastTrackedAt: now,
      answerDigest: row.answerDigest,
    });
    run.errors.push({
      id: row.id,
      trackingError: `Track Shipment did not answer (${describeError(tracked.error)}); Consign tries again in about half an hour.`,
    });
    return;
  }
  // A label printed and never shipped may have been voided at the provider: before the carrier has the parcel,
  // and before anything of this poll is written to Shopify, Search Shipments is asked now and then (schedule.ts).
  let voidCheckedAt: Date | null = null;
  const trackedSince = row.fulfilledAt ?? row.bookedAt ?? row.createdAt;
  const checkVoid = voidCheckDue({
    now,
    statuses: tracked.value.map((event) => event.eventStatus),
    bookedAt: row.bookedAt ?? trackedSince,
    voidCheckedAt: row.voidCheckedAt,
    goingStale: isStale({ now, lastEventAt: latestEventTime(tracked.value, row.lastEventAt), trackedSince }),
  });
  const search = labelSearch(run, bookedRow);
  if (checkVoid) {
    const voided = await labelVoided(run, row, search);
    if (voided) {
      await stopTracking(run, { shipmentId: row.id }, "VOIDED");
      run.reschedules.push(
        () => run.db.trackingSchedule.updateMany({ where: { id: row.id }, data: { lastTrackedAt: now } }),
        () => run.db.shipment.updateMany({ where: { id: row.id }, data: { voidCheckedAt: now } }),
      );
      summary.stopped++;
      return;
    }
    if (voided === false) voidCheckedAt = now;
  }
  if (row.scanBased && row.chargedAt === null && tracked.value.length > 0) await readScanCharge(run, row, search);
  // The same answer as the last settled poll's: its events are stored, none is left to write, and the shipment's
  // columns hold what they say. Unless a void check is to be recorded, or it is to be followed no more (stale: a
  // decision taken without randomness, which the full poll below takes again), the poll only reschedules it.
  const answerDigest = answerDigestOf(tracked.value);
  if (answerDigest === row.answerDigest && voidCheckedAt === null) {
    const next = nextPoll({ now, latest: row.carrierStatus as EventStatus | null, lastEventAt: row.lastEventAt, trackedSince, random: run.random });
    if (next.state === TrackingState.ACTIVE) {
      rescheduleUnchanged(run, row, { id: row.id, nextTrackAt: next.nextTrackAt, lastTrackedAt: now, answerDigest });
      return;
    }
  }
  const pieces = trackingNumbersOf(row);
  const recorded = await recordEvents(run, row, pieces, tracked.value, known ?? (await storedEvents(run, row.id)));
  summary.events += recorded.fresh.size;
  let events = recorded.events;
  let problem: string | null = null;
  const outstanding = events.filter((e) => e.writeStatus === WriteStatus.PENDING || e.writeStatus === WriteStatus.WRITING);
  for (const event of outstanding) {
    const outcome = await writeEvent(run, fulfillmentRow, event, recorded.fresh.has(event.id));
    if (outcome === "written") summary.written++;
    else if (outcome === "linked") summary.linked++;
    else if (outcome === "failed") summary.failed++;
    else if ("stop" in outcome) {
      await stopTracking(run, { shipmentId: row.id }, outcome.stop);
      summary.stopped++;
      return;
    } else {
      problem = outcome.retry;
      break;
    }
  }
  // Settled: nothing of this answer is left to write (each outstanding event written, or refused for good).
  const settled = problem === null && outstanding.every((event) => event.writeStatus === WriteStatus.WRITTEN);
  if (!settled) events = await storedEvents(run, row.id);
  const facts = summaryOf(events, pieces);
  const position = positionOf(events.filter((event) => event.writeStatus === WriteStatus.WRITTEN));
  const next = problem
    ? { state: TrackingState.ACTIVE, nextTrackAt: new Date(now.getTime() + jittered(RETRY_AFTER_MS, run.random)) }
    : nextPoll({
        now,
        latest: (facts.carrierStatus as EventStatus | null) ?? null,
        lastEventAt: facts.lastEventAt,
        trackedSince,
        random: run.random,
      });
  if (next.state === TrackingState.DELIVERED) summary.delivered++;
  if (next.state === TrackingState.STALE) summary.stale++;
  if (problem) summary.errors++;
  const tracking = {
    ...facts,
    shopifyStatus: position?.status ?? null,
    shopifyStatusAt: position?.at ?? null,
    ...(voidCheckedAt ? { voidCheckedAt } : {}),
  };
  const digest = settled ? answerDigest : null;
  if (next.state === TrackingState.ACTIVE && !problem && holds(row, tracking)) {
    rescheduleUnchanged(run, row, { id: row.id, nextTrackAt: next.nextTrackAt, lastTrackedAt: now, answerDigest: digest });
    return;
  }
  // Delivered, or needing attention (a new exception) or no longer: order automation announces it (docs/decisions/043).
  const announce =
    (next.state === TrackingState.DELIVERED && row.trackingState !== TrackingState.DELIVERED) ||
    facts.attentionReason !== row.attentionReason ||
    (facts.attentionReason !== null && facts.lastEventAt?.getTime() !== row.lastEventAt?.getTime());
  if (announce) run.signalled = true;
  run.changed.push({
    id: row.id,
    ...tracking,
    signalsDueAt: announce ? now : row.signalsDueAt,
    voidCheckedAt: voidCheckedAt ?? row.voidCheckedAt,
    trackingState: next.state,
    trackingError: problem,
  });
  run.scheduled.push({ id: row.id, nextTrackAt: next.nextTrackAt, lastTrackedAt: now, answerDigest: digest });
}

/** A poll that found nothing new: only its schedule is written, and an earlier poll's error cleared. */
function rescheduleUnchanged(run: Run, row: TrackedRow, schedule: ScheduleRow & { nextTrackAt: Date }): void {
  run.scheduled.push(schedule);
  if (row.trackingError !== null) run.errors.push({ id: row.id, trackingError: null });
}

/**
 * One pass over the shop's due shipments: claims up to `limit`, polls them a few at a time, writes each
 * change of status to Shopify, and reschedules every one it claimed. Safe to run from several places at
 * once: a shipment claimed by one caller is skipped by the others until its lease ends.
 */
export async function syncDueTracking(ctx: Context, options: TrackingPassOptions = {}): Promise<TrackingPassSummary> {
  const admin = await ctx.shopify();
  const client = await ctx.shipping();
  const run: Run = {
    db: ctx.db,
    shop: ctx.shop,
    now: () => ctx.now(),
    log: ctx.log,
    admin,
    client,
    random: options.random ?? Math.random,
    summary: emptySummary(),
    signalled: false,
    reschedules: [],
    commit: groupCommit(ctx),
    scheduled: [],
    changed: [],
    errors: [],
    written: [],
  };
  const claimed = await claimDue(run, options.limit ?? 500);
  if (claimed.length === 0) return run.summary;
  // The stored events of the claimed shipments without a settled answer, in one read (their claim keeps other callers
  // from adding any); a shipment's events are all in one chunk, in order. The others' are read only if their answer
  // changed: on a quiet day, none.
  const stored = await selectRowsByIds<TrackingEventRow>(run, {
    table: "TrackingEvent",
    columns: TRACKING_EVENT_COLUMNS,
    column: "shipmentId",
    ids: claimed.filter((row) => row.answerDigest === null).map((row) => row.id),
    orderBy: ["eventTime", "seenAt"],
  });
  const knownOf = groupedBy(stored, (event) => event.shipmentId);
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const row = claimed[next++]!;
      try {
        await pollShipment(run, row, row.answerDigest === null ? (knownOf.get(row.id) ?? []) : undefined);
      } catch (error) {
        // One shipment's surprise must not stop the shop's pass; it comes due again when its lease ends.
        run.summary.errors++;
        run.log.error({ err: error, shipmentId: row.id, orderName: row.orderName }, "tracking failed");
      }
      await flushReschedules(run);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? POLL_CONCURRENCY, claimed.length) }, worker));
  await flushReschedules(run, true);
  if (run.signalled) await queueOrderSignals(ctx);
  return run.summary;
}

/** Shops with shipments due at the services' `now()`, for a scheduler. */
export async function shopsWithDueTracking(services: Pick<JobServices, "db" | "now">): Promise<string[]> {
  const rows = await services.db.trackingSchedule.findMany({
    where: { nextTrackAt: { lte: services.now() } },
    distinct: ["shop"],
    select: { shop: true },
  });
  return rows.map((row) => row.shop);
}
