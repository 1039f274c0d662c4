import { crc32, deflateSync } from "node:zlib";
import { barsOf, encodeCode128 } from "./code128";
import { type LabelData, addressLines } from "./label-data";

/**
 * PNG labels (the e-commerce carrier's thermal format): 4×6 in at 203 dpi, 1-bit greyscale. Text uses
 * a 5×7 dot font drawn here (upper-case, digits, common punctuation) because there is no font
 * rasteriser in the service; lower case is shown in upper case, anything else as "?".
 */
export const PNG_WIDTH = 812;
export const PNG_HEIGHT = 1218;

const GLYPHS: Readonly<Record<string, string>> = {
  "0": ".###./#...#/#..##/#.#.#/##..#/#...#/.###.", "1": "..#../.##../..#../..#../..#../..#../.###.",
  "2": ".###./#...#/....#/...#./..#../.#.../#####", "3": "#####/...#./..#../...#./....#/#...#/.###.",
  "4": "...#./..##./.#.#./#..#./#####/...#./...#.", "5": "#####/#..../####./....#/....#/#...#/.###.",
  "6": "..##./.#.../#..../####./#...#/#...#/.###.", "7": "#####/....#/...#./..#../.#.../.#.../.#...",
  "8": ".###./#...#/#...#/.###./#...#/#...#/.###.", "9": ".###./#...#/#...#/.####/....#/...#./.##..",
  A: ".###./#...#/#...#/#####/#...#/#...#/#...#", B: "####./#...#/#...#/####./#...#/#...#/####.",
  C: ".###./#...#/#..../#..../#..../#...#/.###.", D: "###../#..#./#...#/#...#/#...#/#..#./###..",
  E: "#####/#..../#..../####./#..../#..../#####", F: "#####/#..../#..../####./#..../#..../#....",
  G: ".###./#...#/#..../#.###/#...#/#...#/.####", H: "#...#/#...#/#...#/#####/#...#/#...#/#...#",
  I: ".###./..#../..#../..#../..#../..#../.###.", J: "..###/...#./...#./...#./...#./#..#./.##..",
  K: "#...#/#..#./#.#../##.../#.#../#..#./#...#", L: "#..../#..../#..../#..../#..../#..../#####",
  M: "#...#/##.##/#.#.#/#.#.#/#...#/#...#/#...#", N: "#...#/#...#/##..#/#.#.#/#..##/#...#/#...#",
  O: ".###./#...#/#...#/#...#/#...#/#...#/.###.", P: "####./#...#/#...#/####./#..../#..../#....",
  Q: ".###./#...#/#...#/#...#/#.#.#/#..#./.##.#", R: "####./#...#/#...#/####./#.#../#..#./#...#",
  S: ".####/#..../#..../.###./....#/....#/####.", T: "#####/..#../..#../..#../..#../..#../..#..",
  U: "#...#/#...#/#...#/#...#/#...#/#...#/.###.", V: "#...#/#...#/#...#/#...#/#...#/.#.#./..#..",
  W: "#...#/#...#/#...#/#.#.#/#.#.#/#.#.#/.#.#.", X: "#...#/#...#/.#.#./..#../.#.#./#...#/#...#",
  Y: "#...#/#...#/.#.#./..#../..#../..#../..#..", Z: "#####/....#/...#./..#../.#.../#..../#####",
  "-": "...../...../...../#####/...../...../.....", ".": "...../...../...../...../...../.##../.##..",
  ",": "...../...../...../...../.##../..#../.#...", "#": ".#.#./.#.#./#####/.#.#./#####/.#.#./.#.#.",
  "/": "...../....#/...#./..#../.#.../#..../.....", ":": "...../.##../.##../...../.##../.##../.....",
  "(": "...#./..#../.#.../.#.../.#.../..#../...#.", ")": ".#.../..#../...#./...#./...#./..#../.#...",
  "&": ".##../#..#./#.#../.#.../#.#.#/#..#./.##.#", "'": "..#../..#../.#.../...../...../...../.....",
  "?": ".###./#...#/....#/...#./..#../...../..#..", " ": "...../...../...../...../...../...../.....",
};

