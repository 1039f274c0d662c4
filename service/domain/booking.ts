import {
  addressText,
  type BatchBookResponse,
  type CommercialInvoice,
  type BatchBookResult,
  type BatchQuoteShipment,
  type BookShipmentRequest,
  type BookShipmentResponse,
  type BookedShipment,
  type Currency,
  type LabelImageFormat,
} from "../../shipping-api/contract";
import type { Carrier, Service } from "../catalog";
import { DAY_MS, formatTimestamp } from "../clock";
import { type ErrorCategoryName, ServiceError, invalidRequest, notFound, unprocessable } from "../errors";
import type { LabelAddress, LabelData, LabelInvoice } from "../labels/label-data";
import { encodeCode128 } from "../labels/code128";
import { renderLabelsPdf } from "../labels/pdf-label";
import { renderLabelImage } from "../labels/render";
import { planCharge } from "../../lib/prepay-ledger";
import { convertCents, formatCents } from "../money";
import { type AddressInput, rateShipment } from "../rating";
import { bookNumberFor, lastMileTrackingNumberFor, trackingNumberFor } from "../tracking-numbers";
import { type BatchRow, type QuoteRow, batchQuotes, ownedBatch, quoteStatus } from "./batches";
import type { DomainContext } from "./context";
import { insertLedgerEntries, prepayAccountOf } from "./ledger-store";
import { chargeScannedReturnLabels } from "./shipments";
import { carrierOfProviderAccount } from "./provider-accounts";
import type { QuoteDetail } from "./quotes";

/** The shipment fields a booking needs, common to a saved quote's request and Book Shipment. */
type ShipmentToBook = Pick<
  BookShipmentRequest,
  "shipmentDate" | "contentDescription" | "sender" | "receiver" | "residential" | "signatureOptionCode" | "weightUnit" | "dimUnit" | "currency"
> & {
  shipmentReference?: string;
  shipmentReference2?: string;
  orderNumber?: string;
  customsCurrency?: Currency;
  commercialInvoice?: CommercialInvoice | null;
  /** Book Shipment's scan-based return label: charged when first scanned, not now. */
  scanBasedReturnLabel?: boolean;
  pieces: readonly {
    weight: string;
    length?: string | null;
    width?: string | null;
    height?: string | null;
    insuranceAmount?: string | null;
    declaredValue?: string | null;
  }[];
};

interface Priced {
  carrier: Carrier;
  service: Service;
  packageTypeCode: string;
  currency: Currency;
  totalCents: number;
  zone: string;
  transitDays: number;
  quotedWeight: string;
}

interface Booked {
  bookNumber: string;
  trackingNumber: string;
  trackingNumbers: string[];
  lastMileTrackingNumber: string;
  pieceCostsCents: number[] | null;
  balanceAfterCents: number;
  label: LabelData;
}

class BookingRefused extends Error {
  constructor(
    readonly category: ErrorCategoryName,
    message: string,
  ) {
    super(message);
  }
}

/** Allocates `count` unique serials in the caller's transaction. */
function allocateSerials(ctx: DomainContext, count: number): number {
  const row = ctx.store
    .statement(
      `INSERT INTO Counter (name, value) VALUES ('shipment', ?) ON CONFLICT(name) DO UPDATE SET value = Counter.value + excluded.value RETURNING value`,
    )
    .get(count) as { value: number };
  return row.value - count + 1;
}

function labelAddress(address: AddressInput): LabelAddress {
  const { email: _email, ...label } = addressText(address);
  return label;
}

/** Record weights are in lb or kg: ounces and grams are converted. */
function recordWeight(weight: string, unit: string): string {
  const divisor = unit === "oz" ? 16 : unit === "g" ? 1000 : 1;
  if (divisor === 1) return weight;
  const value = Number(weight) / divisor;
  const text = value.toFixed(6).replace(/\.?0+$/, "");
  return Number(text) > 0 ? text : "0.000001";
}

