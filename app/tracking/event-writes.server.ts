import type { TrackingEvent as TrackingEventRow } from "@prisma/client";
import { timeOrderedId } from "../db/ids";
import type { EventStatus, TrackingEvent } from "../../shipping-api/contract";
import type { Context } from "../context";
import { crashPoint } from "../crash-points.server";
import { parseServiceTimestamp } from "../shipping/context.server";
import { AdminApiError, adminQuery, isTransient, type ShopAdmin } from "../shopify/gateway.server";
import type { Reschedules, TrackedRow } from "./reschedule.server";
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
import { WriteStatus, type StopReason } from "./tracking-states";

/**
 * The event writes of tracking sync's pass (pass.server.ts): a poll's carrier events stored once, each change of
 * status among them written to Shopify as one fulfillment event (intent, the mutation, outcome; an interrupted
 * write is read back before it is written again), and the shipment's tracking columns worked out from its events.
 */

/** What writing a poll's events takes of its pass: its database and clock, the shop's Admin API, and what it commits. */
export interface EventWrites extends Pick<Context, "db" | "now">, Pick<Reschedules, "commit" | "written"> {
  /** The shop's Admin API, through the gateway (cost-aware pacing, THROTTLED waited out). */
  admin: ShopAdmin;
}

const eventKey = (e: { trackingNumber: string; eventTime: Date; carrierStatus: string; message: string }) =>
  `${e.trackingNumber}|${e.eventTime.toISOString()}|${e.carrierStatus}|${e.message}`;

/** "MEMPHIS, TN" and "US" as Shopify's city / province / country. */
function place(event: TrackingEvent): { city: string | null; province: string | null; country: string | null } {
  const [city, province] = event.serviceArea.split(",").map((part) => part.trim());
  return { city: city || null, province: province || null, country: event.serviceAreaCountry || null };
}

/** Where the parcel was, in one line. */
function placeText(event: Pick<TrackingEventRow, "city" | "province" | "country">): string | null {
  const text = [event.city, event.province, event.country].filter(Boolean).join(", ");
  return text || null;
}

/** Where the written (or queued) changes of status have taken the shipment so far. */
export function positionOf(events: readonly TrackingEventRow[]): StatusPosition | null {
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
export async function recordEvents(
  run: Pick<EventWrites, "now" | "commit">,
  row: Pick<TrackedRow, "id" | "shop" | "kind">,
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
    id: timeOrderedId(),
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
    // A change of status is written to Shopify next: its intent is recorded with it (recovery reads back first). A
    // return parcel's reverse delivery takes no events in Shopify: its status is Consign's own (docs/decisions/041).
    writeStatus: changes.has(index) && row.kind !== "RETURN" ? WriteStatus.WRITING : WriteStatus.SKIPPED,
    shopifyEventId: null,
    writeError: null,
    seenAt,
    writtenAt: null,
  }));
  // Durable before any of it is written to Shopify; committed with other polls' that are waiting (one sync for many).
  await run.commit({ insert: "TrackingEvent", rows: created });
  // The shipment's events in the order the pass reads them (eventTime, then seenAt), without reading them back.
  const events = [...known, ...created].sort((a, b) => a.eventTime.getTime() - b.eventTime.getTime() || a.seenAt.getTime() - b.seenAt.getTime());
  return { events, fresh: new Set(created.map((event) => event.id)) };
}

const sameInstant = (a: string, b: Date) => new Date(a).getTime() === b.getTime();

type WriteOutcome = "written" | "linked" | "failed" | { stop: StopReason } | { retry: string };

/** The fulfillment as Shopify has it now, with its latest events. */
function readFulfillmentEvents(run: Pick<EventWrites, "admin">, fulfillmentId: string) {
  return adminQuery(run.admin, FULFILLMENT_EVENTS, FulfillmentEventsData, { fulfillmentId, first: EVENTS_READ });
}

/** One queued change of status to Shopify: intent, the mutation, outcome. */
export async function writeEvent(
  run: EventWrites,
  row: TrackedRow & { fulfillmentId: string },
  event: TrackingEventRow,
  fresh: boolean,
): Promise<WriteOutcome> {
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
export function summaryOf(events: readonly TrackingEventRow[], pieces: readonly string[]) {
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
