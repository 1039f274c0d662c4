import { type PostalAddress, postalLines } from "../../lib/postal-address";

/**
 * What a label shows. Kept (as JSON) with each booked shipment, so any label can be redrawn later
 * byte for byte: drawing depends on nothing else.
 */
export interface LabelAddress extends PostalAddress {
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
  /** The shipment's billed weight with its unit. */
  weight: string;
  pieceCount: number;
  /**
   * Each piece (box) in order: the tracking number its label carries (its own where the carrier gives one per
   * piece, otherwise the shipment's) and its weight as booked. Labels kept before per-piece labels have none;
   * they are drawn as `pieceCount` labels of the shipment's number and weight (see `labelPieces`).
   */
  pieces?: LabelPieceData[];
  /** The shipper's reference, printed once (see `printedReference`). */
  references: string[];
  sender: LabelAddress;
  receiver: LabelAddress;
  zone: string;
  /** An international shipment's commercial invoice, printed on the page(s) after its label. */
  invoice?: LabelInvoice;
}

export interface LabelPieceData {
  trackingNumber: string;
  weight: string;
}

/** One box's label: which piece of how many, the number its barcode carries and its weight. */
export interface LabelPiece extends LabelPieceData {
  /** 1-based. */
  index: number;
  count: number;
}

/** The labels a shipment prints, one per piece ("1 of 2", "2 of 2"). */
export function labelPieces(label: Pick<LabelData, "trackingNumber" | "weight" | "pieceCount" | "pieces">): LabelPiece[] {
  const count = label.pieces?.length || Math.max(1, label.pieceCount);
  return Array.from({ length: count }, (_, offset) => ({
    index: offset + 1,
    count,
    trackingNumber: label.pieces?.[offset]?.trackingNumber ?? label.trackingNumber,
    weight: label.pieces?.[offset]?.weight ?? label.weight,
  }));
}

/** "PIECE 1 of 2": which box of the shipment a label goes on. */
export function pieceText(piece: Pick<LabelPiece, "index" | "count">): string {
  return `PIECE ${piece.index} of ${piece.count}`;
}

export interface LabelInvoiceItem {
  description: string;
  quantity: number;
  unitValue: string;
  htsNumber: string;
  countryOfOrigin: string;
  /** The line's weight (all its units) with the shipment's unit, "1.2 lb", when the booking gave one. */
  weight?: string;
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

/** The address as printed: in the destination's own format, its country's name last (lib/postal-address.ts). */
export function addressLines(address: LabelAddress): string[] {
  return postalLines(address);
}

/**
 * The one reference a label prints: the shipper's first (the shipment reference, which the app sets to the
 * order's name). The second reference is the shipper's own key for finding a booking again and is never
 * printed; labels kept before this rule carried several references and print only the first as well.
 */
export function printedReference(label: Pick<LabelData, "references">): string | null {
  return label.references.find((reference) => reference.trim().length > 0) ?? null;
}
