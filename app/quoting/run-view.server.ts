import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { Surcharge } from "../../shipping-api/contract";
import { loadSettings } from "../settings/account.server";
import { QuotingInputError } from "./errors";
import { compareAmounts, sumAmounts } from "./money";
import { orderLabel } from "./quote-run.server";
import { pricedRateOf, type PricedRate } from "./rate-fields";
import { observedTransitLookup } from "../tracking/tracking-views.server";
import { describeTransit, type TransitStats } from "../tracking/transit-times";
import { describeRule } from "./rate-rule";
import { isBooked } from "./selection.server";
import { carrierTotals, type CarrierTotal } from "./totals";

/**
 * What the rates page shows for one run: progress, then per order its shipments with every rate, the pick
 * and why, what blocks or failed and what to do, whole-run totals by carrier, and which shipments are ready
 * for a batch or need a re-quote. Orders are paged in the merchant's order; totals and the id lists cover
 * the whole run.
 */

export const ORDERS_PER_PAGE = 50;

const describeObserved = (stats: TransitStats | null) => (stats ? describeTransit(stats) : null);

export interface RateOption extends PricedRate {
  /** "usually 2–3 days (41 deliveries)" from the shop's own deliveries of this service to this zone, when enough. */
  observedTransit: string | null;
  surcharges: Surcharge[];
  expiresAt: string;
  expired: boolean;
}

export interface ShipmentView {
  id: string;
  fulfillmentOrderId: string;
  destination: string;
  country: string;
  weight: string;
  status: "PENDING" | "QUOTED" | "FAILED";
  /** Why quoting (or the last re-quote) failed, with what to do. */
  error: string | null;
  selectedQuoteId: number | null;
  selectionReason: string | null;
  selectedBy: "RULE" | "MERCHANT" | null;
  /** The picked rate expired: re-quote before booking. */
  selectedExpired: boolean;
  /** Why the rate cannot change here (in a batch, booked), or null. */
  locked: string | null;
  /** Quoted, picked, unexpired and free to go into a batch. */
  ready: boolean;
  /** Cheapest first. */
  options: RateOption[];
}

export interface OrderView {
  orderId: string;
  orderName: string;
  shipments: ShipmentView[];
  /** Why (part of) the order is not quoted (BlockIssue of quote-run.server.ts). */
  blocked: Array<{ code: string; message: string }>;
  /** Every shipment of this order was quoted again in a later run. */
  movedToLaterRun: boolean;
}

export interface QuoteRunView {
  run: {
    id: string;
    status: RunStatus;
    startedAt: string;
    finishedAt: string | null;
    shipmentsTotal: number;
    shipmentsDone: number;
    error: string | null;
    orderCount: number;
  };
  rule: string;
  counts: { quoted: number; failed: number; pending: number; blockedOrders: number; expired: number; ready: number };
  totals: CarrierTotal[];
  readyShipmentIds: string[];
  expiredShipmentIds: string[];
  failedShipmentIds: string[];
  page: number;
  pages: number;
  orders: OrderView[];
}

const StoredRequest = z.object({
  receiver: z.object({ city: z.string(), state: z.string().nullish(), country: z.string() }),
  weightUnit: z.string(),
  pieces: z.array(z.object({ weight: z.string() })).min(1),
});
const OrderIds = z.array(z.string());
const Issues = z.array(z.object({ code: z.string(), message: z.string() }));
const Surcharges = z.array(Surcharge);

function lockedReason(shipment: { bookingStatus: string; batch: { name: string } | null }): string | null {
  if (isBooked(shipment.bookingStatus)) return "Booked";
  return shipment.batch ? `In batch “${shipment.batch.name}”` : null;
}

export type RunStatus = "RUNNING" | "COMPLETED" | "FAILED";

function runStatus(value: string): RunStatus {
  return value === "COMPLETED" || value === "FAILED" ? value : "RUNNING";
}

function quoteStatus(value: string): ShipmentView["status"] {
  return value === "QUOTED" || value === "FAILED" ? value : "PENDING";
}

/**
 * Loads one page of a run; it only reads (a run a restart cut short is queued again at start-up).
 * Throws QuotingInputError 404 for a run that is not this shop's.
 */
