import { type BatchQuoteResponse, type BatchQuoteResult, BatchQuoteShipment, type Quote, formatIssues } from "../../shipping-api/contract";
import { DAY_MS } from "../clock";
import { ServiceError } from "../errors";
import { formatCents } from "../money";
import { type RatedQuote, rateShipment } from "../rating";
import { type DomainContext, QUOTE_VALIDITY_DAYS } from "./context";
import { carrierOfProviderAccount } from "./provider-accounts";

/** What a saved quote keeps besides its columns: everything the wire Quote shows, plus transit days. */
export interface QuoteDetail {
  serviceDescription: string;
  baseCents: number;
  surcharges: { description: string; amountCents: number }[];
  zone: string;
  quotedWeight: string;
  quotedWeightType: "Actual" | "Dimensional";
  transitDays: number;
}

export function quoteToWire(id: number, quote: RatedQuote): Quote {
  return {
    quoteId: id,
    carrierCode: quote.carrierCode,
    serviceCode: quote.serviceCode,
    serviceDescription: quote.serviceDescription,
    packageTypeCode: quote.packageTypeCode,
    currency: quote.currency,
    totalAmount: formatCents(quote.totalCents),
    baseAmount: formatCents(quote.baseCents),
    zone: quote.zone,
    quotedWeight: quote.quotedWeight,
    quotedWeightType: quote.quotedWeightType,
    surcharges: quote.surcharges.map((charge) => ({ description: charge.description, amount: formatCents(charge.amountCents) })),
  };
}

type ShipmentRating = ReturnType<typeof rateShipment> | { status: "error"; error: string; errorCategory: ServiceError["category"] };

/**
 * Batch Quote: each shipment checked against the contract and rated independently (rule 1: a shipment that
 * fails validation is its own `status: "error"` naming the field, the others are quoted), every successful
 * quote saved (with the shipment and its line items, which booking reads back) in one transaction, results
 * in input order.
 */
export function batchQuote(ctx: DomainContext, customerId: string, shipments: readonly unknown[]): BatchQuoteResponse {
  const now = ctx.clock.now();
  const createdAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + QUOTE_VALIDITY_DAYS * DAY_MS).toISOString();
  const providerCarriers = new Map<string, string | ServiceError>();
  const carrierOf = (id: string) => {
    let carrier = providerCarriers.get(id);
    if (carrier === undefined) {
      try {
        carrier = carrierOfProviderAccount(ctx, customerId, id);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        carrier = error;
      }
      providerCarriers.set(id, carrier);
    }
    return carrier;
  };

  const parsed = shipments.map((shipment) => BatchQuoteShipment.safeParse(shipment));
  const rated = parsed.map((parsedShipment): ShipmentRating => {
    if (!parsedShipment.success) return { status: "error", error: formatIssues(parsedShipment.error), errorCategory: "INVALID_REQUEST" };
    const shipment = parsedShipment.data;
    const onlyCarrier = shipment.providerAccountId ? carrierOf(shipment.providerAccountId) : undefined;
    if (onlyCarrier instanceof ServiceError) return { status: "error", error: onlyCarrier.message, errorCategory: onlyCarrier.category };
    return rateShipment(ctx.catalog, shipment, { onlyCarrierCode: onlyCarrier });
  });

  const insertRequest = ctx.store.statement(`INSERT INTO QuoteRequest (customerId, shipment, createdAt) VALUES (?, ?, ?)`);
  return ctx.store.transaction(() => ({
    results: rated.map((result, shipmentIndex): BatchQuoteResult => {
      if (result.status === "error") return { shipmentIndex, status: "error", error: result.error, errorCategory: result.errorCategory };
      const shipment = parsed[shipmentIndex]!.data;
      const requestId = insertRequest.run(customerId, JSON.stringify(shipment), createdAt).lastInsertRowid;
      const ids = insertQuotes(ctx, customerId, Number(requestId), result.quotes, createdAt, expiresAt);
      const quotes = result.quotes.map((quote, index) => quoteToWire(ids[index]!, quote));
      return { shipmentIndex, status: "success", quotes, quoteErrors: result.quoteErrors };
    }),
  }));
}

const QUOTE_COLUMNS = "(customerId, requestId, carrierCode, serviceCode, packageTypeCode, currency, totalCents, detail, status, createdAt, expiresAt)";
const QUOTE_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)";

/**
 * Saves one shipment's quotes with a single multi-row INSERT … RETURNING id (one statement instead of
 * one per service: the single-shipment quote is the hot path). Ids come back in insertion order.
 */
function insertQuotes(
  ctx: DomainContext,
  customerId: string,
  requestId: number,
  quotes: readonly RatedQuote[],
  createdAt: string,
  expiresAt: string,
): number[] {
  if (quotes.length === 0) return [];
  const statement = ctx.store.statement(`INSERT INTO Quote ${QUOTE_COLUMNS} VALUES ${Array(quotes.length).fill(QUOTE_ROW).join(", ")} RETURNING id`);
  const values: unknown[] = [];
  for (const quote of quotes) {
    const detail: QuoteDetail = {
      serviceDescription: quote.serviceDescription,
      baseCents: quote.baseCents,
      surcharges: quote.surcharges,
      zone: quote.zone,
      quotedWeight: quote.quotedWeight,
      quotedWeightType: quote.quotedWeightType,
      transitDays: quote.transitDays,
    };
    values.push(
      customerId,
      requestId,
      quote.carrierCode,
      quote.serviceCode,
      quote.packageTypeCode,
      quote.currency,
      quote.totalCents,
      JSON.stringify(detail),
      createdAt,
      expiresAt,
    );
  }
  const rows = statement.all(...values) as { id: number }[];
  // RETURNING order is the insertion order for a single-table INSERT in SQLite; sort to be explicit.
  return rows.map((row) => row.id).sort((a, b) => a - b);
}
