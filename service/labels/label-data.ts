/**
 * What a label shows. Kept (as JSON) with each booked shipment, so any label can be redrawn later
 * byte for byte: drawing depends on nothing else.
 */
export interface LabelAddress {
  name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
}

export interface LabelData {
  carrierLabel: string;
  serviceLabel: string;
  trackingNumber: string;
  bookNumber: string;
  shipmentDate: string;
  /** ISO timestamp of the booking (the document's creation date, for deterministic bytes). */
  bookedAt: string;
  weight: string;
  pieceCount: number;
  /** The shipper's reference, printed once (see `printedReference`). */
  references: string[];
  sender: LabelAddress;
  receiver: LabelAddress;
  zone: string;
  /** An international shipment's commercial invoice, printed on the page(s) after its label. */
  invoice?: LabelInvoice;
}

export interface LabelInvoiceItem {
  description: string;
  quantity: number;
  unitValue: string;
  htsNumber: string;
  countryOfOrigin: string;
}

/** The commercial invoice as booked: what customs reads on the pages printed after the label. */
export interface LabelInvoice {
  /** Currency of the values (the shipment's customs currency, else its currency). */
  currency: string;
  termsOfTrade: string;
  senderTaxId: string;
  receiverTaxId: string;
  packageMarks: string;
  /** The export filing: "FTR <exemption>" or "ITN <number>", when given. */
  exportFiling: string | null;
  items: LabelInvoiceItem[];
}

export function addressLines(address: LabelAddress): string[] {
  const cityLine = [address.city, [address.state, address.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [address.name, address.company, address.address1, address.address2, cityLine, address.country].filter((line) => line.trim().length > 0);
}

/**
 * The one reference a label prints: the shipper's first (the shipment reference, which the app sets to the
 * order's name). The second reference is the shipper's own key for finding a booking again and is never
 * printed; labels kept before this rule carried several references and print only the first as well.
 */
export function printedReference(label: Pick<LabelData, "references">): string | null {
  return label.references.find((reference) => reference.trim().length > 0) ?? null;
}
