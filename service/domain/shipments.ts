import type { BookedShipment, SearchShipmentsResponse, TrackingEvent } from "../../shipping-api/contract";
import { notFound } from "../errors";
import { buildTimeline, visibleEvents } from "../tracking";
import type { DomainContext } from "./context";

export const SEARCH_LIMIT = 100;

/** Case-insensitive substring match over the searchable fields, newest first, at most 100. */
export function searchShipments(ctx: DomainContext, customerId: string, keyword: string): SearchShipmentsResponse {
  const needle = keyword.trim().toLowerCase();
  const rows = ctx.store
    .statement(`SELECT record FROM Shipment WHERE customerId = ? AND instr(searchText, ?) > 0 ORDER BY id DESC LIMIT ${SEARCH_LIMIT}`)
    .all(customerId, needle) as { record: string }[];
  return { shipments: rows.map((row) => JSON.parse(row.record) as BookedShipment) };
}

interface TrackedRow {
  carrierCode: string;
  trackingNumber: string;
  transitDays: number;
  bookedAt: string;
  record: string;
}

/** The shipment's timeline as far as the service clock has reached, most recent first. */
export function trackShipment(ctx: DomainContext, customerId: string, bookNumber: string): TrackingEvent[] {
  const row = ctx.store
    .statement(`SELECT carrierCode, trackingNumber, transitDays, bookedAt, record FROM Shipment WHERE bookNumber = ? AND customerId = ?`)
    .get(bookNumber, customerId) as TrackedRow | undefined;
  if (!row) throw notFound(`Shipment ${bookNumber} not found`);
  const carrier = ctx.catalog.carrier(row.carrierCode);
  const record = JSON.parse(row.record) as BookedShipment;
  const timeline = buildTimeline({
    trackingNumber: row.trackingNumber,
    carrierCode: row.carrierCode,
    ancillary: carrier?.trackingAncillary ?? false,
    consolidator: carrier?.kind === "consolidator",
    bookedAt: new Date(row.bookedAt),
    transitDays: row.transitDays,
    origin: { city: record.sender.city, state: record.sender.state, country: record.sender.country },
    destination: { city: record.receiver.city, state: record.receiver.state, country: record.receiver.country },
  });
  return visibleEvents(timeline, ctx.clock.now());
}
