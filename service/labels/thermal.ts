import { type LabelData, addressLines } from "./label-data";

/**
 * Thermal printer labels (4×6 in at 203 dpi = 812 × 1218 dots). The printer draws the barcode itself
 * from the command (ZPL ^BC, EPL2 B with type 1 = Code 128).
 */

/** ZPL treats ^ and ~ as command prefixes; field data must not contain them. */
function zplField(value: string): string {
  return value.replace(/[\^~]/g, " ").slice(0, 60);
}

export function renderZpl(label: LabelData): string {
  const lines: string[] = ["^XA", "^CI28", "^PW812", "^LL1218", "^LH0,0"];
  const field = (x: number, y: number, size: number, value: string) => lines.push(`^FO${x},${y}^A0N,${size},${size}^FD${zplField(value)}^FS`);
  field(30, 30, 48, label.carrierLabel.toUpperCase());
  field(600, 30, 36, `ZONE ${label.zone}`);
  field(30, 90, 34, label.serviceLabel);
  lines.push("^FO30,135^GB752,4,4^FS");
  field(30, 150, 24, "FROM");
  addressLines(label.sender).forEach((line, index) => field(30, 180 + index * 28, 24, line));
  lines.push("^FO30,360^GB752,2,2^FS");
  field(30, 380, 28, "SHIP TO");
  addressLines(label.receiver).forEach((line, index) => field(50, 420 + index * 40, 36, line));
  lines.push("^FO30,680^GB752,4,4^FS");
  field(30, 700, 26, `WEIGHT ${label.weight}  PIECES ${label.pieceCount}  SHIP DATE ${label.shipmentDate}`);
  field(30, 735, 26, `BOOK ${label.bookNumber}`);
  label.references.slice(0, 2).forEach((reference, index) => field(30, 770 + index * 32, 26, `REF ${reference}`));
  // ^BY module width 3 dots; ^BC Code 128, 220 dots tall, human-readable line below; ">:" starts in set B.
  lines.push("^FO60,880^BY3,3,220^BCN,220,Y,N,N^FD>:" + zplField(label.trackingNumber) + "^FS");
  lines.push("^PQ1", "^XZ");
  return lines.join("\n") + "\n";
}

/** EPL2 strings are double-quoted; a literal quote or backslash is escaped with a backslash. */
function eplString(value: string): string {
  return `"${value.slice(0, 60).replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

export function renderEpl2(label: LabelData): string {
  const lines: string[] = ["", "N", "q812", "Q1218,24", "S4", "D10", "ZT"];
  const textLine = (x: number, y: number, font: number, value: string) => lines.push(`A${x},${y},0,${font},1,1,N,${eplString(value)}`);
  textLine(30, 30, 5, label.carrierLabel.toUpperCase());
  textLine(30, 100, 4, label.serviceLabel);
  textLine(600, 40, 4, `ZONE ${label.zone}`);
  lines.push("LO30,140,752,4");
  textLine(30, 160, 2, "FROM");
  addressLines(label.sender).forEach((line, index) => textLine(30, 185 + index * 25, 2, line));
  lines.push("LO30,360,752,2");
  textLine(30, 380, 3, "SHIP TO");
  addressLines(label.receiver).forEach((line, index) => textLine(50, 420 + index * 40, 4, line));
  lines.push("LO30,680,752,4");
  textLine(30, 700, 3, `WEIGHT ${label.weight}  PIECES ${label.pieceCount}  SHIP DATE ${label.shipmentDate}`);
  textLine(30, 735, 3, `BOOK ${label.bookNumber}`);
  label.references.slice(0, 2).forEach((reference, index) => textLine(30, 770 + index * 32, 3, `REF ${reference}`));
  // B x,y,rotation,barcode type 1 (Code 128 auto A/B/C),narrow 3,wide 6,height 220,human readable B,data
  lines.push(`B60,880,0,1,3,6,220,B,${eplString(label.trackingNumber)}`);
  lines.push("P1", "");
  return lines.join("\n");
}
