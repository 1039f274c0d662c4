import type { Prisma } from "@prisma/client";
import { timeOrderedId } from "../db/ids";
import type { Context } from "../context";
import type { Quote } from "../../shipping-api/contract";
import { insertRows, updateRowsById, type Statements } from "../db/db-batch.server";
import { chunksOf, idChunks } from "../db/id-lists.server";
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

/** Shipments per transaction: a quote run's chunk (app/quoting/quote-run.server.ts) is one. */
const SHIPMENTS_PER_TRANSACTION = 100;

/** What differs by row of a shipment's stored quotes: every column but those {@link quoteRowsShared} gives them all. */
function ownQuoteRows(shipmentId: string, quotes: readonly Quote[]) {
  // The id too: the rows are inserted by a raw statement (insertRows), which has no Prisma defaults.
  return quotes.map((quote) => ({ id: timeOrderedId(), shipmentId, ...pricedRateOf(quote), surcharges: JSON.stringify(quote.surcharges) }));
}

/** The columns every quote stored at once has in common: its shop and when it was quoted and expires. */
function quoteRowsShared(shop: string, quotedAt: Date) {
  return { shop, createdAt: quotedAt, expiresAt: quoteExpiry(quotedAt) };
}

export function quoteRows(shop: string, shipmentId: string, quotes: readonly Quote[], quotedAt: Date): Array<Required<Prisma.QuoteCreateManyInput>> {
  const shared = quoteRowsShared(shop, quotedAt);
  return ownQuoteRows(shipmentId, quotes).map((row) => ({ ...row, ...shared }));
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
 * The statements that store shipments' rate choices, to commit in one transaction (a run's chunk of 100, a re-quote's
 * slice of {@link SHIPMENTS_PER_TRANSACTION}): their quotes, picked rate and status, a few set-based statements
 * whatever their number (each chunked to what the database binds): the replaced quotes deleted,
 * the new ones inserted, and the shipments updated by kind (quoted, failed, failed but keeping their rates), each
 * row to its own pick in one UPDATE per chunk. Made afresh on each call (a Prisma statement runs once), so a group
 * commit can run them again on their own. `quotedAt` is when the quotes were asked for (read from the clock before
 * the request), not when they are saved.
 */
export function rateChoiceStatements(ctx: Pick<Context, "db" | "shop">, slice: readonly ChosenShipment[], quotedAt: Date): Statements {
  const { db, shop } = ctx;
  const replaced = slice.filter((item) => item.replace && item.choice.ok).map((item) => item.shipmentId);
  const rows = slice.flatMap((item) => (item.choice.ok ? ownQuoteRows(item.shipmentId, item.choice.quotes) : []));
  const picks = slice.flatMap(({ shipmentId, choice, request }) =>
    choice.ok
      ? [{ id: shipmentId, request, selectedQuoteId: choice.pick.quoteId, selectionReason: choice.pick.reason, selectedBy: choice.pick.selectedBy }]
      : [],
  );
  const failures = (keepOnFailure: boolean) =>
    slice.flatMap((item) => (!item.choice.ok && item.keepOnFailure === keepOnFailure ? [{ id: item.shipmentId, quoteError: item.choice.message }] : []));
  const quoted = { quoteStatus: "QUOTED", quoteError: null, quotedAt };
  const pickColumns = ["selectedQuoteId", "selectionReason", "selectedBy"] as const;
  return () => [
    ...idChunks(ctx, replaced).map((ids) => db.quote.deleteMany({ where: { shop, shipmentId: { in: ids } } })),
    ...insertRows(ctx, "Quote", rows, { same: quoteRowsShared(shop, quotedAt) }),
    // A re-quote stores the request as sent (dated today); a run's requests are stored already.
    ...updateRowsById(ctx, { table: "Shipment", columns: pickColumns, rows: picks.filter((pick) => pick.request === undefined), set: quoted }),
    ...updateRowsById(ctx, {
      table: "Shipment",
      columns: [...pickColumns, "request"],
      rows: picks.filter((pick) => pick.request !== undefined),
      set: quoted,
    }),
    ...updateRowsById(ctx, {
      table: "Shipment",
      columns: ["quoteError"],
      rows: failures(false),
      set: { quoteStatus: "FAILED", selectedQuoteId: null, selectionReason: null, selectedBy: null },
    }),
    ...updateRowsById(ctx, { table: "Shipment", columns: ["quoteError"], rows: failures(true) }),
  ];
}

/**
 * Writes shipments' rate choices ({@link rateChoiceStatements}) in transactions of a bounded size, each shipment's
 * new quotes and selection with its status.
 */
export async function saveRateChoices(ctx: Pick<Context, "db" | "shop">, chosen: readonly ChosenShipment[], quotedAt: Date): Promise<void> {
  for (const slice of chunksOf(chosen, SHIPMENTS_PER_TRANSACTION)) await ctx.db.$transaction(rateChoiceStatements(ctx, slice, quotedAt)());
}