export async function loadQuoteRunView(
  db: PrismaClient,
  shop: string,
  runId: string,
  { now = new Date(), page = 1 }: { now?: Date; page?: number } = {},
): Promise<QuoteRunView> {
  const run = await db.quoteRun.findFirst({ where: { id: runId, shop } });
  if (!run) throw new QuotingInputError(404, "runId", "No such quote run in this store.");

  const orderIds = OrderIds.parse(JSON.parse(run.orderIds));
  const pages = Math.max(1, Math.ceil(orderIds.length / ORDERS_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  const pageIds = orderIds.slice((current - 1) * ORDERS_PER_PAGE, current * ORDERS_PER_PAGE);

  const [settings, all, blockedCount, pageShipments, pageBlocked] = await Promise.all([
    loadSettings(db, shop),
    db.shipment.findMany({
      where: { runId },
      select: { id: true, quoteStatus: true, selectedQuoteId: true, bookingStatus: true, batch: { select: { name: true } } },
    }),
    db.blockedOrder.count({ where: { runId } }),
    db.shipment.findMany({
      where: { runId, orderId: { in: pageIds } },
      include: { quotes: true, batch: { select: { name: true } } },
      orderBy: { fulfillmentOrderId: "asc" },
    }),
    db.blockedOrder.findMany({ where: { runId, orderId: { in: pageIds } } }),
  ]);

  const selectedIds = all.flatMap((shipment) => (shipment.selectedQuoteId === null ? [] : [shipment.selectedQuoteId]));
  const selected = new Map(
    (
      await db.quote.findMany({
        where: { shop, quoteId: { in: selectedIds } },
        select: { quoteId: true, carrierCode: true, currency: true, totalAmount: true, expiresAt: true },
      })
    ).map((quote) => [quote.quoteId, quote]),
  );
  const pickOf = (shipment: { quoteStatus: string; selectedQuoteId: number | null }) =>
    shipment.quoteStatus === "QUOTED" && shipment.selectedQuoteId !== null ? selected.get(shipment.selectedQuoteId) : undefined;
  const expiredIds = all.filter((shipment) => {
    const pick = pickOf(shipment);
    return pick !== undefined && pick.expiresAt <= now && !lockedReason(shipment);
  });
  const ready = all.filter((shipment) => {
    const pick = pickOf(shipment);
    return pick !== undefined && pick.expiresAt > now && !lockedReason(shipment);
  });
  const failed = all.filter((shipment) => shipment.quoteStatus === "FAILED");

  const observed = await observedTransitLookup(db, shop);
  const shipmentViews = new Map<string, ShipmentView[]>();
  for (const shipment of pageShipments) {
    const request = StoredRequest.parse(JSON.parse(shipment.request));
    const receiver = request.receiver;
    const options = shipment.quotes
      .map(
        (quote): RateOption => ({
          ...pricedRateOf(quote),
          observedTransit: describeObserved(observed(quote)),
          surcharges: Surcharges.parse(JSON.parse(quote.surcharges)),
          expiresAt: quote.expiresAt.toISOString(),
          expired: quote.expiresAt <= now,
        }),
      )
      .sort((a, b) => compareAmounts(a.totalAmount, b.totalAmount) || a.quoteId - b.quoteId);
    const pick = options.find((option) => option.quoteId === shipment.selectedQuoteId);
    const locked = lockedReason(shipment);
    const view: ShipmentView = {
      id: shipment.id,
      fulfillmentOrderId: shipment.fulfillmentOrderId,
      destination: [receiver.city, receiver.state, receiver.country].filter(Boolean).join(", "),
      country: receiver.country,
      weight: `${sumAmounts(request.pieces.map((piece) => piece.weight))} ${request.weightUnit}`,
      status: quoteStatus(shipment.quoteStatus),
      error: shipment.quoteError,
      selectedQuoteId: pick ? pick.quoteId : null,
      selectionReason: pick ? shipment.selectionReason : null,
      selectedBy: pick ? (shipment.selectedBy === "MERCHANT" ? "MERCHANT" : "RULE") : null,
      selectedExpired: pick?.expired ?? false,
      locked,
      ready: shipment.quoteStatus === "QUOTED" && pick !== undefined && !pick.expired && locked === null,
      options,
    };
    shipmentViews.set(shipment.orderId, [...(shipmentViews.get(shipment.orderId) ?? []), view]);
  }
  const blockedByOrder = new Map(pageBlocked.map((row) => [row.orderId, row]));
  const orders = pageIds.map((orderId): OrderView => {
    const shipments = shipmentViews.get(orderId) ?? [];
    const blocked = blockedByOrder.get(orderId);
    return {
      orderId,
      orderName: blocked?.orderName ?? pageShipments.find((shipment) => shipment.orderId === orderId)?.orderName ?? orderLabel(orderId),
      shipments,
      blocked: blocked ? Issues.parse(JSON.parse(blocked.issues)) : [],
      movedToLaterRun: shipments.length === 0 && !blocked,
    };
  });

  return {
    run: {
      id: run.id,
      status: runStatus(run.status),
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      shipmentsTotal: run.shipmentsTotal,
      shipmentsDone: run.shipmentsDone,
      error: run.error,
      orderCount: orderIds.length,
    },
    rule: describeRule(settings.rateRule),
    counts: {
      quoted: all.filter((shipment) => shipment.quoteStatus === "QUOTED").length,
      failed: failed.length,
      pending: all.filter((shipment) => shipment.quoteStatus === "PENDING").length,
      blockedOrders: blockedCount,
      expired: expiredIds.length,
      ready: ready.length,
    },
    totals: carrierTotals(ready.map((shipment) => pickOf(shipment)!)),
    readyShipmentIds: ready.map((shipment) => shipment.id),
    expiredShipmentIds: expiredIds.map((shipment) => shipment.id),
    failedShipmentIds: failed.map((shipment) => shipment.id),
    page: current,
    pages,
    orders,
  };
}

export interface QuoteRunSummary {
  id: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  orderCount: number;
  shipments: number;
  blockedOrders: number;
}

/** The shop's latest runs, newest first. */
export async function listQuoteRuns(db: PrismaClient, shop: string, { limit = 25 }: { limit?: number } = {}): Promise<QuoteRunSummary[]> {
  const runs = await db.quoteRun.findMany({
    where: { shop },
    orderBy: { startedAt: "desc" },
    take: limit,
    include: { _count: { select: { shipments: true, blockedOrders: true } } },
  });
  return runs.map((run) => ({
    id: run.id,
    status: runStatus(run.status),
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    orderCount: OrderIds.parse(JSON.parse(run.orderIds)).length,
    shipments: run._count.shipments,
    blockedOrders: run._count.blockedOrders,
  }));
}
