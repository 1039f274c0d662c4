import type { Prisma, Shipment, TrackingSchedule } from "@prisma/client";
import type { Context } from "../context";
import { updateRowsById, type Commit } from "../db/db-batch.server";
import { bound } from "../db/sql-template";
import { TrackingState, WriteStatus } from "./tracking-states";

/**
 * The reschedule statements of tracking sync's pass (pass.server.ts): the tracking columns a poll reads of each
 * claimed shipment and writes back, and the few set-based statements that write what many polls found at once
 * (docs/decisions/025): every poll's schedule on its narrow TrackingSchedule row (docs/decisions/055), and a shipment's
 * own row only when the poll found something new, both only while it is still followed.
 */

/** The columns of a shipment's own row a poll that found something new writes: its tracking summary. */
const CHANGED_COLUMNS = [
  "carrierStatus",
  "lastEventText",
  "lastEventPlace",
  "lastEventAt",
  "inTransitAt",
  "deliveredAt",
  "attentionReason",
  "attentionAction",
  "shopifyStatus",
  "shopifyStatusAt",
  "voidCheckedAt",
  "trackingState",
  "trackingError",
  "signalsDueAt",
] as const satisfies ReadonlyArray<keyof Shipment>;

export type ChangedReschedule = { id: string } & Pick<Shipment, (typeof CHANGED_COLUMNS)[number]>;

/**
 * The columns a pass reads of each claimed shipment's row: what a poll needs and the tracking columns it compares, not
 * the whole row (its lines, addresses and rates' columns), so ten shops' passes of 500 hold little and Prisma
 * materialises a third of the values.
 */
export const TRACKED_SELECT = {
  id: true,
  kind: true,
  shop: true,
  orderName: true,
  bookNumber: true,
  fulfillmentId: true,
  trackingNumber: true,
  trackingNumbers: true,
  fulfilledAt: true,
  bookedAt: true,
  createdAt: true,
  scanBased: true,
  chargedAt: true,
  ...(Object.fromEntries(CHANGED_COLUMNS.map((column) => [column, true])) as Record<(typeof CHANGED_COLUMNS)[number], true>),
} as const satisfies Prisma.ShipmentSelect;

/** The same columns, for a raw read. */
export const TRACKED_COLUMNS = Object.keys(TRACKED_SELECT);

/** A claimed shipment as a pass reads it: its row's tracked columns and its schedule's settled answer. */
export type TrackedRow = Prisma.ShipmentGetPayload<{ select: typeof TRACKED_SELECT }> & Pick<TrackingSchedule, "answerDigest">;

/** An event Shopify took: its outcome. */
export interface WrittenEvent {
  id: string;
  shopifyEventId: string;
  writtenAt: Date;
}

/**
 * A polled shipment's schedule: its next poll (null once it is delivered or stale), this poll's time, and the digest
 * of the answer it settled (null when something of it is left to write).
 */
export interface ScheduleRow {
  id: string;
  nextTrackAt: Date | null;
  lastTrackedAt: Date;
  answerDigest: string | null;
}

/**
 * What polls leave to write, committed together (one commit for many shipments) by `flushReschedules`: every polled
 * shipment's schedule, the new tracking columns of those whose poll found something new, the polling error of those
 * whose poll failed or cleared one, and events Shopify took, as rows of set-based updates; and the odd statement (a
 * voided label, a return label's charge).
 */
export interface Reschedules extends Pick<Context, "db"> {
  /** Commits statements with those of other polls waiting at the same time, this pass's and other shops' (groupCommit). */
  commit: (commit: Commit) => Promise<void>;
  /** Each writes a shipment's schedule (if at all) before its row, as every transaction that writes both does. */
  reschedules: Array<() => Prisma.PrismaPromise<unknown>>;
  scheduled: ScheduleRow[];
  changed: ChangedReschedule[];
  /** A failed poll's error in words, or null: a quiet poll clearing an earlier poll's. */
  errors: Array<{ id: string; trackingError: string | null }>;
  written: WrittenEvent[];
}

/**
 * What a poll found is written once this many polls have found something: a lost group of changed reschedules is
 * found again at the next poll, and a lost group of Shopify's outcomes costs a read-back of each event
 * (docs/decisions/005).
 */
const RESCHEDULE_BATCH = 50;

/**
 * Polls that found nothing new wait longer, since losing them loses nothing but their schedule (those shipments are
 * polled again when their lease ends): on a quiet day a pass of 500 is one commit, not ten, and with SQLite's
 * synced commits blocking the event loop, the commits were a fifth of a quiet pass.
 */
const SCHEDULE_BATCH = 500;

/**
 * Only rows still followed are rescheduled (a stop that arrived meanwhile, by webhook, is kept). `|| ''` keeps the
 * state test off any index, so that SQLite's planner, without statistics, finds these rows by id.
 */
export const STILL_FOLLOWED = [`("trackingState" || '') = `, bound(TrackingState.ACTIVE)];

/** A schedule still followed: a stop sets its due time to null. */
const STILL_SCHEDULED = [`"nextTrackAt" IS NOT NULL`];

/**
 * Commits what polls left to write once there is a group of it (`all`: whatever is left): the schedules first (a
 * quiet pass writes nothing else: each group of them one statement, each row's own times by its id), then the odd
 * statements, the shipments' new tracking columns and Shopify's outcomes, one statement per chunk likewise.
 */
export async function flushReschedules(run: Reschedules, all = false): Promise<void> {
  const found = run.reschedules.length + run.changed.length + run.errors.length + run.written.length;
  if (found + run.scheduled.length === 0 || (!all && found < RESCHEDULE_BATCH && run.scheduled.length < SCHEDULE_BATCH)) return;
  const [statements, scheduled, changed, errors, written] = [
    run.reschedules.splice(0),
    run.scheduled.splice(0),
    run.changed.splice(0),
    run.errors.splice(0),
    run.written.splice(0),
  ];
  await run.commit(() => [
    ...updateRowsById(run, {
      table: "TrackingSchedule",
      columns: ["nextTrackAt", "lastTrackedAt", "answerDigest"],
      rows: scheduled,
      where: STILL_SCHEDULED,
    }),
    ...statements.map((make) => make()),
    ...updateRowsById(run, { table: "Shipment", columns: CHANGED_COLUMNS, rows: changed, where: STILL_FOLLOWED }),
    ...updateRowsById(run, { table: "Shipment", columns: ["trackingError"], rows: errors, where: STILL_FOLLOWED }),
    ...updateRowsById(run, {
      table: "TrackingEvent",
      columns: ["shopifyEventId", "writtenAt"],
      rows: written,
      set: { writeStatus: WriteStatus.WRITTEN, writeError: null },
    }),
  ]);
}

/** Whether the shipment's stored columns already hold `values` (dates by instant). */
export function holds(row: TrackedRow, values: Partial<Record<keyof TrackedRow, string | Date | null>>): boolean {
  return Object.entries(values).every(([key, value]) => {
    const stored = row[key as keyof TrackedRow];
    return value instanceof Date ? stored instanceof Date && stored.getTime() === value.getTime() : stored === value;
  });
}
