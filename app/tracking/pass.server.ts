import { randomUUID } from "node:crypto";
import type { Prisma, Shipment, TrackingEvent as TrackingEventRow } from "@prisma/client";
import { describeError, type ShippingClient } from "../../shipping-api/client";
import type { Context } from "../context";
import type { JobServices } from "../jobs/job";
import type { EventStatus, TrackingEvent } from "../../shipping-api/contract";
import { parseServiceTimestamp } from "../shipping/context.server";
import { crashPoint } from "../crash-points.server";
import { groupCommit, updateRowsById, type Commit } from "../db/db-batch.server";
import { idChunks, readByIds } from "../db/id-lists.server";
import { isTransient } from "../shopify/gateway.server";
import { AdminApiError, adminQuery, type ShopAdmin } from "../shopify/gateway.server";
import { CLAIM_LEASE_MS, isStale, nextPoll, RETRY_AFTER_MS, jittered, voidCheckDue } from "./schedule";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import {
  ATTENTION_CARRIER_STATUSES,
  SHOPIFY_STATUS,
  pieceNumbers,
  shipmentSteps,
  stageOf,
  statusChanges,
  type ShopifyEventStatus,
  type StatusPosition,
} from "./status";
import { CREATE_FULFILLMENT_EVENT, CreateFulfillmentEventData, EVENTS_READ, FULFILLMENT_EVENTS, FulfillmentEventsData } from "./tracking-documents";
import { bound } from "../db/sql-template";

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
 * label stops being followed with nothing written to Shopify.
 */

export const TrackingState = {
  NONE: "NONE",
  ACTIVE: "ACTIVE",
  DELIVERED: "DELIVERED",
  STALE: "STALE",
  STOPPED: "STOPPED",
} as const;
export type TrackingState = (typeof TrackingState)[keyof typeof TrackingState];

export const WriteStatus = {
  SKIPPED: "SKIPPED",
  PENDING: "PENDING",
  WRITING: "WRITING",
  WRITTEN: "WRITTEN",
  FAILED: "FAILED",
} as const;

/**
 * Why tracking stopped. VOIDED: the label was voided at the provider (Search Shipments says `voided`), so the
 * carrier will never move it. NO_LABEL: a followed row with no book number or fulfillment to follow.
 */
export type StopReason = "FULFILLMENT_CANCELLED" | "ORDER_CANCELLED" | "SHOP_UNINSTALLED" | "VOIDED" | "NO_LABEL";

/** Why a shipment is no longer followed, in the merchant's words. */
export const STOP_REASON_TEXT: Readonly<Record<StopReason, string>> = {
  FULFILLMENT_CANCELLED: "The fulfillment was cancelled in Shopify, so Consign stopped following this parcel.",
  ORDER_CANCELLED: "The order was cancelled, so Consign stopped following this parcel.",
  SHOP_UNINSTALLED: "Consign was uninstalled, so tracking stopped.",
  VOIDED: "The label was voided at the Shipping API, so the carrier will not move this parcel and Consign stopped following it.",
  NO_LABEL: "This shipment has no booked label or Shopify fulfillment, so there is nothing to follow.",
};

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

/** One pass's working state: the context's database, shop and clock, its two gateways opened, and what it has to write. */
interface Run extends Pick<Context, "db" | "shop" | "now" | "log"> {
  /** The shop's Admin API, through the gateway (cost-aware pacing, THROTTLED waited out). */
  admin: ShopAdmin;
  /** The shop's Shipping API account. */
  client: ShippingClient;
  random: () => number;
  summary: TrackingPassSummary;
  /** Commits statements with those of other polls waiting at the same time, this pass's and other shops' (groupCommit). */
  commit: (commit: Commit) => Promise<void>;
  /**
   * What polls leave to write, committed together (one commit for many shipments) by `flushReschedules`: the
   * odd statement (a failed poll, a voided label), and, as rows of set-based updates, reschedules of shipments
   * whose stored tracking columns already hold what the poll found, reschedules with new tracking columns, and
   * events Shopify took.
   */
  reschedules: Array<() => Prisma.PrismaPromise<unknown>>;
  unchanged: UnchangedReschedule[];
  changed: ChangedReschedule[];
  written: WrittenEvent[];
}

