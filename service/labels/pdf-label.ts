import { PDFDocument, type PDFFont, PDFName, type PDFRef, StandardFonts } from "pdf-lib";
import { barsOf, encodeCode128 } from "./code128";
import { type LabelData, addressLines } from "./label-data";

/** 4 × 6 inches at 72 points per inch. */
export const LABEL_WIDTH = 288;
export const LABEL_HEIGHT = 432;
const MARGIN = 14;
/** Space kept between the carrier's name and the zone on the label's first line. */
const ZONE_GAP = 8;

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Characters the standard fonts' WinAnsi encoding can show. */
  charset: Set<number>;
}

/**
 * The standard 14 fonts are not embedded (tiny files) but only cover WinAnsi, so anything else a
 * customer typed (say, CJK names) is shown as "?" rather than failing the label.
 */
function printable(fonts: Fonts, text: string, maxLength = 60): string {
  let out = "";
  for (const char of text.slice(0, maxLength)) out += fonts.charset.has(char.codePointAt(0)!) ? char : "?";
  return out;
}

const n = (value: number) => (Math.round(value * 100) / 100).toString();

/**
 * A page's content stream, written as PDF operators. pdf-lib's drawText/drawRectangle build an object
 * per operator, which for 500 labels × ~60 bars cost over a second and hundreds of MB; a string per
 * page is the same drawing at a fraction of the cost.
 */
class PageContent {
  private readonly parts: string[] = [];
  constructor(private readonly fonts: Fonts) {}

  text(value: string, x: number, y: number, size: number, bold = false): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const encoded = font.encodeText(printable(this.fonts, value)).toString();
    this.parts.push(`BT /${bold ? "FB" : "FR"} ${size} Tf ${n(x)} ${n(y)} Td ${encoded} Tj ET`);
  }

  /** How wide `value` prints at `size`, in points. */
  width(value: string, size: number, bold = false): number {
    return (bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(printable(this.fonts, value), size);
  }

  centredText(value: string, y: number, size: number, bold = false): void {
    this.text(value, (LABEL_WIDTH - this.width(value, size, bold)) / 2, y, size, bold);
  }

  /** Ends at `right`. */
  rightText(value: string, right: number, y: number, size: number, bold = false): void {
    this.text(value, right - this.width(value, size, bold), y, size, bold);
  }

  /**
   * Fits `value` into `maxWidth`: at `size` when it fits, else at the largest size down to `minSize` that
   * does, else at `minSize` cut short with an ellipsis. Nothing drawn after it on the line is overprinted.
   */
  fittedText(value: string, x: number, y: number, maxWidth: number, size: number, minSize: number, bold = false): void {
    const widthAt = (text: string, at: number) => this.width(text, at, bold);
    const fitting = Math.min(size, Math.floor((size * maxWidth) / Math.max(widthAt(value, size), 1) * 2) / 2);
    if (fitting >= minSize) return this.text(value, x, y, fitting, bold);
    let shown = value;
    while (shown.length > 1 && widthAt(`${shown}\u2026`, minSize) > maxWidth) shown = shown.slice(0, -1);
    this.text(`${shown.trimEnd()}\u2026`, x, y, minSize, bold);
  }

  rule(y: number, thickness: number): void {
    this.parts.push(`${n(MARGIN)} ${n(y - thickness / 2)} ${n(LABEL_WIDTH - 2 * MARGIN)} ${n(thickness)} re f`);
  }

  rect(x: number, y: number, width: number, height: number): void {
    this.parts.push(`${n(x)} ${n(y)} ${n(width)} ${n(height)} re`);
  }

  fill(): void {
    this.parts.push("f");
  }

  toString(): string {
    return `0 g\n${this.parts.join("\n")}\n`;
  }
}

