import type { Prisma, Shipment } from "@prisma/client";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import type { Context } from "../context";
import { carrierPlaceName } from "../locale/places";
import { z } from "zod";
import { orderNumber } from "../shopify/gid";
import { DAY } from "./schedule";
import { STOP_REASON_TEXT, TrackingState, type StopReason } from "./tracking-states";
import { transitKey, transitStats, type ObservedTransit, type TransitStats } from "./transit-times";

/**
 * What the app shows of tracking, read from its own database: the Shipments dashboard, Needs attention on
 * the home page, an order's timeline, and observed transit times. The small read functions at the end
 * (latestCarrierEvent, observedTransitTimes) are what other parts of the app and the admin extensions call.
 */

const FILTERS = ["all", "label_created", "in_transit", "out_for_delivery", "delivered", "attention", "stale"] as const;
/** The dashboard's filter from the URL; anything else shows every shipment. */
export const TrackingFilter = z.enum(FILTERS).catch("all");
export type TrackingFilter = (typeof FILTERS)[number];

export const TrackingSearch = z.string().trim().max(100, "Keep the search under 100 characters.").catch("");

const OUT_FOR_DELIVERY = ["Out for Delivery", "With Delivery Courier"];
const ATTENTION = ["Failed Attempt", "Exception"];
/** The carrier knows of the label but has not scanned the parcel: the badge says "Label created", as before any status. */
const LABEL_CREATED = ["Info Received"];

/** A label voided at the provider whose Shopify fulfillment is still there: the customer may think it shipped. */
const VOIDED_STILL_FULFILLED: Prisma.ShipmentWhereInput = {
  // A voided return label is the Returns page's to show: it asks for a new label (docs/decisions/041).
  kind: "OUTBOUND",
  trackingState: TrackingState.STOPPED,
  trackingStopReason: "VOIDED" satisfies StopReason,
  fulfillmentCancelledAt: null,
};

/** The shipments each filter shows; every one is a shipment Consign fulfilled (tracked or not yet). */
function filterWhere(shop: string, filter: TrackingFilter): Prisma.ShipmentWhereInput {
  const tracked: Prisma.ShipmentWhereInput = { shop, fulfillmentStatus: "FULFILLED" };
  switch (filter) {
    case "all":
      return tracked;
    // Each tab lists exactly the shipments whose badge it names (trackingBadge): a parcel the carrier has not
    // scanned yet is "Label created", not in transit.
    case "label_created":
      return { ...tracked, trackingState: TrackingState.ACTIVE, OR: [{ carrierStatus: null }, { carrierStatus: { in: LABEL_CREATED } }] };
    case "in_transit":
      return { ...tracked, trackingState: TrackingState.ACTIVE, carrierStatus: { not: null, notIn: [...OUT_FOR_DELIVERY, ...ATTENTION, ...LABEL_CREATED] } };
    case "out_for_delivery":
      return { ...tracked, trackingState: TrackingState.ACTIVE, carrierStatus: { in: OUT_FOR_DELIVERY } };
    case "delivered":
      return { ...tracked, trackingState: TrackingState.DELIVERED };
    case "attention":
      return {
        ...tracked,
        OR: [{ trackingState: TrackingState.ACTIVE, carrierStatus: { in: ATTENTION } }, { trackingState: TrackingState.STALE }, VOIDED_STILL_FULFILLED],
      };
    case "stale":
      return { ...tracked, trackingState: TrackingState.STALE };
  }
}

export type TrackingTone = "success" | "info" | "attention" | "warning" | "critical" | undefined;

export interface TrackedShipmentView {
  shipmentId: string;
  orderId: string;
  orderName: string;
  orderPath: string;
  trackingNumber: string | null;
  /** Every box's number (one when its boxes share it). */
  trackingNumbers: string[];
  carrierCode: string | null;
  serviceCode: string | null;
  /** The badge: the carrier's latest status, or what tracking is doing. */
  status: string;
  tone: TrackingTone;
  lastEvent: string | null;
  /** Where, codes in words ("MEMPHIS, Tennessee, United States"; locale/places' carrierPlaceName). */
  lastEventPlace: string | null;
  lastEventAt: string | null;
  /** Days since the carrier's pickup scan (to delivery once delivered); null before pickup. */
  daysInTransit: number | null;
  state: string;
  /** Why it needs the merchant, and what to do next (attention, stale, stopped, errors). */
  note: string | null;
  /** The order in Shopify admin, when the next step is taken there (a voided label's fulfillment to cancel). */
  shopifyOrderUrl: string | null;
}

