import { z } from "zod";
import { BatchQuoteShipment, BookShipmentRequest, CommercialInvoice, LabelImageFormat, TermsOfTrade, type ReturnToAddress } from "../../shipping-api/contract";
import { formatMoney, sumAmounts } from "../shipping/money";
import type { Outcome } from "../outcome";
import { describeIssues, inMerchantWords, type FieldErrors, type FieldNamer } from "../field-errors";

/**
 * Single booking, pure: the booking form as the merchant submits it, and the Book Shipment request built
 * from the shipment's stored quote request, the chosen rate and those options.
 */

const money = z
  .string()
  .trim()
  .regex(/^\d+(\.\d{1,2})?$/, "Enter an amount like 25.00.");

const checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "true");

export const InvoiceItemForm = z.object({
  description: z.string().trim().min(1, "Describe the item, as customs will read it."),
  quantity: z.coerce.number<string>().int("Enter a whole number.").positive("Enter a quantity of at least 1."),
  unitValue: money,
  htsNumber: z
    .string()
    .trim()
    .regex(/^(\d[\d.]*)?$/, "An HS code has digits (and dots) only, like 6912.00."),
  countryOfOrigin: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "Enter a two-letter country code, like PT."),
});
export type InvoiceItemForm = z.infer<typeof InvoiceItemForm>;

export const BookingForm = z.object({
  shipmentId: z.string().min(1, "Which shipment to book is missing; reload the page."),
  quoteId: z.coerce.number<string>().int().positive("Choose a service."),
  signatureOptionCode: z
    .string()
    .optional()
    .transform((value) => (value ? value : null)),
  insuranceAmount: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value : null))
    .pipe(money.nullable()),
  saturdayDelivery: checkbox,
  labelFormat: LabelImageFormat,
  approvePrepayRecharge: checkbox,
  termsOfTrade: TermsOfTrade.optional(),
  items: z.array(InvoiceItemForm).optional(),
});
export type BookingForm = z.infer<typeof BookingForm>;

/**
 * Reads the booking form (`items[0].description`, `items[0].quantity` … for the invoice lines) into
 * `BookingForm`, or the problems keyed by field.
 */
export function parseBookingForm(form: URLSearchParams | FormData): Outcome<{ value: BookingForm }, { fieldErrors: FieldErrors }> {
  const fields: Record<string, unknown> = {};
  const items: Array<Record<string, string>> = [];
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") continue;
    const item = /^items\[(\d{1,3})\]\.(\w+)$/.exec(key);
    if (item) (items[Number(item[1])] ??= {})[item[2]!] = value;
    else fields[key] = value;
  }
  if (items.length > 0) fields.items = items.filter((entry) => entry !== undefined);
  const parsed = BookingForm.safeParse(fields, { error: inMerchantWords });
  if (parsed.success) return { ok: true, value: parsed.data };
  const refused = describeIssues(parsed.error.issues, bookingFieldNames(items));
  return { ok: false, message: `Not booked: ${refused.message}.`, fieldErrors: refused.fieldErrors };
}

const BOOKING_LABELS: Record<string, string> = {
  shipmentId: "shipment",
  quoteId: "service",
  signatureOptionCode: "signature",
  insuranceAmount: "insurance",
  labelFormat: "label format",
  termsOfTrade: "terms of trade",
  description: "description",
  quantity: "quantity",
  unitValue: "unit value",
  htsNumber: "HS code",
  countryOfOrigin: "country of origin",
};

/**
 * The booking form's fields as the page names them: an invoice item by its description as typed ("Blue
 * T-shirt (M): HS code …"), or its number when it has none.
 */
export function bookingFieldNames(items: ReadonlyArray<{ description?: string } | undefined>): FieldNamer {
  return (path) => {
    const [head, index, field] = path;
    if (head === "items" && typeof index === "number") {
      const subject = items[index]?.description?.trim() || `Item ${index + 1}`;
      return { subject, label: typeof field === "string" ? (BOOKING_LABELS[field] ?? field) : undefined };
    }
    return typeof head === "string" ? { label: BOOKING_LABELS[head] ?? head } : {};
  };
}

/** What prices the chosen options before booking: the booking form's service, signature and insurance. */
export const OptionsForm = BookingForm.pick({ shipmentId: true, quoteId: true, signatureOptionCode: true, insuranceAmount: true });
export type OptionsForm = z.infer<typeof OptionsForm>;

export function parseOptionsForm(params: URLSearchParams): Outcome<{ value: OptionsForm }, { fieldErrors: FieldErrors }> {
  const parsed = OptionsForm.safeParse(Object.fromEntries(params), { error: inMerchantWords });
  if (parsed.success) return { ok: true, value: parsed.data };
  const refused = describeIssues(parsed.error.issues, bookingFieldNames([]));
  return { ok: false, message: `These options cannot be priced: ${refused.message}.`, fieldErrors: refused.fieldErrors };
}

/** The rate the merchant chose, as stored with the shipment's quotes. */
export interface ChosenRate {
  carrierCode: string;
  serviceCode: string;
  packageTypeCode: string;
}

export interface BookingSettings {
  returnTo: ReturnToAddress | null;
  providerAccountId: string | null;
}