/** The columns a poll that found something new writes: its tracking summary and schedule. */
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
  "nextTrackAt",
  "lastTrackedAt",
  "trackingError",
] as const satisfies ReadonlyArray<keyof Shipment>;

type ChangedReschedule = { id: string } & Pick<Shipment, (typeof CHANGED_COLUMNS)[number]>;

/**
 * The columns a pass reads of each claimed shipment: what a poll needs and the tracking columns it compares, not
 * the whole row (its lines, addresses and rates' columns), so ten shops' passes of 500 hold little and Prisma
 * materialises a third of the values.
 */
const TRACKED_SELECT = {
  id: true,
  shop: true,
  orderName: true,
  bookNumber: true,
  fulfillmentId: true,
  trackingNumber: true,
  trackingNumbers: true,
  fulfilledAt: true,
  bookedAt: true,
  createdAt: true,
  ...(Object.fromEntries(CHANGED_COLUMNS.map((column) => [column, true])) as Record<(typeof CHANGED_COLUMNS)[number], true>),
} as const satisfies Prisma.ShipmentSelect;

/** A claimed shipment as a pass reads it. */
type TrackedRow = Prisma.ShipmentGetPayload<{ select: typeof TRACKED_SELECT }>;

/** An event Shopify took: its outcome. */
interface WrittenEvent {
  id: string;
  shopifyEventId: string;
  writtenAt: Date;
}

/** A poll that changed nothing but the shipment's schedule: only these columns are written. */
interface UnchangedReschedule {
  id: string;
  nextTrackAt: Date;
  lastTrackedAt: Date;
}

/** Reschedules are written this many at a time: a lost batch only means those shipments are polled again after their lease. */
const RESCHEDULE_BATCH = 50;

/** Only rows still followed are rescheduled: a stop that arrived meanwhile (webhook) is kept. */
// `|| ''` keeps the state test off the index: SQLite's planner, without statistics, would otherwise take the
// (trackingState, nextTrackAt) index and visit every followed shipment instead of these rows by id.
const STILL_FOLLOWED = [`("trackingState" || '') = `, bound(TrackingState.ACTIVE)];

/**
 * Commits what polls left to write once there is a group of it (`all`: whatever is left). A pass over quiet
 * parcels is mostly unchanged reschedules: each group of them is one statement, each row's own times by CASE
 * on its id, the error cleared. Changed reschedules and Shopify's outcomes are one statement per chunk likewise.
 */
async function flushReschedules(run: Run, all = false): Promise<void> {
  const waiting = run.reschedules.length + run.unchanged.length + run.changed.length + run.written.length;
  if (waiting === 0 || (!all && waiting < RESCHEDULE_BATCH)) return;
  const [statements, unchanged, changed, written] = [run.reschedules.splice(0), run.unchanged.splice(0), run.changed.splice(0), run.written.splice(0)];
  await run.commit(() => [
    ...statements.map((make) => make()),
    ...updateRowsById(run, {
      table: "Shipment",
      columns: ["nextTrackAt", "lastTrackedAt"],
      rows: unchanged,
      set: { trackingError: null },
      where: STILL_FOLLOWED,
    }),
    ...updateRowsById(run, { table: "Shipment", columns: CHANGED_COLUMNS, rows: changed, where: STILL_FOLLOWED }),
    ...updateRowsById(run, {
      table: "TrackingEvent",
      columns: ["shopifyEventId", "writtenAt"],
      rows: written,
      set: { writeStatus: WriteStatus.WRITTEN, writeError: null },
    }),
  ]);
}

/**
 * Claims up to `limit` of the shop's due shipments (oldest due first) in one write: their nextTrackAt moves to
 * a lease end that is also this claim's token (a random part of a minute), so the rows read back with it are
 * this caller's. A second caller's claim only takes rows still due, so it cannot take the same rows.
 */
