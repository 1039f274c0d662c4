import type { Context } from "../context";
import { preparedUpdate, type Statements } from "../db/db-batch.server";
import { chunksOf } from "../db/id-lists.server";
import type { RateChoice } from "./rate-choice";

/**
 * Storing quotes and the preselected rate on shipments, shared by quote runs and re-quotes. Each shipment's
 * new rates (its `rates` column, app/shipping/stored-rates.ts) and its selection are written in one UPDATE with its
 * status, so a shipment never shows a selection whose quote is not stored.
 */

/** Shipments per transaction: a quote run's chunk (app/quoting/quote-run.server.ts) is one. */
const SHIPMENTS_PER_TRANSACTION = 100;

export interface ChosenShipment {
  shipmentId: string;
  choice: RateChoice;
  /**
   * A failed re-quote of a shipment that has rates keeps them (and its selection) and only records why;
   * a first quote that fails marks the shipment FAILED.
   */
  keepOnFailure: boolean;
  /** The request as sent, when it changed (a re-quote is dated the day it is made). */
  request?: string;
}

/**
 * The statements that store shipments' rate choices, to commit in one transaction (a run's chunk of 100, a re-quote's
 * slice of {@link SHIPMENTS_PER_TRANSACTION}): their rates, picked rate and status, a few set-based statements
 * whatever their number (each chunked to what the database binds): the shipments updated by kind (quoted, failed,
 * failed but keeping their rates), each row to its own rates and pick in one UPDATE per chunk. Made afresh on each
 * call (a Prisma statement runs once), so a group commit can run them again on their own. `quotedAt` is when the
 * quotes were asked for (read from the clock before the request), not when they are saved.
 */
export function rateChoiceStatements(ctx: Pick<Context, "db" | "shop">, slice: readonly ChosenShipment[], quotedAt: Date): Statements {
  // Packed now, in a function of their own: the rates read from the service (a chunk's hundreds of objects) are let
  // go before the commit, which may wait for another; only the packed texts wait with it.
  const updates = rateChoiceUpdates(ctx, slice, quotedAt);
  return () => updates.flatMap((update) => update());
}

function rateChoiceUpdates(ctx: Pick<Context, "db" | "shop">, slice: readonly ChosenShipment[], quotedAt: Date) {
  const picks = slice.flatMap(({ shipmentId, choice, request }) =>
    choice.ok
      ? [
          {
            id: shipmentId,
            request,
            // Given as JSON, not as its text: the database stores the array's text (updateRowsById), so the rates are
            // serialised once, not escaped again inside the statement's JSON.
            rates: choice.quotes,
            selectedQuoteId: choice.pick.quoteId,
            selectionReason: choice.pick.reason,
            selectedBy: choice.pick.selectedBy,
          },
        ]
      : [],
  );
  const failures = (keepOnFailure: boolean) =>
    slice.flatMap((item) => (!item.choice.ok && item.keepOnFailure === keepOnFailure ? [{ id: item.shipmentId, quoteError: item.choice.message }] : []));
  const quoted = { quoteStatus: "QUOTED", quoteError: null, quotedAt };
  const pickColumns = ["rates", "selectedQuoteId", "selectionReason", "selectedBy"] as const;
  return [
    // A re-quote stores the request as sent (dated today); a run's requests are stored already.
    preparedUpdate(ctx, { table: "Shipment", columns: pickColumns, rows: picks.filter((pick) => pick.request === undefined), set: quoted }),
    preparedUpdate(ctx, {
      table: "Shipment",
      columns: [...pickColumns, "request"],
      rows: picks.filter((pick) => pick.request !== undefined),
      set: quoted,
    }),
    preparedUpdate(ctx, {
      table: "Shipment",
      columns: ["quoteError"],
      rows: failures(false),
      set: { quoteStatus: "FAILED", rates: null, selectedQuoteId: null, selectionReason: null, selectedBy: null },
    }),
    preparedUpdate(ctx, { table: "Shipment", columns: ["quoteError"], rows: failures(true) }),
  ];
}

/**
 * Writes shipments' rate choices ({@link rateChoiceStatements}) in transactions of a bounded size, each shipment's
 * new quotes and selection with its status.
 */
export async function saveRateChoices(ctx: Pick<Context, "db" | "shop">, chosen: readonly ChosenShipment[], quotedAt: Date): Promise<void> {
  for (const slice of chunksOf(chosen, SHIPMENTS_PER_TRANSACTION)) await ctx.db.$transaction(rateChoiceStatements(ctx, slice, quotedAt)());
}
