import { z } from "zod";
import { Currency, QuotedWeightType } from "./enums";
import { Decimal, Id, NonEmptyString } from "./primitives";

/** Batch Quote response shapes. */

export const Surcharge = z.object({
  description: z.string(),
  amount: Decimal,
});
export type Surcharge = z.infer<typeof Surcharge>;

export const Quote = z.object({
  quoteId: Id,
  carrierCode: NonEmptyString,
  serviceCode: NonEmptyString,
  serviceDescription: z.string(),
  packageTypeCode: z.string(),
  currency: Currency,
  totalAmount: Decimal,
  baseAmount: Decimal,
  zone: z.string(),
  quotedWeight: z.string(),
  quotedWeightType: QuotedWeightType,
  surcharges: z.array(Surcharge),
});
export type Quote = z.infer<typeof Quote>;

/** A service that could not be quoted for an otherwise processed shipment. */
export const QuoteError = z.object({
  carrierCode: z.string(),
  serviceCode: z.string(),
  serviceDescription: z.string(),
  packageTypeCode: z.string(),
  error: z.string(),
  errorCategory: z.string(),
});
export type QuoteError = z.infer<typeof QuoteError>;

const shipmentIndex = z.number().int().nonnegative();

/** Outcome for one input shipment: processed (`success`) or not quoted at all (`error`). */
export const BatchQuoteResult = z.discriminatedUnion("status", [
  z.object({
    shipmentIndex,
    status: z.literal("success"),
    quotes: z.array(Quote),
    quoteErrors: z.array(QuoteError),
  }),
  z.object({
    shipmentIndex,
    status: z.literal("error"),
    error: z.string(),
    errorCategory: z.string(),
  }),
]);
export type BatchQuoteResult = z.infer<typeof BatchQuoteResult>;

/** One result per input shipment, in input order (HTTP 200 even when shipments fail). */
export const BatchQuoteResponse = z.object({
  results: z.array(BatchQuoteResult),
});
export type BatchQuoteResponse = z.infer<typeof BatchQuoteResponse>;
