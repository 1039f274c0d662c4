import type { Prisma } from "@prisma/client";
import type { Context } from "../context";
import type { Quote } from "../../shipping-api/contract";
import { pricedRateOf } from "./rate-fields";
import type { RateChoice } from "./rate-choice";

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

export interface ChosenShipment {
  shipmentId: string;
  choice: RateChoice;
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

/**
 * Writes shipments' rate choices: their quotes, picked rate and status, in transactions of a bounded size.
 * `quotedAt` is when the quotes were asked for (read from the clock before the request), not when they are saved.
 */
export async function saveRateChoices(ctx: Pick<Context, "db" | "shop">, chosen: readonly ChosenShipment[], quotedAt: Date): Promise<void> {
  const { db, shop } = ctx;
  for (let start = 0; start < chosen.length; start += SHIPMENTS_PER_TRANSACTION) {
    const slice = chosen.slice(start, start + SHIPMENTS_PER_TRANSACTION);
    await db.$transaction(async (tx) => {
      const replaced = slice.filter((item) => item.replace && item.choice.ok).map((item) => item.shipmentId);
      if (replaced.length > 0) await tx.quote.deleteMany({ where: { shop, shipmentId: { in: replaced } } });
      const rows = slice.flatMap((item) => (item.choice.ok ? quoteRows(shop, item.shipmentId, item.choice.quotes, quotedAt) : []));
      if (rows.length > 0) await tx.quote.createMany({ data: rows });
      for (const { shipmentId, choice, keepOnFailure, request } of slice) {
        await tx.shipment.update({
          where: { id: shipmentId },
          data: choice.ok
            ? {
                ...(request === undefined ? {} : { request }),
                quoteStatus: "QUOTED",
                quoteError: null,
                quotedAt,
                selectedQuoteId: choice.pick.quoteId,
                selectionReason: choice.pick.reason,
                selectedBy: choice.pick.selectedBy,
              }
            : {
                quoteError: choice.message,
                ...(keepOnFailure ? {} : { quoteStatus: "FAILED", selectedQuoteId: null, selectionReason: null, selectedBy: null }),
              },
        });
      }
    });
  }
}
