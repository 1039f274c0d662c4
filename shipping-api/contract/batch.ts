import { z } from "zod";
import { BatchStatus, Currency, QuoteStatus } from "./enums";
import { Decimal, Id, NonEmptyString, Timestamp } from "./primitives";
import { MAX_BATCH_SIZE } from "./shipment";

/** Batches of saved quotes: records, requests and responses. */

const BatchName = NonEmptyString.max(255, "must be at most 255 characters");
const count = z.number().int().nonnegative();

export const Batch = z.object({
  batchId: Id,
  name: BatchName,
  status: BatchStatus,
  quoteCount: count,
  bookedCount: count,
  errorCount: count,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  processedAt: Timestamp.nullable(),
});
export type Batch = z.infer<typeof Batch>;

/** A quote as listed in Get Batch. */
export const BatchQuoteEntry = z.object({
  quoteId: Id,
  carrierCode: z.string(),
  serviceCode: z.string(),
  packageTypeCode: z.string(),
  totalAmount: Decimal,
  currency: Currency,
  status: QuoteStatus,
  bookNumber: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  bookingError: z.string().nullable(),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});
export type BatchQuoteEntry = z.infer<typeof BatchQuoteEntry>;

/** Get Batch: the batch and its quotes. */
export const BatchDetail = Batch.extend({
  quotes: z.array(BatchQuoteEntry),
});
export type BatchDetail = z.infer<typeof BatchDetail>;

const QuoteIds = z.array(Id).max(MAX_BATCH_SIZE, `must have at most ${MAX_BATCH_SIZE} quote ids`);

export const CreateBatchRequest = z.object({
  name: BatchName,
  quoteIds: QuoteIds.optional(),
});
export type CreateBatchRequest = z.infer<typeof CreateBatchRequest>;

/** Query of List Batches. Values arrive as strings in a URL, so they are coerced. */
export const ListBatchesQuery = z.object({
  page: z.coerce.number<string | number>().int().min(1, "must be at least 1").default(1),
  limit: z.coerce.number<string | number>().int().min(1, "must be between 1 and 100").max(100, "must be between 1 and 100").default(25),
});
export type ListBatchesQuery = z.infer<typeof ListBatchesQuery>;

export const ListBatchesResponse = z.object({
  batches: z.array(Batch),
  total: count,
  page: z.number().int().min(1),
  limit: z.number().int().min(1).max(100),
});
export type ListBatchesResponse = z.infer<typeof ListBatchesResponse>;

export const AddToBatchRequest = z.object({
  quoteIds: QuoteIds.min(1, "must have at least 1 quote id"),
});
export type AddToBatchRequest = z.infer<typeof AddToBatchRequest>;

export const BatchBookRequest = z.object({
  batchId: Id,
});
export type BatchBookRequest = z.infer<typeof BatchBookRequest>;

/** Outcome of booking one quote of the batch. */
export const BatchBookResult = z.discriminatedUnion("status", [
  z.object({
    quoteId: Id,
    status: z.literal("success"),
    bookNumber: NonEmptyString,
    trackingNumber: z.string(),
    lastMileTrackingNumber: z.string().optional(),
    totalShippingCost: Decimal,
    zone: z.string(),
  }),
  z.object({
    quoteId: Id,
    status: z.literal("error"),
    error: z.string(),
    errorCategory: z.string(),
  }),
]);
export type BatchBookResult = z.infer<typeof BatchBookResult>;

/** `labelsPdf` is empty when no label could be generated; `prepayBalance` only when something was booked. */
export const BatchBookResponse = z.object({
  results: z.array(BatchBookResult),
  labelsPdf: z.base64("must be base64"),
  prepayBalance: Decimal.optional(),
});
export type BatchBookResponse = z.infer<typeof BatchBookResponse>;

export const BatchLabelsResponse = z.object({
  labelsPdf: z.base64("must be base64").min(1, "must not be empty"),
});
export type BatchLabelsResponse = z.infer<typeof BatchLabelsResponse>;
