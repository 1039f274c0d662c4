import type { Shipment } from "@prisma/client";
import { MAX_BATCH_SIZE, type BatchDetail } from "../../shipping-api/contract";
import { rateOf, type Rate } from "../quoting/rate-fields";
import { parseServiceTimestamp, type ShippingContext } from "../shipping/context.server";
import { checkBatchable, type BatchGuard, type Refusal, type ShipmentForBatch } from "./eligibility";
import { compareMembership, type MembershipView, type RemoteQuote } from "./membership";
import { readByIds } from "../db/id-lists.server";
import { keptShopTimeZone } from "../settings/shop-time-zone.server";
import { pickedQuote, storedQuotes } from "../shipping/stored-rates";

/** Reads shared by batch management and booking: batch rows, their members, the guard, the service's view. */

export type BatchStatus = "CREATING" | "OPEN" | "BOOKING" | "COMPLETED" | "FAILED" | "CANCELLED";

/**
 * Batches that hold their orders' rates on the service: an order in one is not put in another. A cancelled
 * batch keeps its quotes assigned (the service's state machine) until it is deleted.
 */
export const HOLDING_BATCH_STATUSES: readonly BatchStatus[] = ["CREATING", "OPEN", "BOOKING", "CANCELLED"];

/** Background-work key of a batch: creation and booking of one batch never overlap in this process. */
export class BatchNotFoundError extends Error {
  override name = "BatchNotFoundError";
  constructor(readonly batchId: string) {
    super(`There is no batch ${batchId} in this shop. It may have been deleted.`);
  }
}

export type ShipmentWithQuote = Shipment & { selectedQuote: QuoteSummary | null };

export interface QuoteSummary extends Rate {
  zone: string;
  expiresAt: Date;
}

/** Shipments with their picked rate, from their own stored rates. */
export function withSelectedQuotes(shipments: readonly Shipment[]): ShipmentWithQuote[] {
  return shipments.map((shipment) => {
    const quote = pickedQuote(shipment);
    return { ...shipment, selectedQuote: quote ? { ...rateOf(quote), zone: quote.zone, expiresAt: quote.expiresAt } : null };
  });
}

function forBatch(shipment: ShipmentWithQuote): ShipmentForBatch {
  return {
    id: shipment.id,
    orderName: shipment.orderName,
    fulfillmentOrderId: shipment.fulfillmentOrderId,
    quoteStatus: shipment.quoteStatus,
    selectedQuoteId: shipment.selectedQuoteId,
    selectedQuoteExpiresAt: shipment.selectedQuote?.expiresAt ?? null,
  };
}

