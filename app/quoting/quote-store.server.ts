import type { Prisma, PrismaClient } from "@prisma/client";
import type { Quote } from "../../shipping-api/contract";
import { pricedRateOf } from "./rate-fields";
import type { Settlement } from "./settle";

/**
 * Storing quotes and the preselected rate on shipments, shared by quote runs and re-quotes. Each shipment's
 * new quotes and its selection are written in one transaction with its status, so a shipment never shows
 * a selection whose quote is not stored.
 */

/**
 * The Shipping API keeps a quote bookable for 30 days from its creation. The app counts from the moment it
 * asked (its injected clock, taken before the request), so its expiry is never later than the service's.
 */
export const QUOTE_VALIDITY_MS = 30 * 24 * 60 * 60 * 1000;

export function quoteExpiry(quotedAt: Date): Date {
  return new Date(quotedAt.getTime() + QUOTE_VALIDITY_MS);
}

/** Shipments per transaction: small enough for SQLite's bound-parameter limit with every quote row. */
const SHIPMENTS_PER_TRANSACTION = 100;

function quoteRows(shop: string, shipmentId: string, quotes: readonly Quote[], quotedAt: Date): Prisma.QuoteCreateManyInput[] {
  const expiresAt = quoteExpiry(quotedAt);
  return quotes.map((quote) => ({
    shop,
    shipmentId,
    ...pricedRateOf(quote),
    surcharges: JSON.stringify(quote.surcharges),
    createdAt: quotedAt,
    expiresAt,
  }));
}

export interface SettledShipment {
  shipmentId: string;
  settlement: Settlement;
  /**
   * A failed re-quote of a shipment that has rates keeps them (and its selection) and only records why;
   * a first quote that fails marks the shipment FAILED.
   */
  keepOnFailure: boolean;
  /** The shipment may already have quotes (a re-quote): they are replaced. */
  replace: boolean;
  /** The request as sent, when it changed (a re-quote is dated the day it is made). */
  request?: string;
}

/** Writes settled shipments: their quotes, selection and status, in transactions of a bounded size. */
export async function saveSettlements(db: PrismaClient, shop: string, settled: readonly SettledShipment[], quotedAt: Date): Promise<void> {
  for (let start = 0; start < settled.length; start += SHIPMENTS_PER_TRANSACTION) {
    const slice = settled.slice(start, start + SHIPMENTS_PER_TRANSACTION);
    await db.$transaction(async (tx) => {
      const replaced = slice.filter((item) => item.replace && item.settlement.ok).map((item) => item.shipmentId);
      if (replaced.length > 0) await tx.quote.deleteMany({ where: { shop, shipmentId: { in: replaced } } });
      const rows = slice.flatMap((item) => (item.settlement.ok ? quoteRows(shop, item.shipmentId, item.settlement.quotes, quotedAt) : []));
      if (rows.length > 0) await tx.quote.createMany({ data: rows });
      for (const { shipmentId, settlement, keepOnFailure, request } of slice) {
        await tx.shipment.update({
          where: { id: shipmentId },
          data: settlement.ok
            ? {
                ...(request === undefined ? {} : { request }),
                quoteStatus: "QUOTED",
                quoteError: null,
                quotedAt,
                selectedQuoteId: settlement.pick.quoteId,
                selectionReason: settlement.pick.reason,
                selectedBy: settlement.pick.selectedBy,
              }
            : {
                quoteError: settlement.error,
                ...(keepOnFailure ? {} : { quoteStatus: "FAILED", selectedQuoteId: null, selectionReason: null, selectedBy: null }),
              },
        });
      }
    });
  }
}
