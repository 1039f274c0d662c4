import { formatCents, parseCents } from "../money";
import { internationalPhone } from "../../lib/postal-address";
import { type LabelAddress, type LabelData, type LabelInvoice, addressLines, printedReference } from "./label-data";

/**
 * What an international shipment's commercial invoice says, as text: the PDF pages (invoice-pages.ts) and
 * the thermal labels (thermal-layout.ts) lay out the same words, so the formats cannot disagree on a value.
 */
export interface InvoiceItemText {
  description: string;
  quantity: string;
  hsCode: string;
  origin: string;
  unitValue: string;
  value: string;
  /** The line's weight, "1.2 lb", or "-" when the booking gave none. */
  weight: string;
}

export interface InvoiceContent {
  title: string;
  continuedTitle: string;
  tracking: string;
  date: string;
  marks: string | null;
  shipper: string[];
  consignee: string[];
  terms: string;
  exportFiling: string | null;
  currency: string;
  items: InvoiceItemText[];
  total: string;
  summary: string;
  /** What the items weigh together ("Net weight 1.5 lb"), when every item has its weight. */
  netWeight: string | null;
  /** What the parcel weighs as booked, every box together ("Gross weight 2 lb"): its actual weight, not the billed one. */
  grossWeight: string;
  declaration: string;
  shipperName: string;
}

const DECLARATION = "I declare that the information on this invoice is true and correct, and that the contents of this shipment are as stated above.";

function party(address: LabelAddress, taxId: string): string[] {
  return [...addressLines(address), ...(address.phone ? [internationalPhone(address.phone, address.country)] : []), ...(taxId ? [`Tax ID ${taxId}`] : [])];
}

/**
 * The sum of weights written "<number> <unit>" in one unit, "2.35 lb"; null when there are none, or one has
 * no number or another unit. Summed in thousandths, so "0.1 lb" and "0.2 lb" make "0.3 lb".
 */
export function totalWeight(weights: readonly string[]): string | null {
  const parsed = weights.map((weight) => /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(weight.trim()));
  const unit = parsed[0]?.[2];
  if (!unit || parsed.some((match) => !match || match[2] !== unit)) return null;
  const thousandths = parsed.reduce((sum, match) => sum + Math.round(Number(match![1]) * 1000), 0);
  return `${(thousandths / 1000).toString()} ${unit}`;
}

export function invoiceContent(label: LabelData, invoice: LabelInvoice): InvoiceContent {
  const lineCents = invoice.items.map((item) => (parseCents(item.unitValue) ?? 0) * item.quantity);
  const units = invoice.items.reduce((sum, item) => sum + item.quantity, 0);
  const marks = invoice.packageMarks || printedReference(label);
  return {
    title: "COMMERCIAL INVOICE",
    continuedTitle: "COMMERCIAL INVOICE (CONTINUED)",
    tracking: `Tracking ${label.trackingNumber}`,
    date: `Date ${label.shipmentDate}`,
    marks: marks ? `Invoice / package marks ${marks}` : null,
    shipper: party(label.sender, invoice.senderTaxId),
    consignee: party(label.receiver, invoice.receiverTaxId),
    terms: `Terms of trade ${invoice.termsOfTrade}   Currency ${invoice.currency}   Export ${label.sender.country} to ${label.receiver.country}`,
    exportFiling: invoice.exportFiling ? `Export filing ${invoice.exportFiling}` : null,
    currency: invoice.currency,
    items: invoice.items.map((item, index) => ({
      description: item.description,
      quantity: String(item.quantity),
      hsCode: item.htsNumber || "-",
      origin: item.countryOfOrigin,
      unitValue: item.unitValue,
      value: formatCents(lineCents[index]!),
      weight: item.weight ?? "-",
    })),
    total: `${invoice.currency} ${formatCents(lineCents.reduce((sum, cents) => sum + cents, 0))}`,
    summary: `Units ${units}   Packages ${label.pieceCount}`,
    netWeight: invoice.items.every((item) => item.weight) ? prefixed("Net weight (goods)", totalWeight(invoice.items.map((item) => item.weight!))) : null,
    // Each box as booked; labels kept before boxes were recorded have only the shipment's weight.
    grossWeight: `Gross weight (parcel) ${(label.pieces?.length ? totalWeight(label.pieces.map((piece) => piece.weight)) : null) ?? label.weight}`,
    declaration: DECLARATION,
    shipperName: `Shipper ${label.sender.name}`,
  };
}

/** "Page 2 of 3". */
export function pageOf(index: number, count: number): string {
  return `Page ${index + 1} of ${count}`;
}

function prefixed(prefix: string, value: string | null): string | null {
  return value === null ? null : `${prefix} ${value}`;
}