/** The shipments in a batch, in the order they were added. */
export async function batchMembers(ctx: ShippingContext, batchId: string): Promise<ShipmentWithQuote[]> {
  const shipments = await ctx.db.shipment.findMany({ where: { shop: ctx.shop, batchId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return withSelectedQuotes(shipments);
}

/**
 * What the guard needs to know about these fulfillment orders: which have a label or a booking in
 * progress, and which sit in an active batch (other than `exceptBatchId`), across every quote run.
 */
export async function batchGuard(ctx: ShippingContext, fulfillmentOrderIds: readonly string[], exceptBatchId?: string): Promise<BatchGuard> {
  const ids = [...new Set(fulfillmentOrderIds)];
  const [labelled, batched, timeZone] = await Promise.all([
    readByIds(ctx, ids, (chunk) =>
      ctx.db.shipment.findMany({
        where: { shop: ctx.shop, fulfillmentOrderId: { in: chunk }, bookingStatus: { in: ["BOOKED", "BOOKING"] } },
        select: { fulfillmentOrderId: true, bookingStatus: true, trackingNumber: true },
      }),
    ),
    readByIds(ctx, ids, (chunk) =>
      ctx.db.shipment.findMany({
        where: {
          shop: ctx.shop,
          fulfillmentOrderId: { in: chunk },
          batch: { status: { in: [...HOLDING_BATCH_STATUSES] }, ...(exceptBatchId ? { id: { not: exceptBatchId } } : {}) },
        },
        select: { fulfillmentOrderId: true, batch: { select: { id: true, name: true, status: true } } },
      }),
    ),
    keptShopTimeZone(ctx),
  ]);
  return {
    now: ctx.now(),
    timeZone,
    // BOOKED wins over BOOKING when an order has both (a label exists).
    labelled: new Map(
      labelled
        .sort((a, b) => (a.bookingStatus === "BOOKED" ? 1 : 0) - (b.bookingStatus === "BOOKED" ? 1 : 0))
        .map((row) => [row.fulfillmentOrderId, { bookingStatus: row.bookingStatus, trackingNumber: row.trackingNumber }]),
    ),
    batched: new Map(
      batched.flatMap((row) =>
        row.batch ? [[row.fulfillmentOrderId, { batchId: row.batch.id, batchName: row.batch.name, cancelled: row.batch.status === "CANCELLED" }] as const] : [],
      ),
    ),
  };
}

/** Which of these shipments may go into a batch now (in the given order), and why not the others. */
export async function batchableShipments(
  ctx: ShippingContext,
  shipments: readonly ShipmentWithQuote[],
): Promise<{ accepted: ShipmentForBatch[]; refused: Refusal[] }> {
  return checkBatchable(
    shipments.map(forBatch),
    await batchGuard(
      ctx,
      shipments.map((shipment) => shipment.fulfillmentOrderId),
    ),
  );
}

function remoteQuotes(detail: BatchDetail): RemoteQuote[] {
  return detail.quotes.map((quote) => ({ quoteId: quote.quoteId, status: quote.status, expiresAt: parseServiceTimestamp(quote.expiresAt) }));
}

/**
 * The member each of its stored rates belongs to, by quote id: a rate of a member in the batch that is not its pick
 * was superseded (re-picked); a rate of an earlier request (re-quoted) is no member's any more.
 */
function quoteOwners(members: readonly Shipment[]): Map<number, string> {
  return new Map(members.flatMap((member) => storedQuotes(member).map((quote) => [quote.quoteId, member.id] as const)));
}

/**
 * Shipments whose picked rate the service has in this open batch but Consign does not count as members
 * (the answer to Add to Batch was lost) become members, unless they are booked or in another active batch.
 */
export async function adoptRemoteMembers(ctx: ShippingContext, batchId: string, detail: BatchDetail): Promise<void> {
  const ids = detail.quotes.map((quote) => quote.quoteId);
  if (ids.length === 0) return;
  await ctx.db.shipment.updateMany({
    where: {
      shop: ctx.shop,
      selectedQuoteId: { in: ids },
      bookingStatus: { in: ["NONE", "FAILED"] },
      OR: [{ batchId: null }, { batch: { status: { notIn: [...HOLDING_BATCH_STATUSES] } } }],
    },
    data: { batchId, bookingStatus: "NONE", bookingError: null },
  });
}

export function membershipView(ctx: ShippingContext, members: readonly ShipmentWithQuote[], detail: BatchDetail): MembershipView {
  const owners = quoteOwners(members);
  return compareMembership(
    remoteQuotes(detail),
    members.map((member) => ({
      shipmentId: member.id,
      selectedQuoteId: member.selectedQuoteId,
      selectedQuoteExpiresAt: member.selectedQuote?.expiresAt ?? null,
    })),
    owners,
    ctx.now(),
  );
}

export interface BatchCandidate {
  shipmentId: string;
  orderId: string;
  orderName: string;
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string;
  totalAmount: string;
  currency: string;
  expiresAt: string | null;
}

/**
 * Picked, unbatched, unbooked shipments that can go into a batch, newest first: the "new batch" and "add
 * orders" lists (`shipmentIds`: only these, as the rates page preselects them).
 */
export async function batchCandidates(ctx: ShippingContext, options: { limit?: number; shipmentIds?: readonly string[] } = {}): Promise<BatchCandidate[]> {
  const rows = await ctx.db.shipment.findMany({
    where: {
      shop: ctx.shop,
      ...(options.shipmentIds ? { id: { in: [...options.shipmentIds] } } : {}),
      quoteStatus: "QUOTED",
      selectedQuoteId: { not: null },
      bookingStatus: { in: ["NONE", "FAILED"] },
      OR: [{ batchId: null }, { batch: { status: { notIn: [...HOLDING_BATCH_STATUSES] } } }],
    },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: options.limit ?? MAX_BATCH_SIZE,
  });
  const shipments = withSelectedQuotes(rows);
  const { accepted } = await batchableShipments(ctx, shipments);
  const ok = new Set(accepted.map((shipment) => shipment.id));
  return shipments
    .filter((shipment) => ok.has(shipment.id))
    .map((shipment): BatchCandidate => ({
      shipmentId: shipment.id,
      orderId: shipment.orderId,
      orderName: shipment.orderName,
      carrierCode: shipment.selectedQuote?.carrierCode ?? "",
      serviceCode: shipment.selectedQuote?.serviceCode ?? "",
      serviceDescription: shipment.selectedQuote?.serviceDescription ?? "",
      totalAmount: shipment.selectedQuote?.totalAmount ?? "",
      currency: shipment.selectedQuote?.currency ?? "",
      expiresAt: shipment.selectedQuote?.expiresAt.toISOString() ?? null,
    }));
}
