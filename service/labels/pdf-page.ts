import type { PDFFont } from "pdf-lib";

/** 4 × 6 inches at 72 points per inch: labels and the commercial invoice pages printed with them. */
export const LABEL_WIDTH = 288;
export const LABEL_HEIGHT = 432;
export const MARGIN = 14;
/** The most characters one text run prints; longer text is cut. */
const MAX_CHARACTERS = 60;

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Characters the standard fonts' WinAnsi encoding can show. */
  charset: Set<number>;
}

/**
 * The standard 14 fonts are not embedded (tiny files) but only cover WinAnsi, so anything else a
 * customer typed (say, CJK names) is shown as "?" rather than failing the label.
 */
function printable(fonts: Fonts, text: string, maxLength = MAX_CHARACTERS): string {
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
export class PageContent {
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
    const fitting = Math.min(size, Math.floor(((size * maxWidth) / Math.max(widthAt(value, size), 1)) * 2) / 2);
    if (fitting >= minSize) return this.text(value, x, y, fitting, bold);
    // Nothing past what one run prints can show, so the search starts there (descriptions run to 1,000 characters).
    let shown = value.slice(0, MAX_CHARACTERS);
    while (shown.length > 1 && widthAt(`${shown}\u2026`, minSize) > maxWidth) shown = shown.slice(0, -1);
    this.text(`${shown.trimEnd()}\u2026`, x, y, minSize, bold);
  }

  /** `value` broken into lines no wider than `maxWidth` at `size` (nor longer than a run prints), at word boundaries. */
  wrap(value: string, maxWidth: number, size: number): string[] {
    const lines: string[] = [];
    let line = "";
    for (const word of value.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && (this.width(candidate, size) > maxWidth || candidate.length > MAX_CHARACTERS)) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line) lines.push(line);
    return lines;
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
