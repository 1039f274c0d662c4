import { BatchQuoteShipment } from "../../shipping-api/contract";
import type { Context } from "../context";
import { shipmentDateOf } from "../orders/shipment-mapping";
import type { Outcome } from "../outcome";
import { loadSettings } from "../settings/account.server";
import { saveRateChoices } from "./quote-store.server";
import { isBooked } from "./rate-pick.server";
import { loadRuleInputs } from "./rule-inputs.server";
import { chooseRate, type PreviousChoice, type SelectedBy } from "./rate-choice";
import { readByIds } from "../db/id-lists.server";
import { pickedQuote } from "../shipping/stored-rates";

/**
 * Re-quoting stored shipments: expired or failed rates on the rates page, and the batches step's "re-quote
 * and swap into the batch". Each shipment's stored request is quoted again (dated today), its quotes are
 * replaced, and the same carrier and service stay selected while they are offered; otherwise the rule
 * picks and its reason says the service is gone. A failed re-quote leaves the shipment's rates as they were
 * and records why. Nothing is booked or sent to a batch here: callers act on the outcomes. The quotes are
 * dated `ctx.now()`, read before they are asked for; the Shipping API gateway is opened only when a shipment
 * is to be quoted.
 */

/** Per shipment: its new pick (`reason`: why it was picked), or why it could not be quoted again. */
export type RequoteOutcome = Outcome<
  { shipmentId: string; oldQuoteId: number | null; newQuoteId: number; sameService: boolean; reason: string },
  { shipmentId: string; oldQuoteId: number | null }
>;

export async function requoteShipments(ctx: Context, shipmentIds: readonly string[]): Promise<RequoteOutcome[]> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const ids = [...new Set(shipmentIds)];
  const shipments = await readByIds(ctx, ids, (chunk) =>
    db.shipment.findMany({
      where: { shop, id: { in: chunk } },
      select: {
        id: true,
        orderId: true,
        request: true,
        quoteStatus: true,
        bookingStatus: true,
        rates: true,
        quotedAt: true,
        selectedQuoteId: true,
        selectedBy: true,
      },
    }),
  );
  const byId = new Map(shipments.map((shipment) => [shipment.id, shipment]));

  const outcomes = new Map<string, RequoteOutcome>();
  const toQuote: Array<{ id: string; request: BatchQuoteShipment; previous: PreviousChoice | null; hadRates: boolean }> = [];
  for (const id of ids) {
    const shipment = byId.get(id);
    if (!shipment) {
      outcomes.set(id, { shipmentId: id, ok: false, oldQuoteId: null, message: "No such shipment in this store." });
      continue;
    }
    const oldQuoteId = shipment.selectedQuoteId;
    if (isBooked(shipment.bookingStatus)) {
      outcomes.set(id, { shipmentId: id, ok: false, oldQuoteId, message: "Already booked: its label exists, so its rate can no longer change." });
      continue;
    }
    const parsed = BatchQuoteShipment.safeParse(JSON.parse(shipment.request));
    if (!parsed.success) {
      outcomes.set(id, {
        shipmentId: id,
        ok: false,
        oldQuoteId,
        message: "Its stored quote request is no longer valid. Quote the order again from Orders to ship.",
      });
      continue;
    }
    const selected = pickedQuote(shipment);
    const selectedBy: SelectedBy = shipment.selectedBy === "MERCHANT" ? "MERCHANT" : "RULE";
    const previous: PreviousChoice | null = selected
      ? { carrierCode: selected.carrierCode, serviceCode: selected.serviceCode, serviceDescription: selected.serviceDescription, selectedBy }
      : null;
    // A re-quote is for shipping now: the stored date may be weeks old.
    toQuote.push({ id, request: { ...parsed.data, shipmentDate: shipmentDateOf(now) }, previous, hadRates: shipment.quoteStatus === "QUOTED" });
  }

  if (toQuote.length > 0) {
    const [client, settings] = await Promise.all([ctx.shipping(), loadSettings(ctx)]);
    const results = await client.quoteShipments(toQuote.map((entry) => entry.request));
    const orderOf = (entry: (typeof toQuote)[number]) => byId.get(entry.id)!.orderId;
    const inputsFor = await loadRuleInputs(ctx, settings.rateRule, toQuote.map(orderOf));
    const chosen = toQuote.map((entry, index) => ({ entry, choice: chooseRate(results[index]!, settings, entry.previous, inputsFor(orderOf(entry))) }));
    await saveRateChoices(
      ctx,
      chosen.map(({ entry, choice }) => ({
        shipmentId: entry.id,
        choice,
        keepOnFailure: entry.hadRates,
        request: JSON.stringify(entry.request),
      })),
      now,
    );
    for (const { entry, choice } of chosen) {
      const oldQuoteId = byId.get(entry.id)!.selectedQuoteId;
      if (!choice.ok) {
        outcomes.set(entry.id, { shipmentId: entry.id, ok: false, oldQuoteId, message: choice.message });
        continue;
      }
      const picked = choice.quotes.find((quote) => quote.quoteId === choice.pick.quoteId)!;
      const sameService = entry.previous !== null && picked.carrierCode === entry.previous.carrierCode && picked.serviceCode === entry.previous.serviceCode;
      outcomes.set(entry.id, { shipmentId: entry.id, ok: true, oldQuoteId, newQuoteId: picked.quoteId, sameService, reason: choice.pick.reason });
    }
  }
  return ids.map((id) => outcomes.get(id)!);
}