function bookedRecord(priced: Priced, shipment: ShipmentToBook, booked: Omit<Booked, "balanceAfterCents" | "label">, totalCents: number): BookedShipment {
  const summary = (address: AddressInput) => {
    const { phone: _phone, ...rest } = labelAddress(address);
    return { ...rest, zip: address.zip ?? null };
  };
  const weightUnit = shipment.weightUnit === "oz" || shipment.weightUnit === "lb" ? "lb" : "kg";
  return {
    bookNumber: booked.bookNumber,
    trackingNumber: booked.trackingNumber,
    trackingNumbers: booked.trackingNumbers,
    voided: false,
    carrierCode: priced.carrier.carrierCode,
    serviceCode: priced.service.serviceCode,
    packageTypeCode: priced.packageTypeCode,
    shipmentDate: shipment.shipmentDate,
    shipmentReference: shipment.shipmentReference ?? "",
    shipperReference2: shipment.shipmentReference2 ?? "",
    contentDescription: shipment.contentDescription ?? "",
    sender: summary(shipment.sender),
    receiver: summary(shipment.receiver),
    residential: shipment.residential ?? false,
    signatureOptionCode: shipment.signatureOptionCode ?? null,
    weightUnit,
    dimUnit: shipment.dimUnit ?? null,
    currency: shipment.currency,
    ...(shipment.customsCurrency ? { customsCurrency: shipment.customsCurrency } : {}),
    pieces: shipment.pieces.map((piece) => ({
      weight: recordWeight(piece.weight, shipment.weightUnit),
      length: piece.length ?? null,
      width: piece.width ?? null,
      height: piece.height ?? null,
      insuranceAmount: piece.insuranceAmount ?? null,
      declaredValue: piece.declaredValue ?? null,
    })),
    fulfillment: null,
    totalShippingCost: formatCents(totalCents),
    orderIds: shipment.orderNumber ? [shipment.orderNumber] : null,
  };
}

/** Lower-cased text Search Shipments matches keywords in. */
function searchTextOf(record: BookedShipment, shipment: ShipmentToBook): string {
  const people = [shipment.sender, shipment.receiver].flatMap((address) => [address.name, address.company, address.phone, address.email]);
  return [
    ...people,
    ...record.trackingNumbers,
    record.bookNumber,
    shipment.orderNumber,
    ...(record.orderIds ?? []),
    record.shipmentReference,
    record.shipperReference2,
  ]
    .filter((value): value is string => typeof value === "string" && value.length > 0)
    .join("\u0001")
    .toLowerCase();
}

/**
 * Books one priced shipment inside the caller's transaction: charges the prepay ledger (refusing when
 * the cost is above the balance unless recharging was approved), allocates carrier-format numbers and
 * stores the shipment with its search text and label data.
 */
