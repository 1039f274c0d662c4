import type { BookedShipment, SearchShipmentsResponse, TrackingEvent } from "../../shipping-api/contract";
import { planCharge, planRefund } from "../../lib/prepay-ledger";
import { formatTimestamp } from "../clock";
import { notFound, unprocessable } from "../errors";
import { convertCents, formatCents, parseCents } from "../money";
import { buildTimeline, visibleEvents } from "../tracking";
import type { DomainContext } from "./context";
import { insertLedgerEntries, prepayAccountOf } from "./ledger-store";

export const SEARCH_LIMIT = 100;

/** Case-insensitive substring match over the searchable fields, newest first, at most 100. */
export function searchShipments(ctx: DomainContext, customerId: string, keyword: string): SearchShipmentsResponse {
  chargeScannedReturnLabels(ctx, customerId);
  const needle = keyword.trim().toLowerCase();
  const rows = ctx.store
    .statement(`SELECT record FROM Shipment WHERE customerId = ? AND instr(searchText, ?) > 0 ORDER BY id DESC LIMIT ${SEARCH_LIMIT}`)
    .all(customerId, needle) as { record: string }[];
  return { shipments: rows.map((row) => JSON.parse(row.record) as BookedShipment) };
}

interface TrackedRow {
  bookNumber: string;
  carrierCode: string;
  trackingNumber: string;
  transitDays: number;
  bookedAt: string;
  record: string;
  /** Set on a scan-based return label: its cost (USD cents), charged when it is first scanned. */
  scanChargeCents: number | null;
}

const TRACKED_COLUMNS = "bookNumber, carrierCode, trackingNumber, transitDays, bookedAt, record, scanChargeCents";

/** The customer's booked shipment, or 404 (another customer's book number is not found either). */
function ownedShipment(ctx: DomainContext, customerId: string, bookNumber: string): TrackedRow {
  const row = ctx.store.statement(`SELECT ${TRACKED_COLUMNS} FROM Shipment WHERE bookNumber = ? AND customerId = ?`).get(bookNumber, customerId) as
    TrackedRow | undefined;
  if (!row) throw notFound(`Shipment ${bookNumber} not found`);
  return row;
}

/**
 * The shipment's timeline, oldest first: each of its tracking numbers has its own (a multi-piece postal shipment
 * has one per piece, and its boxes travel on their own), merged by time.
 */
function timelineOf(ctx: DomainContext, row: TrackedRow, record: BookedShipment): TrackingEvent[] {
  const carrier = ctx.catalog.carrier(row.carrierCode);
  const numbers = record.trackingNumbers.length > 0 ? [...new Set(record.trackingNumbers)] : [row.trackingNumber];
  const timelines = numbers.map((trackingNumber) =>
    buildTimeline({
      trackingNumber,
      carrierCode: row.carrierCode,
      ancillary: carrier?.trackingAncillary ?? false,
      consolidator: carrier?.kind === "consolidator",
      bookedAt: new Date(row.bookedAt),
      transitDays: row.transitDays,
      origin: { city: record.sender.city, state: record.sender.state, country: record.sender.country },
      destination: { city: record.receiver.city, state: record.receiver.state, country: record.receiver.country },
      scanBased: row.scanChargeCents !== null,
    }),
  );
  if (timelines.length === 1) return timelines[0]!;
  // Timestamps in this fixed-width form sort as strings; the sort is stable, so each piece keeps its own order.
  return timelines.flat().sort((a, b) => (a.eventTime < b.eventTime ? -1 : a.eventTime > b.eventTime ? 1 : 0));
}

/** The refund a void wrote: its time is the void's time (the ledger holds it, in the void's transaction). */
function voidRefundOf(ctx: DomainContext, customerId: string, bookNumber: string): { amountCents: number; createdAt: string } | undefined {
  return ctx.store
    .statement(`SELECT amountCents, createdAt FROM LedgerEntry WHERE customerId = ? AND kind = 'refund' AND reference = ?`)
    .get(customerId, bookNumber) as { amountCents: number; createdAt: string } | undefined;
}

/**
 * The shipment's timeline as far as the service clock has reached, most recent first. A voided label never
 * moves: its timeline stops at the void.
 */
export function trackShipment(ctx: DomainContext, customerId: string, bookNumber: string): TrackingEvent[] {
  chargeScannedReturnLabels(ctx, customerId);
  const row = ownedShipment(ctx, customerId, bookNumber);
  const record = JSON.parse(row.record) as BookedShipment;
  const now = ctx.clock.now();
  const refund = record.voided ? voidRefundOf(ctx, customerId, bookNumber) : undefined;
  const until = refund && new Date(refund.createdAt).getTime() < now.getTime() ? new Date(refund.createdAt) : now;
  return visibleEvents(timelineOf(ctx, row, record), until);
}

/** What the portal answers to a void: the shipment, when it was voided, what was credited and the balance now. */
export interface VoidedShipment {
  bookNumber: string;
  voided: true;
  /** `YYYY-MM-DD HH:MM:SS` UTC, at the service clock. */
  voidedAt: string;
  /** USD, as the label was charged. */
  creditedAmount: string;
  /** USD, the prepay balance after the credit (now, for a repeated void). */
  prepayBalance: string;
}

