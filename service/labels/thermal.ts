import { fittingSizeDots, packRows, rasterText, textWidthDots } from "../../lib/pdf/raster-text";
import { type LabelData, labelPieces } from "./label-data";
import { DOTS_HIGH, DOTS_WIDE, type TextItem, type ThermalLayout, type ThermalPage, roomOf, thermalInvoicePages, thermalLayout } from "./thermal-layout";

/**
 * ZPL and EPL2 labels: the printer draws the Code 128 barcode itself from the command (ZPL ^BC, EPL2 B type 1),
 * and text in its resident font when the text is plain ASCII and fits. Any other text (Polish, Turkish, Greek,
 * Cyrillic, Japanese, Chinese, Korean, or a line too long for the resident font) is sent as a picture of itself
 * drawn with the documents' fonts (lib/pdf/raster-text.ts), shrunk to fit its room: as written, never "?", never cut.
 */

const PLAIN_ASCII = /^[\x20-\x7E]*$/;

/** ZPL treats ^ and ~ as command prefixes; field data must not contain them. */
function zplField(value: string): string {
  return value.replace(/[\^~]/g, " ");
}

/**
 * A bitmap as ZPL ^GF ASCII hex, each row compressed as ZPL allows: ":" repeats the row above, "," fills the
 * rest of the row with white.
 */
function zplGraphic(text: TextItem): string {
  const bitmap = rasterText(text.value, fittingSizeDots(text.value, roomOf(text), text.height));
  const { bytesPerRow, bytes } = packRows(bitmap, 1);
  const rows: string[] = [];
  let previous: string | null = null;
  for (let row = 0; row < bitmap.height; row++) {
    const hex = Buffer.from(bytes.subarray(row * bytesPerRow, (row + 1) * bytesPerRow))
      .toString("hex")
      .toUpperCase();
    if (hex === previous) rows.push(":");
    else {
      const trimmed = hex.replace(/0+$/, "");
      rows.push(trimmed.length < hex.length ? `${trimmed},` : hex);
    }
    previous = hex;
  }
  const total = bytesPerRow * bitmap.height;
  return `^FO${text.x},${text.y}^GFA,${total},${total},${bytesPerRow},${rows.join("")}^FS`;
}

function zplText(text: TextItem): string {
  if (PLAIN_ASCII.test(text.value) && textWidthDots(text.value, text.height) <= roomOf(text)) {
    return `^FO${text.x},${text.y}^A0N,${text.height},${text.height}^FD${zplField(text.value)}^FS`;
  }
  return zplGraphic(text);
}

function zplPage(page: ThermalPage, barcode: ThermalLayout["barcode"] | null): string[] {
  const lines = ["^XA", "^CI28", `^PW${DOTS_WIDE}`, `^LL${DOTS_HIGH}`, "^LH0,0"];
  for (const rule of page.rules) lines.push(`^FO${rule.x},${rule.y}^GB${rule.width},${rule.thickness},${rule.thickness}^FS`);
  for (const text of page.texts) lines.push(zplText(text));
  // ^BY module width 3 dots; ^BC Code 128 with the human-readable line below; ">:" starts in set B.
  if (barcode) lines.push(`^FO${barcode.x},${barcode.y}^BY3,3,${barcode.height}^BCN,${barcode.height},Y,N,N^FD>:${zplField(barcode.data)}^FS`);
  lines.push("^PQ1", "^XZ");
  return lines;
}

/**
 * One label per piece ("1 of 2", "2 of 2"), the first followed by its commercial invoice as further labels when
 * it has one: the order the PDF prints them in.
 */
function thermalPages<T>(label: LabelData, page: (page: ThermalPage, barcode: ThermalLayout["barcode"] | null) => T[]): T[] {
  return labelPieces(label).flatMap((piece) => {
    const layout = thermalLayout(label, piece);
    return [...page(layout, layout.barcode), ...(piece.index === 1 ? thermalInvoicePages(label).flatMap((invoice) => page(invoice, null)) : [])];
  });
}

export function renderZpl(label: LabelData): string {
  return `${thermalPages(label, zplPage).join("\n")}\n`;
}

/** EPL2 strings are double-quoted; a literal quote or backslash is escaped with a backslash. */
function eplString(value: string): string {
  return `"${value.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** EPL2 resident fonts 1–5 at 203 dpi: their height and the width of a character with its gap, in dots. */
const EPL_FONTS = [
  { height: 12, width: 10 },
  { height: 16, width: 12 },
  { height: 20, width: 14 },
  { height: 24, width: 16 },
  { height: 48, width: 34 },
];

/** The largest resident font that fits the height (1–5). */
function eplFont(height: number): number {
  return Math.max(1, EPL_FONTS.filter((font) => font.height <= height).length);
}

/** A line of text: in a resident font when plain ASCII that fits, else as a GW graphic (its bits 0 for black). */
function eplText(text: TextItem): string {
  const font = eplFont(text.height);
  if (PLAIN_ASCII.test(text.value) && text.value.length * EPL_FONTS[font - 1]!.width <= roomOf(text)) {
    return `A${text.x},${text.y},0,${font},1,1,N,${eplString(text.value)}`;
  }
  const bitmap = rasterText(text.value, fittingSizeDots(text.value, roomOf(text), text.height));
  const { bytesPerRow, bytes } = packRows(bitmap, 0);
  return `GW${text.x},${text.y},${bytesPerRow},${bitmap.height},${Buffer.from(bytes).toString("latin1")}`;
}

function eplPage(page: ThermalPage, barcode: ThermalLayout["barcode"] | null): string[] {
  const lines = ["", "N", `q${DOTS_WIDE}`, `Q${DOTS_HIGH},24`, "S4", "D10", "ZT"];
  for (const rule of page.rules) lines.push(`LO${rule.x},${rule.y},${rule.width},${rule.thickness}`);
  for (const text of page.texts) lines.push(eplText(text));
  // B x,y,rotation,type 1 (Code 128, auto subset),narrow 3,wide 6,height,human readable B,data
  if (barcode) lines.push(`B${barcode.x},${barcode.y},0,1,3,6,${barcode.height},B,${eplString(barcode.data)}`);
  lines.push("P1");
  return lines;
}

/** The EPL2 file as latin1 text: commands are ASCII, GW graphics raw bytes. */
export function renderEpl2(label: LabelData): string {
  return [...thermalPages(label, eplPage), ""].join("\n");
}