async function claimDue(run: Run, limit: number): Promise<TrackedRow[]> {
  const { shop } = run;
  const now = run.now();
  const due = await run.db.shipment.findMany({
    where: { shop, trackingState: TrackingState.ACTIVE, nextTrackAt: { lte: now } },
    orderBy: [{ nextTrackAt: "asc" }, { id: "asc" }],
    select: { id: true },
    take: limit,
  });
  if (due.length === 0) return [];
  const leaseUntil = new Date(now.getTime() + CLAIM_LEASE_MS + Math.floor(run.random() * 60_000));
  const ids = due.map((row) => row.id);
  const { db } = run;
  await db.$transaction(
    idChunks(run, ids).map((chunk) =>
      db.shipment.updateMany({
        where: { id: { in: chunk }, trackingState: TrackingState.ACTIVE, nextTrackAt: { lte: now } },
        data: { nextTrackAt: leaseUntil },
      }),
    ),
  );
  const claimed = await readByIds(run, ids, (chunk) => db.shipment.findMany({ where: { id: { in: chunk }, nextTrackAt: leaseUntil }, select: TRACKED_SELECT }));
  return claimed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const eventKey = (e: { trackingNumber: string; eventTime: Date; carrierStatus: string; message: string }) =>
  `${e.trackingNumber}|${e.eventTime.toISOString()}|${e.carrierStatus}|${e.message}`;

/** "MEMPHIS, TN" and "US" as Shopify's city / province / country. */
function place(event: TrackingEvent): { city: string | null; province: string | null; country: string | null } {
  const [city, province] = event.serviceArea.split(",").map((part) => part.trim());
  return { city: city || null, province: province || null, country: event.serviceAreaCountry || null };
}

/** Where the parcel was, in one line. */
export function placeText(event: Pick<TrackingEventRow, "city" | "province" | "country">): string | null {
  const text = [event.city, event.province, event.country].filter(Boolean).join(", ");
  return text || null;
}

/** Where the written (or queued) changes of status have taken the shipment so far. */
function positionOf(events: readonly TrackingEventRow[]): StatusPosition | null {
  let stage = -1;
  let position: StatusPosition | null = null;
  for (const event of events) {
    if (event.writeStatus === WriteStatus.SKIPPED || event.writeStatus === WriteStatus.FAILED) continue;
    const status = event.shopifyStatus as ShopifyEventStatus;
    stage = stageOf(status, Math.max(stage, 0));
    position = { status, stage, at: event.eventTime };
  }
  return position;
}

/** The shipment's stored events as the status rule reads them: each piece's, with the carrier's status. */
const asPieceEvent = <E extends Pick<TrackingEventRow, "trackingNumber" | "carrierStatus" | "eventTime">>(event: E) => ({
  ...event,
  carrierStatus: event.carrierStatus as EventStatus,
});

/**
 * Stores the carrier events not seen before; the changes of the shipment's status among them are queued for
 * Shopify. A shipment of several tracked pieces is at its least advanced piece's status (`shipmentSteps`), which
 * is what each event records as its Shopify status.
 */
async function recordEvents(
  run: Run,
  row: TrackedRow,
  pieces: readonly string[],
  reported: readonly TrackingEvent[],
  known: TrackingEventRow[],
): Promise<{ events: TrackingEventRow[]; fresh: ReadonlySet<string> }> {
  const seen = new Set(known.map(eventKey));
  const fresh: Array<TrackingEvent & { at: Date }> = [];
  for (const event of reported) {
    const at = parseServiceTimestamp(event.eventTime);
    const key = eventKey({ trackingNumber: event.trackingNumber, eventTime: at, carrierStatus: event.eventStatus, message: event.event });
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push({ ...event, at });
  }
  if (fresh.length === 0) return { events: known, fresh: new Set() };
  // One number: each event is the shipment's own status (no steps to work out for most shipments).
  const statusOf = new Map<number, ShopifyEventStatus | null>();
  if (pieceNumbers(pieces, [...known, ...fresh]).length > 1) {
    const steps = shipmentSteps(pieces, [
      ...known.map((event) => asPieceEvent(event)),
      ...fresh.map((event, index) => ({ trackingNumber: event.trackingNumber, carrierStatus: event.eventStatus, eventTime: event.at, index })),
    ]);
    for (const step of steps) if ("index" in step.event) statusOf.set(step.event.index, step.status);
  }
  const changes = new Set(
    statusChanges(
      positionOf(known),
      fresh.map((event, index) => ({
        carrierStatus: event.eventStatus,
        eventTime: event.at,
        ...(statusOf.has(index) ? { shipmentStatus: statusOf.get(index) } : {}),
      })),
    ),
  );
  const seenAt = run.now();
  // The rows whole, inserted by one bound statement (Prisma's createManyAndReturn compiles each row and reads them back).
  const created = fresh.map((event, index): TrackingEventRow => ({
    id: randomUUID(),
    shop: row.shop,
    shipmentId: row.id,
    trackingNumber: event.trackingNumber,
    eventTime: event.at,
    carrierStatus: event.eventStatus,
    message: event.event,
    ...place(event),
    reason: event.ancillaryReasonDescription ?? null,
    action: event.ancillaryActionDescription ?? null,
    shopifyStatus: statusOf.get(index) ?? SHOPIFY_STATUS[event.eventStatus],
    // A change of status is written to Shopify next: its intent is recorded with it (recovery reads back first).
    writeStatus: changes.has(index) ? WriteStatus.WRITING : WriteStatus.SKIPPED,
    shopifyEventId: null,
    writeError: null,
    seenAt,
    writtenAt: null,
  }));
  // Durable before any of it is written to Shopify; committed with other polls' that are waiting (one sync for many).
  await run.commit({ insert: "TrackingEvent", rows: created });
  run.summary.events += fresh.length;
  // The shipment's events in the order the pass reads them (eventTime, then seenAt), without reading them back.
  const events = [...known, ...created].sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime() || a.seenAt.getTime() - b.seenAt.getTime());
  return { events, fresh: new Set(created.map((event) => event.id)) };
}

