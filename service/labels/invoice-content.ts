import { formatCents, parseCents } from "../money";
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
  declaration: string;
  shipperName: string;
}

const DECLARATION = "I declare that the information on this invoice is true and correct, and that the contents of this shipment are as stated above.";

function party(address: LabelAddress, taxId: string): string[] {
  return [...addressLines(address), ...(address.phone ? [address.phone] : []), ...(taxId ? [`Tax ID ${taxId}`] : [])];
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
    })),
    total: `${invoice.currency} ${formatCents(lineCents.reduce((sum, cents) => sum + cents, 0))}`,
    summary: `Units ${units}   Packages ${label.pieceCount}   Weight ${label.weight}`,
    declaration: DECLARATION,
    shipperName: `Shipper ${label.sender.name}`,
  };
}

/** "Page 2 of 3". */
export function pageOf(index: number, count: number): string {
  return `Page ${index + 1} of ${count}`;
}