/** The badge of a shipment, in words and tone. */
export function trackingBadge(row: Pick<Shipment, "trackingState" | "carrierStatus" | "trackingStopReason">): { status: string; tone: TrackingTone } {
  switch (row.trackingState) {
    case TrackingState.NONE:
      return { status: "Not tracked yet", tone: undefined };
    case TrackingState.DELIVERED:
      return { status: "Delivered", tone: "success" };
    case TrackingState.STALE:
      return { status: "No news", tone: "warning" };
    case TrackingState.STOPPED:
      return row.trackingStopReason === "VOIDED" ? { status: "Label voided", tone: "warning" } : { status: "Not tracked", tone: undefined };
  }
  if (!row.carrierStatus) return { status: "Label created", tone: "info" };
  if (ATTENTION.includes(row.carrierStatus)) return { status: row.carrierStatus === "Exception" ? "Exception" : "Failed attempt", tone: "critical" };
  if (OUT_FOR_DELIVERY.includes(row.carrierStatus)) return { status: "Out for delivery", tone: "attention" };
  if (row.carrierStatus === "Delivery Arragned") return { status: "Delivery arranged", tone: "warning" };
  if (LABEL_CREATED.includes(row.carrierStatus)) return { status: "Label created", tone: "info" };
  return { status: "In transit", tone: "info" };
}

function daysInTransit(row: Pick<Shipment, "inTransitAt" | "deliveredAt">, now: Date): number | null {
  if (!row.inTransitAt) return null;
  return Math.max(0, Math.floor(((row.deliveredAt ?? now).getTime() - row.inTransitAt.getTime()) / DAY));
}

/** What the shop does once a return parcel is back (Returns and Needs attention say it with a link to the order). */
export const RETURN_ARRIVED = "Arrived — inspect and restock in Shopify.";

/** What the merchant should know about a shipment beyond its badge, and what to do. */
function noteOf(row: Shipment): string | null {
  if (row.kind === "RETURN" && row.trackingState === TrackingState.DELIVERED) return `Return: ${RETURN_ARRIVED}`;
  if (row.trackingState === TrackingState.STOPPED && row.trackingStopReason === "VOIDED") {
    if (row.kind === "RETURN") return "The return label was voided at the Shipping API. Get a new label for the return on Returns.";
    return row.fulfillmentCancelledAt
      ? "The label was voided at the Shipping API and the fulfillment was cancelled in Shopify. Book the order again if it still needs to ship."
      : "The label was voided at the Shipping API; cancel the fulfillment in Shopify so the customer isn't told it shipped, or book the order again.";
  }
  if (row.trackingState === TrackingState.STOPPED) return STOP_REASON_TEXT[row.trackingStopReason as StopReason] ?? "Tracking stopped.";
  if (row.trackingState === TrackingState.STALE) {
    return "No carrier update for 30 days. Contact the carrier with the tracking number; choose Check again to resume tracking.";
  }
  if (row.trackingState === TrackingState.ACTIVE && row.carrierStatus && ATTENTION.includes(row.carrierStatus)) {
    const reason = row.attentionReason ?? row.lastEventText ?? row.carrierStatus;
    const action = row.attentionAction ? ` ${row.attentionAction}.` : " Check the address with your customer; the carrier will try again.";
    return `${reason}.${action}`.replace(/\.\./g, ".");
  }
  return row.trackingError;
}

