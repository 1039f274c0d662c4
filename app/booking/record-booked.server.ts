import type { BookShipmentResponse, Quote } from "../../shipping-api/contract";
import { queueOrderSignals } from "../signals/order-signals-job";
import { queueWriteBack } from "../fulfillment/write-back.server";
import type { ShippingContext } from "../shipping/context.server";
import { storedTrackingNumbers } from "../shipping/tracking-numbers";
import { updateRowsById } from "../db/db-batch.server";
import { bookedRates } from "../shipping/stored-rates";

/** What a booking leaves on its shipment, from Book Shipment, Batch Book or a booking read back. */
export interface BookedFields {
  bookNumber: string;
  trackingNumber: string;
  /**
   * Every piece's number when the answer gives them (Book Shipment's `pieces`, Search Shipments'
   * `trackingNumbers`); null when it does not (Batch Book), and a multi-piece shipment's are read before its
   * fulfillment is written (app/search/piece-numbers.server.ts).
   */
  trackingNumbers: readonly string[] | null;
  carrierCode: string | null;
  serviceCode: string | null;
  currency: string | null;
  zone: string | null;
  shippingCost: string | null;
  /** A scan-based return label read back after its first scan: when it was charged (app/shipping/scan-charge.ts). */
  chargedAt?: Date | null;
  /** The rate it was booked at, which becomes its pick and its only stored rate (`bookedRates`); undefined when not known. */
  selectedQuoteId?: number;
  rates?: string;
}

/**
 * BOOKED and queued for fulfillment write-back in one write; never over a booking already recorded, so a
 * booking read twice (a reconcile racing a late answer) is recorded once. Returned unawaited so a batch's
 * results can go in one transaction; the caller sends the jobs that follow a booking once it is written (`afterBooked`).
 */
export function recordBooked(ctx: ShippingContext, shipmentId: string, fields: BookedFields) {
  return ctx.db.shipment.updateMany({
    where: { id: shipmentId, bookingStatus: { not: "BOOKED" } },
    data: {
      ...fields,
      trackingNumbers: fields.trackingNumbers ? storedTrackingNumbers(fields.trackingNumber, fields.trackingNumbers) : null,
      ...bookedState(ctx),
    },
  });
}

/** What every recorded booking sets besides its own numbers. */
function bookedState(ctx: Pick<ShippingContext, "now">) {
  const now = ctx.now();
  // Order automation announces the label (docs/decisions/043): due in the same write as the booking.
  return { bookingStatus: "BOOKED", bookingError: null, bookedAt: now, fulfillmentStatus: "PENDING", signalsDueAt: now };
}

const BATCH_BOOKED_COLUMNS = ["bookNumber", "trackingNumber", "shippingCost", "carrierCode", "serviceCode", "currency", "zone", "rates"] as const;

/** A booking of a batch's answer (Batch Book, Get Batch): one number per shipment, its piece numbers read later. */
export type BatchBooked = { id: string } & Pick<BookedFields, Exclude<(typeof BATCH_BOOKED_COLUMNS)[number], "rates">> & { rates: string | null };

/**
 * recordBooked for a batch's shipments, set-based: one statement per chunk of rows (app/db/db-batch.server.ts), each
 * shipment its own numbers, never over a booking already recorded. A batch of 500 written one update at a time held
 * the database (on SQLite the process's one connection) for seconds, and every page waited behind it.
 */
export function recordBatchBooked(ctx: ShippingContext, rows: readonly BatchBooked[]) {
  return updateRowsById(ctx, {
    table: "Shipment",
    columns: BATCH_BOOKED_COLUMNS,
    rows,
    set: { trackingNumbers: null, ...bookedState(ctx) },
    where: [`"bookingStatus" <> 'BOOKED'`],
  });
}

/**
 * What Book Shipment's answer records for a label booked with `quote`'s service. A multi-piece shipment of the
 * postal carrier has a number per piece; any other shares the one. The answer has no total: `shippingCost` is what
 * the caller knows of it.
 */
export function bookedFieldsOf(
  answer: Pick<BookShipmentResponse, "bookNumber" | "trackingNumber" | "pieces" | "zone">,
  quote: Quote,
  shippingCost: string | null,
): BookedFields {
  return {
    selectedQuoteId: quote.quoteId,
    rates: bookedRates(quote),
    bookNumber: answer.bookNumber,
    trackingNumber: answer.trackingNumber,
    trackingNumbers: answer.pieces?.map((piece) => piece.trackingNumber) ?? [answer.trackingNumber],
    carrierCode: quote.carrierCode,
    serviceCode: quote.serviceCode,
    currency: quote.currency,
    zone: answer.zone,
    shippingCost,
  };
}

/** What follows a recorded booking: the shop's fulfillment write-back and its order signals (tags, Flow triggers). */
export async function afterBooked(ctx: Pick<ShippingContext, "jobs" | "shop">): Promise<void> {
  await queueWriteBack(ctx);
  await queueOrderSignals(ctx);
}