const sameInstant = (a: string, b: Date) => new Date(a).getTime() === b.getTime();

type WriteOutcome = "written" | "linked" | "failed" | { stop: StopReason } | { retry: string };

/** The fulfillment as Shopify has it now, with its latest events. */
function readFulfillmentEvents(run: Run, fulfillmentId: string) {
  return adminQuery(run.admin, FULFILLMENT_EVENTS, FulfillmentEventsData, { fulfillmentId, first: EVENTS_READ });
}

/** One queued change of status to Shopify: intent, the mutation, outcome. */
async function writeEvent(run: Run, row: TrackedRow & { fulfillmentId: string }, event: TrackingEventRow, fresh: boolean): Promise<WriteOutcome> {
  try {
    if (event.writeStatus === WriteStatus.WRITING && !fresh) {
      // Interrupted between intent and outcome: Shopify may have it already.
      const { fulfillment } = await readFulfillmentEvents(run, row.fulfillmentId);
      if (!fulfillment || fulfillment.status === "CANCELLED") return { stop: "FULFILLMENT_CANCELLED" };
      const found = fulfillment.events.nodes.find((node) => node.status === event.shopifyStatus && sameInstant(node.happenedAt, event.eventTime));
      if (found) {
        await run.db.trackingEvent.update({
          where: { id: event.id },
          data: { writeStatus: WriteStatus.WRITTEN, shopifyEventId: found.id, writtenAt: run.now(), writeError: null },
        });
        return "linked";
      }
    } else if (event.writeStatus === WriteStatus.PENDING) {
      const { count } = await run.db.trackingEvent.updateMany({
        where: { id: event.id, writeStatus: WriteStatus.PENDING },
        data: { writeStatus: WriteStatus.WRITING },
      });
      if (count === 0) return { retry: "Another Consign process is writing this event." };
    }
    crashPoint("tracking:before-event");
    const created = await adminQuery(run.admin, CREATE_FULFILLMENT_EVENT, CreateFulfillmentEventData, {
      fulfillmentEvent: {
        fulfillmentId: row.fulfillmentId,
        status: event.shopifyStatus,
        happenedAt: event.eventTime.toISOString(),
        message: event.message,
        city: event.city,
        province: event.province,
        country: event.country,
      },
    });
    crashPoint("tracking:after-event");
    const written = created.fulfillmentEventCreate?.fulfillmentEvent;
    if (written) {
      // The outcome joins the next group commit of reschedules: lost in a crash, it leaves the event WRITING,
      // and the next poll finds it in Shopify by reading back (never a second write).
      run.written.push({ id: event.id, shopifyEventId: written.id, writtenAt: run.now() });
      event.writeStatus = WriteStatus.WRITTEN;
      return "written";
    }
    // Refused. A cancelled fulfillment takes no events: that ends tracking, not just this event.
    const { fulfillment } = await readFulfillmentEvents(run, row.fulfillmentId);
    if (!fulfillment || fulfillment.status === "CANCELLED") return { stop: "FULFILLMENT_CANCELLED" };
    const reasons = created.fulfillmentEventCreate?.userErrors.map((error) => error.message).join(" ") || "no reason given.";
    await run.db.trackingEvent.update({
      where: { id: event.id },
      data: { writeStatus: WriteStatus.FAILED, writeError: `Shopify refused the event: ${reasons}` },
    });
    return "failed";
  } catch (error) {
    if (isTransient(error) || !(error instanceof AdminApiError)) {
      // Outcome unknown: the event stays WRITING (or PENDING) and the next poll reads back before writing.
      return { retry: `Shopify did not take the latest tracking update yet (${error instanceof Error ? error.message : String(error)}); Consign tries again.` };
    }
    await run.db.trackingEvent.update({
      where: { id: event.id },
      data: { writeStatus: WriteStatus.FAILED, writeError: `Shopify refused the event: ${error.message}` },
    });
    return "failed";
  }
}