function toView(row: Shipment, now: Date): TrackedShipmentView {
  const badge = trackingBadge(row);
  return {
    shipmentId: row.id,
    orderId: row.orderId,
    orderName: row.orderName,
    orderPath: `/app/orders/${orderNumber(row.orderId)}/book`,
    trackingNumber: row.trackingNumber,
    trackingNumbers: trackingNumbersOf(row),
    carrierCode: row.carrierCode,
    serviceCode: row.serviceCode,
    ...badge,
    lastEvent: row.lastEventText,
    lastEventPlace: carrierPlaceName(row.lastEventPlace) || null,
    lastEventAt: row.lastEventAt?.toISOString() ?? null,
    daysInTransit: daysInTransit(row, now),
    state: row.trackingState,
    note: noteOf(row),
    shopifyOrderUrl:
      (row.kind === "OUTBOUND" && row.trackingState === TrackingState.STOPPED && row.trackingStopReason === "VOIDED" && !row.fulfillmentCancelledAt) ||
      (row.kind === "RETURN" && row.trackingState === TrackingState.DELIVERED)
        ? `shopify://admin/orders/${orderNumber(row.orderId)}`
        : null,
  };
}

export type TrackingCounts = Record<TrackingFilter, number>;

export interface TrackingDashboard {
  filter: TrackingFilter;
  q: string;
  counts: TrackingCounts;
  /** One page of the filtered (and searched) shipments. */
  rows: TrackedShipmentView[];
  /** The page shown (the last when asked past it), and how many pages the filter and search give. */
  page: number;
  pages: number;
}

const DASHBOARD_ROWS = 50;

/** The Shipments page: counts per filter, and one page of the filtered (and searched) shipments, most recent event first. */
export async function trackingDashboard(
  ctx: Pick<Context, "db" | "shop" | "now">,
  options: { filter: TrackingFilter; q: string; page?: number },
): Promise<TrackingDashboard> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const filters = FILTERS;
  const counted = await Promise.all(filters.map((filter) => db.shipment.count({ where: filterWhere(shop, filter) })));
  const counts = Object.fromEntries(filters.map((filter, index) => [filter, counted[index]!])) as TrackingCounts;
  const search: Prisma.ShipmentWhereInput = options.q
    ? {
        OR: [
          { orderName: { contains: options.q } },
          { trackingNumber: { contains: options.q } },
          { trackingNumbers: { contains: options.q } },
          { bookNumber: { contains: options.q } },
        ],
      }
    : {};
  const where: Prisma.ShipmentWhereInput = { AND: [filterWhere(shop, options.filter), search] };
  const matching = options.q ? await db.shipment.count({ where }) : counts[options.filter];
  const pages = Math.max(1, Math.ceil(matching / DASHBOARD_ROWS));
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  const rows = await db.shipment.findMany({
    where,
    orderBy: [{ lastEventAt: { sort: "desc", nulls: "last" } }, { fulfilledAt: "desc" }, { id: "asc" }],
    skip: (page - 1) * DASHBOARD_ROWS,
    take: DASHBOARD_ROWS,
  });
  return { filter: options.filter, q: options.q, counts, rows: rows.map((row) => toView(row, now)), page, pages };
}

/**
 * The home page's Needs attention: failed attempts, exceptions, stale shipments, and labels voided at the provider
 * whose Shopify fulfillment is still there, each with what to do next.
 */
export async function needsAttention(ctx: Pick<Context, "db" | "shop" | "now">, limit = 20): Promise<{ total: number; rows: TrackedShipmentView[] }> {
  const { db, shop } = ctx;
  const now = ctx.now();
  // Return parcels back at the shop whose return is still open in Shopify: the merchant inspects and restocks them there.
  const openReturns = await db.shopReturn.findMany({ where: { shop, status: "OPEN" }, select: { id: true } });
  const arrived: Prisma.ShipmentWhereInput = {
    shop,
    kind: "RETURN",
    trackingState: TrackingState.DELIVERED,
    returnId: { in: openReturns.map((entry) => entry.id) },
  };
  const where: Prisma.ShipmentWhereInput = { OR: [filterWhere(shop, "attention"), arrived] };
  const [total, rows] = await Promise.all([
    db.shipment.count({ where }),
    db.shipment.findMany({ where, orderBy: [{ lastEventAt: { sort: "desc", nulls: "last" } }, { id: "asc" }], take: limit }),
  ]);
  return { total, rows: rows.map((row) => toView(row, now)) };
}

export interface TimelineEvent {
  at: string;
  carrierStatus: string;
  message: string;
  place: string | null;
  /** In Shopify's order timeline (a change of status written as a fulfillment event). */
  inShopify: boolean;
  /** Which box the event is about ("Box 2 of 2"), for a shipment of several boxes with a number each. */
  box: string | null;
}

