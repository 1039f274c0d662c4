import type { Quote } from "../../shipping-api/contract";

/**
 * A shipment's rates as stored: the Shipping API's Quote objects in one JSON column of the shipment (`rates`),
 * all asked for at its `quotedAt` (docs/decisions/048). This module reads that column and makes its text (a quote run's
 * set-based write gives it the rates as JSON instead: app/quoting/quote-store.server.ts); a stored rate is the
 * service's Quote with when it was quoted and until when it can be booked.
 */

/**
 * The Shipping API keeps a quote bookable for 30 days from its creation. The app counts from the moment it
 * asked (its injected clock, taken before the request), so its expiry is never later than the service's.
 */
export const QUOTE_VALIDITY_MS = 30 * 24 * 60 * 60 * 1000;

export function quoteExpiry(quotedAt: Date): Date {
  return new Date(quotedAt.getTime() + QUOTE_VALIDITY_MS);
}

/** A rate the service offered for a shipment, with when it was quoted and until when it is bookable. */
export type StoredQuote = Quote & { quotedAt: Date; expiresAt: Date };

/** What a shipment's row holds of its rates. */
export interface RatesColumns {
  rates: string | null;
  quotedAt: Date | null;
}

/** The `rates` column for the quotes the service answered (those the shop has turned off already left out). */
export function ratesColumn(quotes: readonly Quote[]): string {
  return JSON.stringify(quotes);
}

/**
 * The `rates` column of a booked shipment: only the rate it was booked at. The others can no longer be bought for
 * it, and a booked shipment is kept and updated for weeks (its fulfillment, every tracking pass), so its row carries
 * one rate, not the nine it was offered (docs/decisions/048).
 */
export function bookedRates(quote: Quote | StoredQuote): string {
  // A stored rate's times follow from the shipment's quotedAt; only the service's Quote is written.
  const { quotedAt: _quotedAt, expiresAt: _expiresAt, ...wire } = quote as StoredQuote;
  return ratesColumn([wire]);
}

/**
 * Every stored rate of a shipment, in the order the service answered; none while it is not quoted (or quoted
 * again). The column is the app's own writing (ratesColumn), so it is read as written, not validated again.
 */
export function storedQuotes(shipment: RatesColumns): StoredQuote[] {
  if (shipment.rates === null || shipment.quotedAt === null) return [];
  const quotedAt = shipment.quotedAt;
  const expiresAt = quoteExpiry(quotedAt);
  return (JSON.parse(shipment.rates) as Quote[]).map((quote) => ({ ...quote, quotedAt, expiresAt }));
}

/** One stored rate of a shipment by the service's quote id, or undefined when the shipment holds no such rate. */
export function storedQuote(shipment: RatesColumns, quoteId: number | null): StoredQuote | undefined {
  return quoteId === null ? undefined : storedQuotes(shipment).find((quote) => quote.quoteId === quoteId);
}

/** The rate a shipment's pick names (`selectedQuoteId`), when it holds it. */
export function pickedQuote(shipment: RatesColumns & { selectedQuoteId: number | null }): StoredQuote | undefined {
  return storedQuote(shipment, shipment.selectedQuoteId);
}

/** The stored rates not expired at `now`. */
export function bookableQuotes(shipment: RatesColumns, now: Date): StoredQuote[] {
  return storedQuotes(shipment).filter((quote) => quote.expiresAt > now);
}
