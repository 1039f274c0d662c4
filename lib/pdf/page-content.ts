import { PDFDocument, PDFName } from "pdf-lib";
import { type DocumentFont, DocumentFonts, type Weight } from "./fonts";

/** Points per inch. */
export const INCH = 72;

export interface PageSize {
  width: number;
  height: number;
}

/** 4 × 6 inches: labels, and the invoices and packing slips printed on the same label printer. */
export const FOUR_BY_SIX: PageSize = { width: 4 * INCH, height: 6 * INCH };
export const LETTER: PageSize = { width: 8.5 * INCH, height: 11 * INCH };
export const A4: PageSize = { width: 595.28, height: 841.89 };

const n = (value: number) => (Math.round(value * 100) / 100).toString();
const weightOf = (bold: boolean): Weight => (bold ? "bold" : "regular");

/**
 * `value` broken into lines no wider than `maxWidth` as `width` measures them: at spaces, and inside a word only
 * when the word alone is wider (a long reference, or Chinese and Japanese, which are written without spaces).
 * Nothing is dropped: every word is on some line.
 */
export function wrapText(value: string, maxWidth: number, width: (text: string) => number): string[] {
  const lines: string[] = [];
  let line = "";
  const fits = (text: string) => width(text) <= maxWidth;
  for (const word of value.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const char of word) {
      if (line && !fits(line + char)) {
        lines.push(line);
        line = "";
      }
      line += char;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A page's content stream, written as PDF operators. pdf-lib's drawText/drawRectangle build an object per
 * operator, which for 500 labels × ~60 bars cost over a second and hundreds of MB; a string per page is the
 * same drawing at a fraction of the cost. Text is drawn in the document's embedded fonts (fonts.ts), so
 * every script prints as written; nothing is ever cut short: text that does not fit shrinks or wraps.
 */
export class PageContent {
  private readonly parts: string[] = [];
  private readonly used = new Map<string, DocumentFont>();

  constructor(
    private readonly fonts: DocumentFonts,
    readonly size: PageSize,
    readonly margin: number,
  ) {}

  get right(): number {
    return this.size.width - this.margin;
  }

  text(value: string, x: number, y: number, size: number, bold = false): void {
    let left = x;
    for (const segment of this.fonts.segments(value, weightOf(bold))) {
      const { resourceName, pdfFont } = segment.font;
      this.used.set(resourceName, segment.font);
      this.parts.push(`BT /${resourceName} ${n(size)} Tf ${n(left)} ${n(y)} Td ${pdfFont.encodeText(segment.text).toString()} Tj ET`);
      left += pdfFont.widthOfTextAtSize(segment.text, size);
    }
  }

  /** How wide `value` prints at `size`, in points. */
  width(value: string, size: number, bold = false): number {
    return this.fonts.width(value, size, weightOf(bold));
  }

  centredText(value: string, y: number, size: number, bold = false): void {
    this.text(value, (this.size.width - this.width(value, size, bold)) / 2, y, size, bold);
  }

  /** Ends at `right`. */
  rightText(value: string, right: number, y: number, size: number, bold = false): void {
    this.text(value, right - this.width(value, size, bold), y, size, bold);
  }

  /** The size, from `size` down in half points, at which `value` fits `maxWidth` (whatever that takes). */
  fittingSize(value: string, maxWidth: number, size: number, bold = false): number {
    const full = this.width(value, size, bold);
    if (full <= maxWidth) return size;
    return Math.floor(((size * maxWidth) / full) * 20) / 20;
  }

  /** `value` on one line within `maxWidth`: at `size` when it fits, else as much smaller as it takes. */
  fittedText(value: string, x: number, y: number, maxWidth: number, size: number, bold = false): void {
    this.text(value, x, y, this.fittingSize(value, maxWidth, size, bold), bold);
  }

  /**
   * `value` within `maxWidth`, top line at `y`: on one line at `size`, else one line at a size down to
   * `minSize`, else wrapped at `minSize` onto as many lines as it takes. Returns the lines' baselines'
   * last y, so the caller carries on below it.
   */
  block(value: string, x: number, y: number, maxWidth: number, size: number, minSize: number, bold = false, leading = 1.2): number {
    const lines = this.fit(value, maxWidth, size, minSize, bold);
    lines.lines.forEach((line, index) => this.text(line, x, y - index * lines.size * leading, lines.size, bold));
    return y - (lines.lines.length - 1) * lines.size * leading;
  }

  /** The lines and size `block` would draw `value` in. */
  fit(value: string, maxWidth: number, size: number, minSize: number, bold = false): { lines: string[]; size: number } {
    const fitting = this.fittingSize(value, maxWidth, size, bold);
    if (fitting >= minSize) return { lines: [value], size: fitting };
    return { lines: this.wrap(value, maxWidth, minSize, bold), size: minSize };
  }

  /**
   * `value` broken into lines no wider than `maxWidth` at `size`: at spaces, and inside a word only when the
   * word alone is wider (a long reference, or Chinese and Japanese, which are written without spaces).
   */
  wrap(value: string, maxWidth: number, size: number, bold = false): string[] {
    return wrapText(value, maxWidth, (text) => this.width(text, size, bold));
  }

  /** A horizontal rule across the page between the margins. */
  rule(y: number, thickness: number, left = this.margin, right = this.right): void {
    this.parts.push(`${n(left)} ${n(y - thickness / 2)} ${n(right - left)} ${n(thickness)} re f`);
  }

  rect(x: number, y: number, width: number, height: number): void {
    this.parts.push(`${n(x)} ${n(y)} ${n(width)} ${n(height)} re`);
  }

  /** An outlined box (a tick box on a pick list). */
  strokeRect(x: number, y: number, width: number, height: number, thickness: number): void {
    this.parts.push(`${n(thickness)} w ${n(x)} ${n(y)} ${n(width)} ${n(height)} re S`);
  }

  fill(): void {
    this.parts.push("f");
  }

  /** The fonts this page draws with, by resource name. */
  fontsUsed(): DocumentFont[] {
    return [...this.used.values()];
  }

  toString(): string {
    return `0 g\n${this.parts.join("\n")}\n`;
  }
}

export interface DocumentInfo {
  title: string;
  producer: string;
  /** The document's creation and modification date: fixed by the caller, so the same input gives the same bytes. */
  created: Date;
}

/** A PDF built page by page from PageContent, with its fonts embedded and subset when saved. */
export class PdfBuilder {
  private constructor(
    private readonly doc: PDFDocument,
    readonly fonts: DocumentFonts,
  ) {}

  static async create(info: DocumentInfo): Promise<PdfBuilder> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setCreationDate(info.created);
    doc.setModificationDate(info.created);
    doc.setProducer(info.producer);
    doc.setTitle(info.title);
    return new PdfBuilder(doc, new DocumentFonts(doc));
  }

  page(size: PageSize, margin: number): PageContent {
    return new PageContent(this.fonts, size, margin);
  }

  add(content: PageContent): void {
    const page = this.doc.addPage([content.size.width, content.size.height]);
    for (const font of content.fontsUsed()) page.node.setFontDictionary(PDFName.of(font.resourceName), font.pdfFont.ref);
    page.node.addContentStream(this.doc.context.register(this.doc.context.flateStream(content.toString())));
  }

  /** The pages of another PDF (a label from the Shipping API), appended as they are: every page, or those at `pages` (0-based). */
  async addPdf(pdf: Uint8Array, pages?: (pageCount: number) => number[]): Promise<void> {
    const source = await PDFDocument.load(pdf);
    const indices = pages ? pages(source.getPageCount()) : source.getPageIndices();
    for (const page of await this.doc.copyPages(source, indices)) this.doc.addPage(page);
  }

  async save(): Promise<Uint8Array> {
    await this.fonts.finish();
    return this.doc.save({ useObjectStreams: true });
  }
}