class Bitmap {
  /** One byte per dot, 1 = black. Packed to 1 bit per dot when encoded. */
  readonly dots = new Uint8Array(PNG_WIDTH * PNG_HEIGHT);

  fill(x: number, y: number, width: number, height: number): void {
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(PNG_WIDTH, Math.round(x + width));
    for (let row = Math.max(0, Math.round(y)); row < Math.min(PNG_HEIGHT, Math.round(y + height)); row++) this.dots.fill(1, row * PNG_WIDTH + x0, row * PNG_WIDTH + x1);
  }

  /** Text at (x, y) = top-left, each font dot drawn as scale × scale device dots. */
  text(value: string, x: number, y: number, scale: number): void {
    let left = x;
    for (const raw of value.toUpperCase()) {
      if (left + 5 * scale > PNG_WIDTH) break;
      const rows = (GLYPHS[raw] ?? GLYPHS["?"]!).split("/");
      rows.forEach((row, rowIndex) => {
        for (let column = 0; column < 5; column++) if (row[column] === "#") this.fill(left + column * scale, y + rowIndex * scale, scale, scale);
      });
      left += 6 * scale;
    }
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function encodePng(bitmap: Bitmap): Buffer {
  const rowBytes = Math.ceil(PNG_WIDTH / 8);
  const raw = Buffer.alloc((rowBytes + 1) * PNG_HEIGHT, 0);
  for (let y = 0; y < PNG_HEIGHT; y++) {
    const offset = y * (rowBytes + 1);
    raw[offset] = 0; // filter: none
    for (let x = 0; x < PNG_WIDTH; x++) {
      // Greyscale 1-bit: 1 is white, so white dots set their bit.
      if (bitmap.dots[y * PNG_WIDTH + x] === 0) raw[offset + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(PNG_WIDTH, 0);
  header.writeUInt32BE(PNG_HEIGHT, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter variants, no interlace
  const density = Buffer.alloc(9);
  density.writeUInt32BE(7992, 0); // 203 dpi in dots per metre
  density.writeUInt32BE(7992, 4);
  density[8] = 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("pHYs", density),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export function renderPng(label: LabelData): Buffer {
  const bitmap = new Bitmap();
  const margin = 30;
  // The carrier name shrinks to stay clear of the zone at the right.
  bitmap.text(label.carrierLabel, margin, 30, Math.max(2, Math.min(6, Math.floor(570 / (6 * Math.max(1, label.carrierLabel.length))))));
  bitmap.text(`ZONE ${label.zone}`, 620, 36, 4);
  bitmap.text(label.serviceLabel, margin, 90, 4);
  bitmap.fill(margin, 130, PNG_WIDTH - 2 * margin, 4);
  bitmap.text("FROM", margin, 150, 3);
  addressLines(label.sender).forEach((line, index) => bitmap.text(line, margin, 180 + index * 28, 3));
  bitmap.fill(margin, 360, PNG_WIDTH - 2 * margin, 2);
  bitmap.text("SHIP TO", margin, 380, 3);
  addressLines(label.receiver).forEach((line, index) => bitmap.text(line, margin + 20, 420 + index * 40, 4));
  bitmap.fill(margin, 680, PNG_WIDTH - 2 * margin, 4);
  bitmap.text(`WEIGHT ${label.weight}  PIECES ${label.pieceCount}  DATE ${label.shipmentDate}`, margin, 700, 3);
  bitmap.text(`BOOK ${label.bookNumber}`, margin, 735, 3);
  label.references.slice(0, 2).forEach((reference, index) => bitmap.text(`REF ${reference}`, margin, 770 + index * 30, 3));
  const { bars, modules } = barsOf(encodeCode128(label.trackingNumber));
  const module = Math.max(1, Math.min(4, Math.floor((PNG_WIDTH - 2 * margin - 40) / modules)));
  const left = Math.round((PNG_WIDTH - module * modules) / 2);
  for (const bar of bars) bitmap.fill(left + bar.x * module, 870, bar.width * module, 220);
  const textWidth = label.trackingNumber.length * 6 * 4;
  bitmap.text(label.trackingNumber, Math.max(margin, Math.round((PNG_WIDTH - textWidth) / 2)), 1110, 4);
  return encodePng(bitmap);
}
