import type { EventStatus, TrackingEvent } from "../shipping-api/contract";
import { DAY_MS, formatTimestamp } from "./clock";

/**
 * Tracking timelines. Every shipment's complete timeline is a pure function of its tracking number,
 * booking time, transit days and places; the service clock decides how much of it is visible.
 * A hash of the tracking number picks the path: most shipments go straight through; some have a failed
 * delivery attempt first, some an exception followed by an arranged re-delivery.
 */

export interface Place {
  city: string;
  state: string;
  country: string;
}

export interface TimelineInput {
  trackingNumber: string;
  carrierCode: string;
  /** FedEx-kind carriers fill ancillary reason/action on exceptional events. */
  ancillary: boolean;
  consolidator: boolean;
  bookedAt: Date;
  transitDays: number;
  origin: Place;
  destination: Place;
  /**
   * A scan-based return label: no event until the customer hands the parcel over (its first scan, which is when
   * it is charged), and some are never used at all (scanBasedLabelUsed).
   */
  scanBased?: boolean;
}

export type TimelinePath = "standard" | "failed-attempt" | "exception";

const HOURS = 60 * 60 * 1000;
const HUBS: readonly Place[] = [
  { city: "Memphis", state: "TN", country: "US" },
  { city: "Louisville", state: "KY", country: "US" },
  { city: "Indianapolis", state: "IN", country: "US" },
  { city: "Dallas", state: "TX", country: "US" },
  { city: "Chicago", state: "IL", country: "US" },
];

/** FNV-1a: stable across processes and platforms, unlike anything seeded. */
export function hashOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash;
}

/** One in ten shipments has a failed attempt, one in ten an exception; the rest go straight through. */
export function pathOf(trackingNumber: string): TimelinePath {
  const bucket = hashOf(trackingNumber) % 10;
  return bucket === 3 ? "failed-attempt" : bucket === 7 ? "exception" : "standard";
}

function area(place: Place): string {
  return [place.city, place.state]
    .filter((part) => part.length > 0)
    .join(", ")
    .toUpperCase();
}

/**
 * Whether the customer ever sends a scan-based return label's parcel: six in ten do (one to three days after the
 * label was booked), four in ten never do, so the label is never scanned and never charged. Exported so tests
 * know which labels will move.
 */
export function scanBasedLabelUsed(trackingNumber: string): boolean {
  return (hashOf(`scan:${trackingNumber}`) >>> 4) % 10 < 6;
}

/** The whole timeline, oldest first. */
export function buildTimeline(input: TimelineInput): TrackingEvent[] {
  if (input.scanBased) {
    // The customer's parcel goes to the shop as any parcel does from the day it is handed over; until then the
    // carrier knows nothing of it (no Info Received: a scan-based label is not manifested).
    if (!scanBasedLabelUsed(input.trackingNumber)) return [];
    const delayDays = 1 + (hashOf(`drop:${input.trackingNumber}`) % 3);
    const handedOver = new Date(input.bookedAt.getTime() + delayDays * DAY_MS);
    return buildTimeline({ ...input, scanBased: false, bookedAt: handedOver }).filter((event) => event.eventStatus !== "Info Received");
  }
  const hash = hashOf(input.trackingNumber);
  const minute = (salt: number) => ((hash >>> salt) % 50) * 60_000;
  const dayStart = Date.UTC(input.bookedAt.getUTCFullYear(), input.bookedAt.getUTCMonth(), input.bookedAt.getUTCDate());
  const international = input.origin.country !== input.destination.country;
  const events: TrackingEvent[] = [];
  const push = (at: number, status: EventStatus, text: string, place: Place, ancillary?: { reason: string; action: string }) => {
    events.push({
      trackingNumber: input.trackingNumber,
      carrier: input.carrierCode,
      event: text,
      eventStatus: status,
      eventTime: formatTimestamp(new Date(at)),
      serviceArea: area(place),
      serviceAreaCountry: place.country,
      ancillaryReasonDescription: input.ancillary && ancillary ? ancillary.reason : null,
      ancillaryActionDescription: input.ancillary && ancillary ? ancillary.action : null,
    });
  };

  const booked = input.bookedAt.getTime();
  push(booked + 5 * 60_000, "Info Received", "Shipment information sent to carrier", input.origin);
  // Picked up the evening after booking; the first transit day starts then.
  const pickup = Math.max(dayStart + DAY_MS + 17 * HOURS, booked + 2 * HOURS) + minute(3);
  push(pickup, "In Transit", "Picked up", input.origin);
  push(pickup + 4 * HOURS, "In Transit", "Departed origin facility", input.origin);
  const transitDays = Math.max(1, input.transitDays);
  const deliveryDay = dayStart + (1 + transitDays) * DAY_MS;
  for (let day = 1; day < transitDays; day++) {
    const hub = HUBS[(hash + day) % HUBS.length]!;
    push(
      dayStart + (1 + day) * DAY_MS + 3 * HOURS + minute(5 + day),
      "In Transit",
      "Arrived at hub facility",
      international && day === transitDays - 1 ? input.destination : hub,
    );
  }
  if (international)
    push(
      Math.max(deliveryDay - 10 * HOURS, pickup + 5 * HOURS) + minute(7),
      "Delivered to Broker",
      "Delivered to customs broker for clearance",
      input.destination,
    );
  if (input.consolidator) push(deliveryDay + 5 * HOURS + minute(9), "With Delivery Courier", "Handed over to last-mile delivery partner", input.destination);

  let finalDay = deliveryDay;
  const path = pathOf(input.trackingNumber);
  if (path === "failed-attempt") {
    push(finalDay + 8 * HOURS + minute(11), "Out for Delivery", "On vehicle for delivery", input.destination);
    push(finalDay + 15 * HOURS + minute(13), "Failed Attempt", "Delivery attempted, recipient not available", input.destination, {
      reason: "Customer not available or business closed",
      action: "Delivery will be attempted again the next business day",
    });
    finalDay += DAY_MS;
  } else if (path === "exception") {
    push(finalDay + 6 * HOURS + minute(11), "Exception", "Incorrect address, delivery delayed", input.destination, {
      reason: "Incorrect recipient address",
      action: "Carrier is contacting the recipient to correct the address",
    });
    push(finalDay + 11 * HOURS + minute(13), "Delivery Arragned", "Delivery rescheduled with recipient", input.destination, {
      reason: "Address corrected by recipient",
      action: "Delivery scheduled for the next business day",
    });
    finalDay += DAY_MS;
  }
  push(finalDay + 8 * HOURS + minute(15), "Out for Delivery", "On vehicle for delivery", input.destination);
  push(finalDay + 14 * HOURS + minute(17), "Delivered", "Delivered", input.destination);
  // Stable sort: events were pushed in order; this only guards short timelines against overlap.
  return events.sort((a, b) => (a.eventTime < b.eventTime ? -1 : a.eventTime > b.eventTime ? 1 : 0));
}

/** The events the clock has reached, most recent first. */
export function visibleEvents(timeline: readonly TrackingEvent[], now: Date): TrackingEvent[] {
  const cutoff = formatTimestamp(now);
  // Timestamps in this fixed-width form sort as strings.
  return timeline.filter((event) => event.eventTime <= cutoff).reverse();
}
