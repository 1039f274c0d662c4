import { wrapText } from "../../lib/pdf/page-content";
import { textWidthDots } from "../../lib/pdf/raster-text";
import { invoiceContent, pageOf } from "./invoice-content";
import { type LabelData, type LabelPiece, addressLines, labelPieces, pieceText, printedReference } from "./label-data";

/**
 * The one layout of the 4×6 in thermal labels, in printer dots at 203 dpi (812 × 1218). ZPL, EPL2 and
 * PNG render the same items, each in its own commands, so the three formats cannot drift apart.
 */
export const DOTS_WIDE = 812;
export const DOTS_HIGH = 1218;
const LEFT = 30;

export interface TextItem {
  x: number;
  y: number;
  /** Character height in dots. */
  height: number;
  value: string;
  /** Dots the text may take from x; by default to the label's right margin. */
  maxWidth?: number;
}

/** The dots `text` may take: to its own limit, or to the label's right margin. */
export function roomOf(text: TextItem): number {
  return text.maxWidth ?? DOTS_WIDE - LEFT - text.x;
}

/** A 4×6 page of text and rules: an invoice page, or a label without its barcode. */
export interface ThermalPage {
  texts: TextItem[];
  rules: { x: number; y: number; width: number; thickness: number }[];
}

export interface ThermalLayout extends ThermalPage {
  barcode: { x: number; y: number; height: number; data: string };
}

/** One box's label (by default the first piece's): the shipment's addresses, the piece's line and its barcode. */
export function thermalLayout(label: LabelData, piece: LabelPiece = labelPieces(label)[0]!): ThermalLayout {
  const texts: TextItem[] = [
    { x: LEFT, y: 30, height: 48, value: label.carrierLabel.toUpperCase() },
    { x: 620, y: 90, height: 28, value: `ZONE ${label.zone}` },
    { x: LEFT, y: 90, height: 28, value: label.serviceLabel, maxWidth: 620 - LEFT - 20 },
    { x: LEFT, y: 150, height: 21, value: "FROM" },
    ...addressLines(label.sender).map((line, index) => ({ x: LEFT, y: 180 + index * 28, height: 21, value: line })),
    { x: LEFT, y: 380, height: 21, value: "SHIP TO" },
    ...addressLines(label.receiver).map((line, index) => ({ x: LEFT + 20, y: 420 + index * 40, height: 28, value: line })),
    { x: LEFT, y: 700, height: 21, value: `WEIGHT ${piece.weight}  ${pieceText(piece)}  DATE ${label.shipmentDate}` },
    { x: LEFT, y: 735, height: 21, value: `BOOK ${label.bookNumber}` },
  ];
  const reference = printedReference(label);
  if (reference) texts.push({ x: LEFT, y: 770, height: 21, value: `REF ${reference}` });
  const width = DOTS_WIDE - 2 * LEFT;
  return {
    texts,
    rules: [
      { x: LEFT, y: 130, width, thickness: 4 },
      { x: LEFT, y: 360, width, thickness: 2 },
      { x: LEFT, y: 680, width, thickness: 4 },
    ],
    barcode: { x: 60, y: 870, height: 220, data: piece.trackingNumber },
  };
}

/** Body text of the invoice labels, and the dots a line of it takes. */
const BODY = 21;
const LINE = 28;

/**
 * An international shipment's commercial invoice as further 4×6 thermal labels after its label (ZPL and
 * EPL2 files hold several labels): the words of `invoiceContent`, one line after another, run on to the
 * next label when one is full. Empty for a label without an invoice.
 */
export function thermalInvoicePages(label: LabelData): ThermalPage[] {
  if (!label.invoice) return [];
  const content = invoiceContent(label, label.invoice);
  const pages: ThermalPage[] = [];
  let page: ThermalPage = { texts: [], rules: [] };
  let y = 0;
  // A line too long for the label wraps onto the next (at its spaces, else between characters), and a label
  // that is full runs on to the next: nothing is cut.
  const line = (value: string, height = BODY) => {
    const room = DOTS_WIDE - 2 * LEFT;
    const indent = /^ */.exec(value)![0];
    const lines =
      textWidthDots(value, height) <= room
        ? [value]
        : wrapText(value, room - textWidthDots(indent, height), (text) => textWidthDots(text, height)).map((text) => `${indent}${text}`);
    for (const [index, text] of lines.entries()) {
      if (index > 0 && y + LINE > DOTS_HIGH - 30) start(true);
      page.texts.push({ x: LEFT, y, height, value: text });
      y += height > BODY ? height + 14 : LINE;
    }
  };
  const rule = () => {
    page.rules.push({ x: LEFT, y, width: DOTS_WIDE - 2 * LEFT, thickness: 3 });
    y += 14;
  };
  const start = (continued: boolean) => {
    page = { texts: [], rules: [] };
    pages.push(page);
    y = 30;
    line(continued ? content.continuedTitle : content.title, 32);
    y += LINE; // the page number goes here once the count is known
    line(`${content.tracking}   ${content.date}`);
    rule();
  };
  const room = (lines: number) => {
    if (y + lines * LINE > DOTS_HIGH - 30) start(true);
  };

  start(false);
  if (content.marks) line(content.marks);
  for (const [heading, lines] of [
    ["SHIPPER / EXPORTER", content.shipper],
    ["CONSIGNEE", content.consignee],
  ] as const) {
    room(lines.length + 1);
    line(heading);
    for (const text of lines) line(`  ${text}`);
  }
  room(2);
  line(content.terms);
  if (content.exportFiling) line(content.exportFiling);
  rule();
  for (const item of content.items) {
    room(3);
    line(item.description);
    line(`  Qty ${item.quantity}   HS ${item.hsCode}   Origin ${item.origin}   Weight ${item.weight}`);
    line(`  Unit ${item.unitValue}   Value ${item.value} ${content.currency}`);
  }
  room(10);
  rule();
  line(`TOTAL VALUE ${content.total}`, 28);
  line(content.summary);
  if (content.netWeight) line(content.netWeight);
  line(content.grossWeight);
  line(content.declaration);
  y += LINE;
  line(`${content.shipperName}   Signature ____________`);

  pages.forEach((each, index) => each.texts.push({ x: LEFT, y: 30 + 46, height: BODY, value: pageOf(index, pages.length) }));
  return pages;
}