/**
 * The shipment's summary columns from its events: latest status and place, pickup and delivery, attention. For a
 * shipment of several tracked pieces, the status, place and attention are those of the piece it stands at (the one
 * behind or in trouble; `shipmentSteps`), named in the attention reason ("Piece 2 of 2 (9400…)"), and it is
 * delivered when its last piece is.
 */
function summaryOf(events: readonly TrackingEventRow[], pieces: readonly string[]) {
  const numbers = pieceNumbers(pieces, events);
  let latest = events[events.length - 1];
  let delivered = events.find((event) => event.carrierStatus === "Delivered");
  if (numbers.length > 1) {
    const steps = shipmentSteps(
      pieces,
      events.map((event) => ({ ...asPieceEvent(event), row: event })),
    );
    latest = steps.at(-1)?.holder?.row;
    delivered = steps.find((step) => step.status === "DELIVERED")?.event.row;
  }
  const pickup = events.find((event) => event.carrierStatus === "In Transit");
  const attention = latest && ATTENTION_CARRIER_STATUSES.includes(latest.carrierStatus as EventStatus) ? latest : null;
  const piece =
    attention && numbers.length > 1 ? `Piece ${numbers.indexOf(attention.trackingNumber) + 1} of ${numbers.length} (${attention.trackingNumber}): ` : "";
  return {
    carrierStatus: latest?.carrierStatus ?? null,
    lastEventText: latest?.message ?? null,
    lastEventPlace: latest ? placeText(latest) : null,
    lastEventAt: latest?.eventTime ?? null,
    inTransitAt: pickup?.eventTime ?? null,
    deliveredAt: delivered?.eventTime ?? null,
    attentionReason: attention ? `${piece}${attention.reason ?? attention.message}` : null,
    attentionAction: attention?.action ?? null,
  };
}

/** Stops following shipments (all of a shop's, an order's, a fulfillment's or one shipment) for `reason`. */
export async function stopTracking(
  ctx: Pick<Context, "db" | "shop">,
  where: { orderId?: string; fulfillmentId?: string; shipmentId?: string },
  reason: StopReason,
): Promise<number> {
  const { count } = await ctx.db.shipment.updateMany({
    where: {
      shop: ctx.shop,
      ...(where.orderId ? { orderId: where.orderId } : {}),
      ...(where.fulfillmentId ? { fulfillmentId: where.fulfillmentId } : {}),
      ...(where.shipmentId ? { id: where.shipmentId } : {}),
      trackingState: { in: [TrackingState.NONE, TrackingState.ACTIVE, TrackingState.STALE] },
    },
    data: { trackingState: TrackingState.STOPPED, trackingStopReason: reason, nextTrackAt: null },
  });
  return count;
}

/**
 * Whether Search Shipments (keyword: the book number, matched exactly in the answer) says the label was voided;
 * null when it did not answer, and the check is tried at the next poll.
 */