function bookPriced(
  ctx: DomainContext,
  customerId: string,
  priced: Priced,
  shipment: ShipmentToBook,
  options: { approveRecharge: boolean; labelFormat: LabelImageFormat; quoteId: number | null; batchId: number | null },
): Booked {
  const perPiece = priced.service.perPieceTracking && shipment.pieces.length > 1;
  const serialCount = perPiece ? shipment.pieces.length : 1;
  const first = allocateSerials(ctx, serialCount);
  const serviceIndex = ctx.catalog.services.indexOf(priced.service);
  const trackingNumbers = Array.from({ length: serialCount }, (_, offset) => trackingNumberFor(priced.carrier.kind, first + offset, customerId, serviceIndex));
  const bookNumber = bookNumberFor(first);
  const trackingNumber = trackingNumbers[0]!;
  const costUsd = convertCents(priced.totalCents, priced.currency, "USD");
  // A scan-based return label costs nothing now: the ledger is charged when the label is first scanned (shipments.ts
  // chargeScannedReturnLabels), and never when it is not used.
  const scanBased = shipment.scanBasedReturnLabel === true;
  const account = prepayAccountOf(ctx, customerId);
  const plan = scanBased
    ? ({ ok: true, entries: [], balanceAfterCents: account.balanceCents } as const)
    : planCharge(account, costUsd, bookNumber, options.approveRecharge);
  if (!plan.ok) {
    throw new BookingRefused(
      "INSUFFICIENT_FUNDS",
      `Shipping cost ${formatCents(costUsd)} USD is above the prepay balance (short by ${formatCents(plan.shortfallCents)} USD); approve a prepay recharge to book it`,
    );
  }
  const now = ctx.clock.now();
  insertLedgerEntries(ctx, customerId, plan.entries, now.toISOString());
  const lastMileTrackingNumber = priced.carrier.kind === "consolidator" ? lastMileTrackingNumberFor(first) : "";
  const pieceCostsCents = perPiece ? splitEvenly(priced.totalCents, serialCount) : null;
  const record: BookedShipment = {
    ...bookedRecord(priced, shipment, { bookNumber, trackingNumber, trackingNumbers, lastMileTrackingNumber, pieceCostsCents }, priced.totalCents),
    ...(scanBased ? { scanBasedReturnLabel: true, chargedAt: null } : {}),
  };
  const label: LabelData = {
    carrierLabel: priced.carrier.carrierLabel,
    serviceLabel: priced.service.serviceLabel,
    trackingNumber,
    bookNumber,
    shipmentDate: shipment.shipmentDate,
    bookedAt: now.toISOString(),
    weight: `${priced.quotedWeight} ${priced.service.packageTypes.find((type) => type.packageTypeCode === priced.packageTypeCode)?.weightUnit ?? ""}`.trim(),
    pieceCount: shipment.pieces.length,
    // A label per box: its own number where the carrier gives one per piece, otherwise the shipment's.
    pieces: shipment.pieces.map((piece, index) => ({
      trackingNumber: trackingNumbers[perPiece ? index : 0]!,
      weight: `${piece.weight} ${shipment.weightUnit}`,
    })),
    // One reference, printed once: the shipment reference, else the order number. shipmentReference2 is the
    // shipper's own key (the app's shipment id) and is never printed.
    references: [shipment.shipmentReference || shipment.orderNumber].filter((value): value is string => !!value),
    sender: labelAddress(shipment.sender),
    receiver: labelAddress(shipment.receiver),
    zone: priced.zone,
    ...invoicePaper(shipment),
  };
  ctx.store
    .statement(
      `INSERT INTO Shipment (customerId, bookNumber, trackingNumber, quoteId, batchId, carrierCode, serviceCode, transitDays, bookedAt, searchText, record, label, labelFormat, scanChargeCents)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      customerId,
      bookNumber,
      trackingNumber,
      options.quoteId,
      options.batchId,
      priced.carrier.carrierCode,
      priced.service.serviceCode,
      priced.transitDays,
      now.toISOString(),
      searchTextOf(record, shipment),
      JSON.stringify(record),
      JSON.stringify(label),
      options.labelFormat,
      scanBased ? costUsd : null,
    );
  return { bookNumber, trackingNumber, trackingNumbers, lastMileTrackingNumber, pieceCostsCents, balanceAfterCents: plan.balanceAfterCents, label };
}

/** An international shipment's commercial invoice as booked, for the pages printed after its label. */
function invoicePaper(shipment: ShipmentToBook): { invoice: LabelInvoice } | Record<string, never> {
  const invoice = shipment.commercialInvoice;
  if (!invoice || shipment.sender.country === shipment.receiver.country) return {};
  return {
    invoice: {
      currency: shipment.customsCurrency ?? shipment.currency,
      termsOfTrade: invoice.termsOfTrade,
      senderTaxId: invoice.senderVatTaxId,
      receiverTaxId: invoice.receiverTaxId,
      packageMarks: invoice.packageMarks,
      exportFiling: invoice.ftrNumber ? `FTR ${invoice.ftrNumber}` : invoice.itnNumber ? `ITN ${invoice.itnNumber}` : null,
      items: invoice.items.map(({ description, quantity, unitValue, htsNumber, countryOfOrigin, weight }) => ({
        description,
        quantity,
        unitValue,
        htsNumber,
        countryOfOrigin,
        // The line's weight as the shipper declared it (all its units), in the shipment's weight unit.
        ...(weight ? { weight: `${weight} ${shipment.weightUnit}` } : {}),
      })),
    },
  };
}

function splitEvenly(totalCents: number, parts: number): number[] {
  const share = Math.floor(totalCents / parts);
  return Array.from({ length: parts }, (_, index) => (index === 0 ? totalCents - share * (parts - 1) : share));
}

/** Labels of booked shipments, purged ones (older than the retention) left out. */
function labelsStillKept(ctx: DomainContext, rows: readonly { label: string; bookedAt: string }[]): LabelData[] {
  const cutoff = ctx.clock.now().getTime() - ctx.labelRetentionDays * DAY_MS;
  return rows.filter((row) => Date.parse(row.bookedAt) > cutoff).map((row) => JSON.parse(row.label) as LabelData);
}

/** A label whose barcode cannot be encoded (say, data edited by hand) is skipped, not the whole document. */
function drawable(label: LabelData): boolean {
  try {
    encodeCode128(label.trackingNumber);
    for (const piece of label.pieces ?? []) encodeCode128(piece.trackingNumber);
    return (
      typeof label.carrierLabel === "string" &&
      typeof label.sender?.name === "string" &&
      typeof label.receiver?.name === "string" &&
      Array.isArray(label.references) &&
      (label.invoice === undefined || Array.isArray(label.invoice.items))
    );
  } catch {
    return false;
  }
}

async function combinedPdf(labels: readonly LabelData[]): Promise<string> {
  const kept = labels.filter(drawable);
  if (kept.length === 0) return "";
  return Buffer.from(await renderLabelsPdf(kept)).toString("base64");
}

/**
 * Batch Book. The open → processing transition is one conditional UPDATE, so of two concurrent calls
 * exactly one proceeds; the other sees a batch that is no longer open (422). Each quote is then booked
 * in its own savepoint: a failure (expired quote, insufficient funds) keeps the quote active with its
 * bookingError and does not undo the others. The batch ends completed (≥ 1 booked) or failed.
 */
export async function bookBatch(ctx: DomainContext, customerId: string, batchId: number): Promise<BatchBookResponse> {
  chargeScannedReturnLabels(ctx, customerId);
  const claimed = ctx.store.transaction(() => {
    const batch = ownedBatch(ctx, customerId, batchId, 403);
    if (batch.status !== "open") throw unprocessable(`Batch ${batchId} is ${batch.status}; only an open batch can be booked`);
    if (batch.quoteCount === 0) throw unprocessable(`Batch ${batchId} has no quotes to book`);
    const claim = ctx.store
      .statement(`UPDATE Batch SET status = 'processing', updatedAt = ? WHERE id = ? AND status = 'open'`)
      .run(ctx.clock.now().toISOString(), batchId);
    if (claim.changes !== 1) throw unprocessable(`Batch ${batchId} is already being booked`);
    return batch;
  });
  let outcome: { results: BatchBookResult[]; labels: LabelData[]; balanceAfterCents: number | null };
  try {
    outcome = ctx.store.transaction(() => bookClaimedBatch(ctx, customerId, claimed));
  } catch (error) {
    // An unexpected failure must not strand the batch in processing: reopen it so it can be retried.
    ctx.store.statement(`UPDATE Batch SET status = 'open' WHERE id = ? AND status = 'processing'`).run(batchId);
    throw error;
  }
  let labelsPdf = "";
  try {
    labelsPdf = await combinedPdf(outcome.labels);
  } catch {
    // Bookings stand even if drawing fails; View Batch Labels can redraw from the kept label data.
    labelsPdf = "";
  }
  return {
    results: outcome.results,
    labelsPdf,
    ...(outcome.balanceAfterCents !== null ? { prepayBalance: formatCents(outcome.balanceAfterCents) } : {}),
  };
}

function bookClaimedBatch(ctx: DomainContext, customerId: string, batch: BatchRow) {
  const now = ctx.clock.now();
  const results: BatchBookResult[] = [];
  const labels: LabelData[] = [];
  let balanceAfterCents: number | null = null;
  const markError = ctx.store.statement(`UPDATE Quote SET bookingError = ? WHERE id = ?`);
  const markBooked = ctx.store.statement(`UPDATE Quote SET status = 'booked', bookingError = NULL, bookNumber = ?, trackingNumber = ? WHERE id = ?`);
  for (const quote of batchQuotes(ctx, batch.id)) {
    try {
      const booked = ctx.store.transaction(() => {
        const priced = pricedFromQuote(ctx, quote, now);
        const shipment = JSON.parse(
          (ctx.store.statement(`SELECT shipment FROM QuoteRequest WHERE id = ?`).get(quote.requestId) as { shipment: string }).shipment,
        ) as BatchQuoteShipment;
        const result = bookPriced(ctx, customerId, priced, shipment, { approveRecharge: false, labelFormat: "PDF", quoteId: quote.id, batchId: batch.id });
        markBooked.run(result.bookNumber, result.trackingNumber, quote.id);
        return { result, priced };
      });
      balanceAfterCents = booked.result.balanceAfterCents;
      labels.push(booked.result.label);
      results.push({
        quoteId: quote.id,
        status: "success",
        bookNumber: booked.result.bookNumber,
        trackingNumber: booked.result.trackingNumber,
        lastMileTrackingNumber: booked.result.lastMileTrackingNumber,
        totalShippingCost: formatCents(booked.priced.totalCents),
        zone: booked.priced.zone,
      });
    } catch (error) {
      if (!(error instanceof BookingRefused)) throw error;
      markError.run(error.message, quote.id);
      results.push({ quoteId: quote.id, status: "error", error: error.message, errorCategory: error.category });
    }
  }
  const bookedCount = results.filter((result) => result.status === "success").length;
  ctx.store
    .statement(`UPDATE Batch SET status = ?, bookedCount = ?, errorCount = ?, processedAt = ?, updatedAt = ? WHERE id = ?`)
    .run(bookedCount > 0 ? "completed" : "failed", bookedCount, results.length - bookedCount, now.toISOString(), now.toISOString(), batch.id);
  return { results, labels, balanceAfterCents };
}

function pricedFromQuote(ctx: DomainContext, quote: QuoteRow, now: Date): Priced {
  const status = quoteStatus(quote, now);
  if (status === "expired")
    throw new BookingRefused(
      "QUOTE_EXPIRED",
      `Quote ${quote.id} expired at ${formatTimestamp(new Date(quote.expiresAt))} and can no longer be booked; quote the shipment again`,
    );
  if (status === "booked") throw new BookingRefused("UNPROCESSABLE", `Quote ${quote.id} is already booked`);
  const service = ctx.catalog.service(quote.serviceCode);
  const carrier = ctx.catalog.carrier(quote.carrierCode);
  if (!service || !carrier) throw new BookingRefused("SERVICE_UNAVAILABLE", `Service ${quote.serviceCode} is no longer offered`);
  const detail = JSON.parse(quote.detail) as QuoteDetail;
  return {
    carrier,
    service,
    packageTypeCode: quote.packageTypeCode,
    currency: quote.currency,
    totalCents: quote.totalCents,
    zone: detail.zone,
    transitDays: detail.transitDays,
    quotedWeight: detail.quotedWeight,
  };
}

/** View Batch Labels: one PDF of the batch's booked shipments in batch order, a label for every piece. */
export async function batchLabels(ctx: DomainContext, customerId: string, batchId: number): Promise<{ labelsPdf: string }> {
  ownedBatch(ctx, customerId, batchId, 403);
  const rows = ctx.store
    .statement(`SELECT s.label, s.bookedAt FROM Shipment s JOIN Quote q ON q.id = s.quoteId WHERE s.batchId = ? ORDER BY q.batchSeq`)
    .all(batchId) as { label: string; bookedAt: string }[];
  if (rows.length === 0) throw unprocessable(`Batch ${batchId} has no booked shipments`);
  const labelsPdf = await combinedPdf(labelsStillKept(ctx, rows));
  if (labelsPdf === "") throw unprocessable(`No label of batch ${batchId} could be generated (labels are purged ${ctx.labelRetentionDays} days after booking)`);
  return { labelsPdf };
}

const PHONE_DIGITS = /\d/g;

function checkContact(address: AddressInput, role: string): void {
  const digits = (address.phone ?? "").match(PHONE_DIGITS)?.length ?? 0;
  const northAmerica = address.country === "US" || address.country === "CA";
  if (northAmerica ? digits !== 10 && digits !== 11 : digits < 7 || digits > 15) {
    throw invalidRequest(`${role}.phone must be a ${northAmerica ? "10-digit" : "7 to 15 digit"} phone number, got ${JSON.stringify(address.phone ?? "")}`);
  }
  if (!address.zip && address.country !== "HK" && address.country !== "AE") throw invalidRequest(`${role}.zip is required for ${address.country} addresses`);
}

/** Book Shipment's own rules on top of the contract: carrier-specific options and formats. */
function checkBookingOptions(ctx: DomainContext, customerId: string, request: BookShipmentRequest, carrier: Carrier, service: Service): LabelImageFormat {
  checkContact(request.sender, "sender");
  checkContact(request.receiver, "receiver");
  const format = request.labelImageFormat ?? "PDF";
  if (!carrier.labelFormats.includes(format)) {
    throw invalidRequest(
      `labelImageFormat ${format} is not available for ${carrier.carrierLabel} (${carrier.carrierCode}); it supports ${carrier.labelFormats.join(", ")}`,
    );
  }
  if (request.dangerousGoodsCode) {
    const codes = (service.supportedDangerousGoodsCodes ?? "").split(",").filter(Boolean);
    if (!codes.includes(request.dangerousGoodsCode)) {
      throw invalidRequest(
        `dangerousGoodsCode ${request.dangerousGoodsCode} is not supported by ${service.serviceCode}${codes.length ? ` (supported: ${codes.join(", ")})` : ""}`,
      );
    }
  }
  if (request.scanBasedReturnLabel && !service.scanBasedReturn)
    throw invalidRequest(`scanBasedReturnLabel is only available with a postal return service, not ${service.serviceCode}`);
  if (request.postalEndorsement && carrier.kind !== "consolidator")
    throw invalidRequest(`postalEndorsement is only used by the e-commerce carrier, not ${carrier.carrierCode}`);
  if (request.providerAccountId) {
    const accountCarrier = carrierOfProviderAccount(ctx, customerId, request.providerAccountId);
    if (accountCarrier !== carrier.carrierCode)
      throw invalidRequest(`providerAccountId ${request.providerAccountId} is an account of ${accountCarrier}, not ${carrier.carrierCode}`);
  }
  return format;
}

export type BookShipmentResult = BookShipmentResponse & { labelImageFormat: LabelImageFormat; labelImage: string };

/** Status of Book Shipment refusals by category: rating problems are the request's fault (400). */
const REFUSAL_STATUS: Partial<Record<ErrorCategoryName, number>> = { INSUFFICIENT_FUNDS: 402 };

/**
 * Book Shipment: rates the named service, charges the prepay balance (402 INSUFFICIENT_FUNDS when the
 * cost is above it, unless `approvePrepayRecharge`), and returns the numbers plus the label in the
 * requested format (an addition to the spec's response, optional in the contract).
 */
export async function bookShipment(ctx: DomainContext, customerId: string, request: BookShipmentRequest): Promise<BookShipmentResult> {
  const carrier = ctx.catalog.carrier(request.carrierCode);
  if (!carrier) throw invalidRequest(`Unknown carrierCode ${request.carrierCode}`);
  const service = ctx.catalog.service(request.serviceCode);
  if (!service || service.carrierCode !== carrier.carrierCode)
    throw invalidRequest(`Unknown serviceCode ${request.serviceCode} for carrier ${request.carrierCode}`);
  const labelFormat = checkBookingOptions(ctx, customerId, request, carrier, service);
  const rated = rateShipment(ctx.catalog, request);
  chargeScannedReturnLabels(ctx, customerId);
  if (rated.status === "error") throw new ServiceError(400, rated.errorCategory, rated.error);
  const quote = rated.quotes[0]!;
  const priced: Priced = {
    carrier,
    service,
    packageTypeCode: quote.packageTypeCode,
    currency: quote.currency,
    totalCents: quote.totalCents,
    zone: quote.zone,
    transitDays: quote.transitDays,
    quotedWeight: quote.quotedWeight,
  };
  let booked: Booked;
  try {
    booked = ctx.store.transaction(() =>
      bookPriced(ctx, customerId, priced, request, { approveRecharge: request.approvePrepayRecharge ?? false, labelFormat, quoteId: null, batchId: null }),
    );
  } catch (error) {
    if (error instanceof BookingRefused) throw new ServiceError(REFUSAL_STATUS[error.category] ?? 422, error.category, error.message);
    throw error;
  }
  const image = await renderLabelImage(labelFormat, booked.label);
  return {
    bookNumber: booked.bookNumber,
    trackingNumber: booked.trackingNumber,
    prepayBalance: formatCents(booked.balanceAfterCents),
    zone: priced.zone,
    ...(booked.pieceCostsCents
      ? { pieces: booked.trackingNumbers.map((trackingNumber, index) => ({ trackingNumber, shippingCost: formatCents(booked.pieceCostsCents![index]!) })) }
      : {}),
    labelImageFormat: labelFormat,
    labelImage: image.toString("base64"),
  };
}

/** Get Shipment Label: one booked shipment's label in the format it was booked with (outside the spec; see README). */
export async function shipmentLabel(
  ctx: DomainContext,
  customerId: string,
  bookNumber: string,
): Promise<{ labelImageFormat: LabelImageFormat; labelImage: string }> {
  const row = ctx.store.statement(`SELECT label, labelFormat, bookedAt FROM Shipment WHERE bookNumber = ? AND customerId = ?`).get(bookNumber, customerId) as
    { label: string; labelFormat: LabelImageFormat; bookedAt: string } | undefined;
  if (!row) throw notFound(`Shipment ${bookNumber} not found`);
  const [label] = labelsStillKept(ctx, [row]);
  if (!label) throw unprocessable(`The label of ${bookNumber} was purged ${ctx.labelRetentionDays} days after booking`);
  return { labelImageFormat: row.labelFormat, labelImage: (await renderLabelImage(row.labelFormat, label)).toString("base64") };
}