export interface ShipmentTimeline extends TrackedShipmentView {
  /** Newest first. */
  events: TimelineEvent[];
}

/** An order's tracked shipments with their carrier events, for the order's page. */
export function orderTimeline(ctx: Pick<Context, "db" | "shop" | "now">, orderId: string): Promise<ShipmentTimeline[]> {
  return timelines(ctx, { orderId });
}

/**
 * The shipment Consign wrote as this Shopify fulfillment (Fulfillment GID), with its carrier events, or null: for
 * the customer's order status page, which shows one fulfillment at a time.
 */
export async function fulfillmentTimeline(ctx: Pick<Context, "db" | "shop" | "now">, fulfillmentId: string): Promise<ShipmentTimeline | null> {
  return (await timelines(ctx, { fulfillmentId }))[0] ?? null;
}

async function timelines(ctx: Pick<Context, "db" | "shop" | "now">, of: { orderId: string } | { fulfillmentId: string }): Promise<ShipmentTimeline[]> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const rows = await db.shipment.findMany({
    where: { shop, ...of, fulfillmentStatus: "FULFILLED" },
    include: { trackingEvents: { orderBy: [{ eventTime: "desc" }, { seenAt: "desc" }] } },
    orderBy: { fulfilledAt: "asc" },
  });
  return rows.map(({ trackingEvents, ...row }) => {
    const numbers = trackingNumbersOf(row);
    const box = (trackingNumber: string) => {
      const index = numbers.indexOf(trackingNumber);
      return numbers.length > 1 && index >= 0 ? `Box ${index + 1} of ${numbers.length}` : null;
    };
    return {
      ...toView(row, now),
      events: trackingEvents.map((event) => ({
        at: event.eventTime.toISOString(),
        carrierStatus: event.carrierStatus,
        message: event.message,
        place: carrierPlaceName([event.city, event.province].filter(Boolean).join(", "), event.country) || null,
        inShopify: event.writeStatus === "WRITTEN",
        box: box(event.trackingNumber),
      })),
    };
  });
}

/** The carrier's latest event of a shipment (its status as the badge says it, where, when), or null before the first scan. */
export function latestCarrierEvent(row: Shipment): { status: string; place: string | null; at: string } | null {
  if (!row.lastEventAt) return null;
  return { status: trackingBadge(row).status, place: carrierPlaceName(row.lastEventPlace) || null, at: row.lastEventAt.toISOString() };
}

/** Deliveries read for observed transit times: the most recent ones, plenty for a median per service and zone. */
const TRANSIT_SAMPLE_LIMIT = 5_000;

/** Observed transit times per carrier, service and zone from the shop's delivered shipments (enough deliveries only). */
export async function observedTransitTimes(ctx: Pick<Context, "db" | "shop">): Promise<TransitStats[]> {
  const delivered = await ctx.db.shipment.findMany({
    where: {
      shop: ctx.shop,
      trackingState: TrackingState.DELIVERED,
      inTransitAt: { not: null },
      deliveredAt: { not: null },
      carrierCode: { not: null },
      serviceCode: { not: null },
    },
    select: { carrierCode: true, serviceCode: true, zone: true, inTransitAt: true, deliveredAt: true },
    orderBy: { deliveredAt: "desc" },
    take: TRANSIT_SAMPLE_LIMIT,
  });
  return transitStats(
    delivered.map((row) => ({
      carrierCode: row.carrierCode!,
      serviceCode: row.serviceCode!,
      zone: row.zone,
      inTransitAt: row.inTransitAt!,
      deliveredAt: row.deliveredAt!,
    })),
  );
}

/** The shop's observed transit times as a lookup by rate (service and zone), for the rates page and the Fastest rule. */
export async function observedTransitLookup(ctx: Pick<Context, "db" | "shop">): Promise<ObservedTransit> {
  const byKey = new Map((await observedTransitTimes(ctx)).map((stats) => [transitKey(stats.carrierCode, stats.serviceCode, stats.zone), stats]));
  return (rate) => byKey.get(transitKey(rate.carrierCode, rate.serviceCode, rate.zone ?? null)) ?? null;
}