/**
 * Voids a booked label, as the provider's portal does (the Shipping API has no void endpoint; Search shows
 * `voided`). Only a label the carrier does not have yet can be voided: once its timeline at the service clock
 * shows any status beyond Info Received, the void is refused (422). The void marks the searchable record
 * voided and credits the label's charge back to the prepay ledger in one refund entry, in one transaction.
 * Voiding a voided label is a no-op that answers the first void again (no second credit), so a retried
 * request is safe. Another customer's book number is a 404, as for Track Shipment.
 */
export function voidShipment(ctx: DomainContext, customerId: string, bookNumber: string): VoidedShipment {
  chargeScannedReturnLabels(ctx, customerId);
  return ctx.store.transaction(() => {
    const row = ownedShipment(ctx, customerId, bookNumber);
    const record = JSON.parse(row.record) as BookedShipment;
    const answer = (refund: { amountCents: number; createdAt: string }): VoidedShipment => ({
      bookNumber,
      voided: true,
      voidedAt: formatTimestamp(new Date(refund.createdAt)),
      creditedAmount: formatCents(refund.amountCents),
      prepayBalance: formatCents(prepayAccountOf(ctx, customerId).balanceCents),
    });
    const earlier = record.voided ? voidRefundOf(ctx, customerId, bookNumber) : undefined;
    if (earlier) return answer(earlier);
    const now = ctx.clock.now();
    const moved = visibleEvents(timelineOf(ctx, row, record), now).find((event) => event.eventStatus !== "Info Received");
    if (moved) {
      throw unprocessable(
        `Shipment ${bookNumber} cannot be voided: the carrier has the parcel (${moved.eventStatus} at ${moved.eventTime}); a label that has moved cannot be voided`,
      );
    }
    // The label's charge as the ledger took it (USD); the record's total converted as booking converts it otherwise.
    const charge = ctx.store
      .statement(`SELECT amountCents FROM LedgerEntry WHERE customerId = ? AND kind = 'charge' AND reference = ?`)
      .get(customerId, bookNumber) as { amountCents: number } | undefined;
    // A scan-based return label never scanned was never charged: its void credits nothing (a refund entry of 0.00
    // keeps the void's time, so a repeated void answers the same).
    const uncharged = row.scanChargeCents !== null && !charge;
    const creditCents = charge ? -charge.amountCents : uncharged ? 0 : convertCents(parseCents(record.totalShippingCost) ?? 0, record.currency, "USD");
    const plan = planRefund(prepayAccountOf(ctx, customerId), creditCents, bookNumber);
    insertLedgerEntries(ctx, customerId, plan.entries, now.toISOString());
    ctx.store
      .statement(`UPDATE Shipment SET record = ? WHERE bookNumber = ? AND customerId = ?`)
      .run(JSON.stringify({ ...record, voided: true }), bookNumber, customerId);
    return answer({ amountCents: creditCents, createdAt: now.toISOString() });
  });
}

/**
 * Charges the customer's scan-based return labels that the service clock shows scanned and that were not charged
 * yet: one charge entry each (recharging below the minimum as any charge does; a used label cannot be refused),
 * dated at the label's first scan, and the label's record says when (`chargedAt`). A label never scanned, or
 * voided before its first scan, is never charged. Every operation that reports the balance or a label's state runs
 * this first, so what it answers is as of the service clock.
 */
export function chargeScannedReturnLabels(ctx: DomainContext, customerId: string): void {
  const pending = ctx.store
    .statement(
      `SELECT s.id, ${TRACKED_COLUMNS} FROM Shipment s WHERE s.customerId = ? AND s.scanChargeCents IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM LedgerEntry l WHERE l.customerId = s.customerId AND l.kind = 'charge' AND l.reference = s.bookNumber)`,
    )
    .all(customerId) as (TrackedRow & { id: number })[];
  if (pending.length === 0) return;
  const now = ctx.clock.now();
  const scans = pending
    .map((row) => {
      const record = JSON.parse(row.record) as BookedShipment;
      const first = record.voided ? undefined : timelineOf(ctx, row, record)[0];
      return first && visibleEvents([first], now).length > 0 ? { row, record, scannedAt: first.eventTime } : null;
    })
    .filter((scan) => scan !== null)
    // In scan order, then booking order. No ORDER BY above: it would make the database walk the customer's labels
    // by id instead of the index of its scan-based ones.
    .sort((a, b) => (a.scannedAt < b.scannedAt ? -1 : a.scannedAt > b.scannedAt ? 1 : a.row.id - b.row.id));
  if (scans.length === 0) return;
  ctx.store.transaction(() => {
    for (const { row, record, scannedAt } of scans) {
      const plan = planCharge(prepayAccountOf(ctx, customerId), row.scanChargeCents!, row.bookNumber, true);
      if (!plan.ok) continue;
      insertLedgerEntries(ctx, customerId, plan.entries, new Date(`${scannedAt.replace(" ", "T")}Z`).toISOString());
      ctx.store
        .statement(`UPDATE Shipment SET record = ? WHERE bookNumber = ? AND customerId = ?`)
        .run(JSON.stringify({ ...record, chargedAt: scannedAt }), row.bookNumber, customerId);
    }
  });
}