async function labelVoided(run: Run, row: TrackedRow & { bookNumber: string }): Promise<boolean | null> {
  const found = await run.client.searchShipments({ body: { keyword: row.bookNumber } });
  if (!found.ok) {
    run.log.warn(
      { shipmentId: row.id, orderName: row.orderName },
      `Search Shipments did not answer (${describeError(found.error)}); the void check is tried next poll`,
    );
    return null;
  }
  return found.value.shipments.some((shipment) => shipment.bookNumber === row.bookNumber && shipment.voided);
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

/** Polls one claimed shipment, writes its changes of status, and reschedules it. */
async function pollShipment(run: Run, row: TrackedRow, known: TrackingEventRow[]): Promise<void> {
  const { summary } = run;
  if (!row.bookNumber || !row.fulfillmentId) {
    await run.db.shipment.update({ where: { id: row.id }, data: { trackingState: TrackingState.STOPPED, trackingStopReason: "NO_LABEL", nextTrackAt: null } });
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
    run.reschedules.push(() =>
      run.db.shipment.update({
        where: { id: row.id },
        data: {
          lastTrackedAt: now,
          nextTrackAt: new Date(now.getTime() + jittered(RETRY_AFTER_MS, run.random)),
          trackingError: `Track Shipment did not answer (${describeError(tracked.error)}); Consign tries again in about half an hour.`,
        },
      }),
    );
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
  if (checkVoid) {
    const voided = await labelVoided(run, bookedRow);
    if (voided) {
      await stopTracking(run, { shipmentId: row.id }, "VOIDED");
      run.reschedules.push(() => run.db.shipment.updateMany({ where: { id: row.id }, data: { voidCheckedAt: now, lastTrackedAt: now } }));
      summary.stopped++;
      return;
    }
    if (voided === false) voidCheckedAt = now;
  }
  const pieces = trackingNumbersOf(row);
  const recorded = await recordEvents(run, row, pieces, tracked.value, known);
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
  if (outstanding.some((event) => event.writeStatus !== WriteStatus.WRITTEN)) {
    events = await run.db.trackingEvent.findMany({ where: { shipmentId: row.id }, orderBy: [{ eventTime: "asc" }, { seenAt: "asc" }] });
  }
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
  if (next.state === TrackingState.ACTIVE && !problem && holds(row, tracking)) {
    run.unchanged.push({ id: row.id, nextTrackAt: next.nextTrackAt, lastTrackedAt: now });
    return;
  }
  run.changed.push({
    id: row.id,
    ...tracking,
    voidCheckedAt: voidCheckedAt ?? row.voidCheckedAt,
    trackingState: next.state,
    nextTrackAt: next.nextTrackAt,
    lastTrackedAt: now,
    trackingError: problem,
  });
}

/** Whether the shipment's stored columns already hold `values` (dates by instant). */
function holds(row: TrackedRow, values: Partial<Record<keyof TrackedRow, string | Date | null>>): boolean {
  return Object.entries(values).every(([key, value]) => {
    const stored = row[key as keyof TrackedRow];
    return value instanceof Date ? stored instanceof Date && stored.getTime() === value.getTime() : stored === value;
  });
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
    reschedules: [],
    commit: groupCommit(ctx),
    unchanged: [],
    changed: [],
    written: [],
  };
  const claimed = await claimDue(run, options.limit ?? 500);
  if (claimed.length === 0) return run.summary;
  // The claimed shipments' stored events in one read (their claim keeps other callers from adding any).
  // A shipment's events are all in one chunk, in order.
  const stored = await readByIds(
    run,
    claimed.map((row) => row.id),
    (chunk) => run.db.trackingEvent.findMany({ where: { shipmentId: { in: chunk } }, orderBy: [{ eventTime: "asc" }, { seenAt: "asc" }] }),
  );
  const knownOf = new Map<string, TrackingEventRow[]>();
  for (const event of stored) {
    const list = knownOf.get(event.shipmentId);
    if (list) list.push(event);
    else knownOf.set(event.shipmentId, [event]);
  }
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const row = claimed[next++]!;
      try {
        await pollShipment(run, row, knownOf.get(row.id) ?? []);
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
  return run.summary;
}

/** Shops with shipments due at the services' `now()`, for a scheduler. */
export async function shopsWithDueTracking(services: Pick<JobServices, "db" | "now">): Promise<string[]> {
  const rows = await services.db.shipment.findMany({
    where: { trackingState: TrackingState.ACTIVE, nextTrackAt: { lte: services.now() } },
    distinct: ["shop"],
    select: { shop: true },
  });
  return rows.map((row) => row.shop);
}
