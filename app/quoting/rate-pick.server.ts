import type { Context } from "../context";
import { loadSettings } from "../settings/account.server";
import { QuotingInputError } from "./errors";
import { loadRuleInputs } from "./rule-inputs.server";
import { pickRateByRules } from "./shipping-rules";
import { bookableQuotes, storedQuote } from "../shipping/stored-rates";

/**
 * Changing which rate a shipment ships with: the merchant's own pick, or the shop's rule applied again to a
 * whole run. A shipment in a batch or booked keeps its rate: the batch holds that quote at the service.
 */

const CHOSEN_BY_YOU = "Chosen by you";

/** A label is booked for the shipment, or its booking is under way: its rate can no longer change. */
export function isBooked(bookingStatus: string): boolean {
  return bookingStatus === "BOOKING" || bookingStatus === "BOOKED";
}

function lockedReason(shipment: { batchId: string | null; bookingStatus: string }): string | null {
  if (isBooked(shipment.bookingStatus)) return "It is already booked; its rate can no longer change.";
  if (shipment.batchId !== null) return "It is in a batch; remove it from the batch to change its rate.";
  return null;
}

/** The merchant picks one of the shipment's own, unexpired rates (unexpired at `ctx.now()`). */
export async function selectRate(
  ctx: Pick<Context, "db" | "shop" | "now">,
  shipmentId: string,
  quoteId: number,
): Promise<{ shipmentId: string; quoteId: number }> {
  const { db, shop } = ctx;
  const shipment = await db.shipment.findFirst({
    where: { id: shipmentId, shop },
    select: { id: true, batchId: true, bookingStatus: true, quoteStatus: true, rates: true, quotedAt: true },
  });
  if (!shipment) throw new QuotingInputError(404, "shipmentId", "No such shipment in this store.");
  if (shipment.quoteStatus === "PENDING") throw new QuotingInputError(409, "shipmentId", "It is being quoted; pick a rate when its new rates arrive.");
  const locked = lockedReason(shipment);
  if (locked) throw new QuotingInputError(409, "shipmentId", locked);
  const quote = storedQuote(shipment, quoteId);
  if (!quote) throw new QuotingInputError(400, "quoteId", `Rate ${quoteId} is not one of this shipment's rates.`);
  if (quote.expiresAt <= ctx.now()) throw new QuotingInputError(409, "quoteId", "This rate has expired. Re-quote the order to get current rates.");
  await db.shipment.update({ where: { id: shipmentId }, data: { selectedQuoteId: quoteId, selectionReason: CHOSEN_BY_YOU, selectedBy: "MERCHANT" } });
  return { shipmentId, quoteId };
}

export interface RuleApplied {
  /** Shipments whose pick changed or was confirmed by the rule. */
  applied: number;
  /** The merchant's own picks left as they were. */
  keptManual: number;
  /** Shipments in a batch or booked, left alone. */
  locked: number;
  /** Shipments without an unexpired rate to pick from: they need a re-quote. */
  needRequote: number;
}

/**
 * Applies the shop's current rule to every quoted shipment of a run, among its rates unexpired at `ctx.now()`. The
 * merchant's own picks are kept unless `overrideManual`.
 */
export async function applyRule(ctx: Context, runId: string, { overrideManual = false }: { overrideManual?: boolean } = {}): Promise<RuleApplied> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const run = await db.quoteRun.findFirst({ where: { id: runId, shop }, select: { id: true } });
  if (!run) throw new QuotingInputError(404, "runId", "No such quote run in this store.");
  const { rateRule } = await loadSettings(ctx);
  const shipments = await db.shipment.findMany({
    where: { shop, runId, quoteStatus: "QUOTED" },
    select: { id: true, orderId: true, batchId: true, bookingStatus: true, selectedBy: true, rates: true, quotedAt: true },
  });
  const inputsFor = await loadRuleInputs(
    ctx,
    rateRule,
    shipments.map((shipment) => shipment.orderId),
  );
  const result: RuleApplied = { applied: 0, keptManual: 0, locked: 0, needRequote: 0 };
  const updates = [];
  for (const shipment of shipments) {
    if (lockedReason(shipment)) {
      result.locked += 1;
      continue;
    }
    if (shipment.selectedBy === "MERCHANT" && !overrideManual) {
      result.keptManual += 1;
      continue;
    }
    const inputs = inputsFor(shipment.orderId);
    const pick = pickRateByRules(bookableQuotes(shipment, now), inputs.rules ?? [], inputs.facts ?? null, rateRule, inputs);
    if (!pick) {
      result.needRequote += 1;
      continue;
    }
    result.applied += 1;
    updates.push(db.shipment.update({ where: { id: shipment.id }, data: { selectedQuoteId: pick.quoteId, selectionReason: pick.reason, selectedBy: "RULE" } }));
  }
  await db.$transaction(updates);
  return result;
}