function drawLabel(page: PageContent, label: LabelData): void {
  const right = LABEL_WIDTH - MARGIN;
  let y = LABEL_HEIGHT - MARGIN - 14;
  // The zone ends at the right margin; the carrier's name takes what is left of the line (smaller when long).
  const zone = `ZONE ${label.zone}`;
  page.rightText(zone, right, y, 11, true);
  page.fittedText(label.carrierLabel.toUpperCase(), MARGIN, y, right - page.width(zone, 11, true) - ZONE_GAP - MARGIN, 14, 8, true);
  y -= 16;
  page.text(label.serviceLabel, MARGIN, y, 11);
  y -= 8;
  page.rule(y, 1.5);

  y -= 12;
  page.text("FROM", MARGIN, y, 7, true);
  page.text(`SHIP DATE ${label.shipmentDate}`, right - 110, y, 7);
  for (const line of addressLines(label.sender)) {
    y -= 9;
    page.text(line, MARGIN, y, 8);
  }
  if (label.sender.phone) {
    y -= 9;
    page.text(label.sender.phone, MARGIN, y, 8);
  }
  y -= 8;
  page.rule(y, 0.75);

  y -= 14;
  page.text("SHIP TO", MARGIN, y, 8, true);
  for (const [index, line] of addressLines(label.receiver).entries()) {
    y -= 14;
    page.text(line, MARGIN + 8, y, index === 0 ? 12 : 11, index === 0);
  }
  if (label.receiver.phone) {
    y -= 13;
    page.text(label.receiver.phone, MARGIN + 8, y, 10);
  }
  y -= 10;
  page.rule(y, 1.5);

  y -= 12;
  page.text(`WEIGHT ${label.weight}   PIECES ${label.pieceCount}`, MARGIN, y, 8, true);
  page.text(`BOOK ${label.bookNumber}`, right - 110, y, 8);
  for (const reference of label.references.slice(0, 3)) {
    y -= 10;
    page.text(`REF ${reference}`, MARGIN, y, 8);
  }

  // Barcode: as wide as fits (at most 2 pt per module), one inch tall, the number in text below.
  const { bars, modules } = barsOf(encodeCode128(label.trackingNumber));
  const quietZone = 10;
  const module = Math.min(2, (LABEL_WIDTH - 2 * MARGIN - 2 * quietZone) / modules);
  const left = (LABEL_WIDTH - module * modules) / 2;
  const barBottom = MARGIN + 26;
  page.text("TRACKING #", MARGIN, barBottom + 82, 8, true);
  for (const bar of bars) page.rect(left + bar.x * module, barBottom, bar.width * module, 72);
  page.fill();
  page.centredText(label.trackingNumber, MARGIN + 10, 11, true);
}

/**
 * One 4×6 page per label, in the given order, all drawn into a single document (faster and smaller
 * than merging per-label PDFs). Metadata dates come from the labels, so the bytes are deterministic.
 */
export async function renderLabelsPdf(labels: readonly LabelData[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = doc.embedStandardFont(StandardFonts.Helvetica);
  const bold = doc.embedStandardFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, charset: new Set(regular.getCharacterSet()) };
  const created = new Date(labels[0]?.bookedAt ?? 0);
  doc.setCreationDate(created);
  doc.setModificationDate(created);
  doc.setProducer("Consign Shipping API");
  doc.setTitle(labels.length === 1 ? `Label ${labels[0]!.trackingNumber}` : `${labels.length} labels`);
  for (const label of labels) {
    const page = doc.addPage([LABEL_WIDTH, LABEL_HEIGHT]);
    useFont(page.node, "FR", regular.ref);
    useFont(page.node, "FB", bold.ref);
    const content = new PageContent(fonts);
    drawLabel(content, label);
    page.node.addContentStream(doc.context.register(doc.context.flateStream(content.toString())));
  }
  return doc.save({ useObjectStreams: true });
}

function useFont(node: { setFontDictionary(name: PDFName, ref: PDFRef): void }, name: string, ref: PDFRef): void {
  node.setFontDictionary(PDFName.of(name), ref);
}