export interface BookingReferences {
  /** The shipment's id, sent as `shipmentReference2`: how a booking with a lost answer is found again. */
  shipmentId: string;
  orderName: string;
}

/**
 * The Book Shipment request: the stored quote request (addresses, pieces, contents) with the chosen service
 * and options. International shipments carry the (edited) commercial invoice; their declared value is the
 * invoice's total so the two never disagree.
 */
export function buildBookRequest(
  stored: BatchQuoteShipment,
  rate: ChosenRate,
  form: Pick<BookingForm, "signatureOptionCode" | "insuranceAmount" | "saturdayDelivery" | "labelFormat" | "approvePrepayRecharge" | "termsOfTrade" | "items">,
  settings: BookingSettings,
  references: BookingReferences,
): z.input<typeof BookShipmentRequest> {
  const international = stored.sender.country !== stored.receiver.country;
  const invoice = international && stored.commercialInvoice ? editedInvoice(stored.commercialInvoice, form) : null;
  const declaredValue = invoice ? invoiceTotal(invoice) : null;
  const {
    carrierCode: _carrier,
    serviceCode: _service,
    packageTypeCode: _package,
    shipmentReference: _reference,
    pieces,
    commercialInvoice: _invoice,
    ...shipment
  } = stored;
  return {
    ...shipment,
    carrierCode: rate.carrierCode,
    serviceCode: rate.serviceCode,
    packageTypeCode: rate.packageTypeCode,
    // The label prints shipmentReference once (the order's name); shipmentReference2, the shipment's id, is only
    // for finding a lost booking again and is never printed (docs/decisions/014).
    shipmentReference: references.orderName,
    shipmentReference2: references.shipmentId,
    orderNumber: references.orderName,
    signatureOptionCode: form.signatureOptionCode,
    ...(form.saturdayDelivery ? { saturdayDelivery: true } : {}),
    labelImageFormat: form.labelFormat,
    ...(form.approvePrepayRecharge ? { approvePrepayRecharge: true } : {}),
    ...(settings.returnTo ? { returnTo: settings.returnTo } : {}),
    providerAccountId: settings.providerAccountId,
    // Insurance covers the package as a whole: the amount goes on the first piece.
    pieces: pieces.map((piece, index) => ({
      weight: piece.weight,
      length: piece.length ?? null,
      width: piece.width ?? null,
      height: piece.height ?? null,
      insuranceAmount: index === 0 ? form.insuranceAmount : null,
      declaredValue: international ? (index === 0 ? (declaredValue ?? piece.declaredValue ?? null) : null) : null,
    })),
    commercialInvoice: invoice,
  };
}

function editedInvoice(stored: CommercialInvoice, form: Pick<BookingForm, "termsOfTrade" | "items">): CommercialInvoice {
  if (!form.items) return { ...stored, termsOfTrade: form.termsOfTrade ?? stored.termsOfTrade };
  return {
    ...stored,
    termsOfTrade: form.termsOfTrade ?? stored.termsOfTrade,
    items: form.items.map((item, index) => {
      // An item's weight is not edited here; the one mapped from the order stays with its line.
      const weight = stored.items[index]?.weight;
      return { ...item, ...(weight ? { weight } : {}) };
    }),
  };
}

/** Σ quantity × unit value, exact. */
export function invoiceTotal(invoice: Pick<CommercialInvoice, "items">): string {
  return sumAmounts(invoice.items.flatMap((item) => Array.from({ length: item.quantity }, () => item.unitValue)));
}

/**
 * The quote request that prices the chosen service with the chosen options before booking: the stored
 * request narrowed to that service, with the signature and the insurance (on the first piece, as booking
 * sends it). Saturday delivery is not a quote option in the Shipping API; it is priced when booked.
 */
export function optionsQuoteRequest(
  stored: BatchQuoteShipment,
  rate: ChosenRate,
  options: { signatureOptionCode: string | null; insuranceAmount: string | null },
): BatchQuoteShipment {
  return {
    ...stored,
    carrierCode: rate.carrierCode,
    serviceCode: rate.serviceCode,
    packageTypeCode: rate.packageTypeCode,
    signatureOptionCode: options.signatureOptionCode,
    pieces: stored.pieces.map((piece, index) => ({ ...piece, insuranceAmount: index === 0 ? options.insuranceAmount : null })),
  };
}

/** The stored quote request of a shipment, or null when it no longer parses. */
export function storedRequest(json: string): BatchQuoteShipment | null {
  const parsed = BatchQuoteShipment.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

/**
 * The surcharges of a priced booking as the merchant reads them. The Shipping API prices insurance per started
 * 100 USD insured and names its surcharge after those units ("Insurance (1 × 100 USD declared)" for $50): the
 * line says the amount the merchant insured instead ("Insurance of $50.00").
 */
export function surchargesInWords<S extends { description: string }>(surcharges: readonly S[], insuranceAmount: string | null, currency: string): S[] {
  return surcharges.map((surcharge) =>
    insuranceAmount && /^insurance\b/i.test(surcharge.description)
      ? { ...surcharge, description: `Insurance of ${formatMoney(insuranceAmount, currency)}` }
      : surcharge,
  );
}
