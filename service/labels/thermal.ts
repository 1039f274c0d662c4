import { type LabelData, labelPieces } from "./label-data";
import { DOTS_HIGH, DOTS_WIDE, type ThermalLayout, type ThermalPage, thermalInvoicePages, thermalLayout } from "./thermal-layout";

/** ZPL and EPL2 labels: the printer draws the Code 128 barcode itself from the command (ZPL ^BC, EPL2 B type 1). */

/** ZPL treats ^ and ~ as command prefixes; field data must not contain them. */
function zplField(value: string): string {
  return value.replace(/[\^~]/g, " ").slice(0, 60);
}

function zplPage(page: ThermalPage, barcode: ThermalLayout["barcode"] | null): string[] {
  const lines = ["^XA", "^CI28", `^PW${DOTS_WIDE}`, `^LL${DOTS_HIGH}`, "^LH0,0"];
  for (const rule of page.rules) lines.push(`^FO${rule.x},${rule.y}^GB${rule.width},${rule.thickness},${rule.thickness}^FS`);
  for (const text of page.texts) lines.push(`^FO${text.x},${text.y}^A0N,${text.height},${text.height}^FD${zplField(text.value)}^FS`);
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
  return `"${value.slice(0, 60).replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** EPL2 resident fonts 1–5 are 12, 16, 20, 24 and 48 dots high: the largest that fits the height. */
function eplFont(height: number): number {
  const heights = [12, 16, 20, 24, 48];
  const fitting = heights.filter((dots) => dots <= height).length;
  return Math.max(1, fitting);
}

function eplPage(page: ThermalPage, barcode: ThermalLayout["barcode"] | null): string[] {
  const lines = ["", "N", `q${DOTS_WIDE}`, `Q${DOTS_HIGH},24`, "S4", "D10", "ZT"];
  for (const rule of page.rules) lines.push(`LO${rule.x},${rule.y},${rule.width},${rule.thickness}`);
  for (const text of page.texts) lines.push(`A${text.x},${text.y},0,${eplFont(text.height)},1,1,N,${eplString(text.value)}`);
  // B x,y,rotation,type 1 (Code 128, auto subset),narrow 3,wide 6,height,human readable B,data
  if (barcode) lines.push(`B${barcode.x},${barcode.y},0,1,3,6,${barcode.height},B,${eplString(barcode.data)}`);
  lines.push("P1");
  return lines;
}

export function renderEpl2(label: LabelData): string {
  return [...thermalPages(label, eplPage), ""].join("\n");
}
