import { crc32, deflateSync } from "node:zlib";
import { barsOf, encodeCode128 } from "./code128";
import type { LabelData } from "./label-data";
import { DOTS_HIGH, DOTS_WIDE, roomOf, thermalLayout } from "./thermal-layout";
import { type TextBitmap, fittingSizeDots, rasterText } from "../../lib/pdf/raster-text";

/**
 * PNG labels (the e-commerce carrier's thermal format): 4×6 in at 203 dpi, 1-bit greyscale. Text is drawn with
 * the documents' fonts (lib/pdf/raster-text.ts), every script as written, shrunk to fit its room.
 */
export const PNG_WIDTH = DOTS_WIDE;
export const PNG_HEIGHT = DOTS_HIGH;

class Bitmap {
  /** One byte per dot, 1 = black. Packed to 1 bit per dot when encoded. */
  readonly dots = new Uint8Array(PNG_WIDTH * PNG_HEIGHT);

  fill(x: number, y: number, width: number, height: number): void {
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(PNG_WIDTH, Math.round(x + width));
    for (let row = Math.max(0, Math.round(y)); row < Math.min(PNG_HEIGHT, Math.round(y + height)); row++)
      this.dots.fill(1, row * PNG_WIDTH + x0, row * PNG_WIDTH + x1);
  }

  /** A text bitmap with its top-left at (x, y). */
  draw(text: TextBitmap, x: number, y: number): void {
    for (let row = 0; row < text.height; row++) {
      const target = y + row;
      if (target < 0 || target >= PNG_HEIGHT) continue;
      for (let column = 0; column < text.width; column++) {
        const left = x + column;
        if (left >= 0 && left < PNG_WIDTH && text.dots[row * text.width + column] === 1) this.dots[target * PNG_WIDTH + left] = 1;
      }
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

/** The label of the shipment's first piece: a PNG is one image, and the carrier that prints PNG takes one piece per shipment. */
export function renderPng(label: LabelData): Buffer {
  const bitmap = new Bitmap();
  const layout = thermalLayout(label);
  for (const rule of layout.rules) bitmap.fill(rule.x, rule.y, rule.width, rule.thickness);
  for (const text of layout.texts) bitmap.draw(rasterText(text.value, fittingSizeDots(text.value, roomOf(text), text.height)), text.x, text.y);
  const { barcode } = layout;
  const { bars, modules } = barsOf(encodeCode128(barcode.data));
  const module = Math.max(1, Math.min(4, Math.floor((PNG_WIDTH - 2 * barcode.x) / modules)));
  const left = Math.round((PNG_WIDTH - module * modules) / 2);
  for (const bar of bars) bitmap.fill(left + bar.x * module, barcode.y, bar.width * module, barcode.height);
  const number = rasterText(barcode.data, fittingSizeDots(barcode.data, PNG_WIDTH - 60, 36));
  bitmap.draw(number, Math.round((PNG_WIDTH - number.width) / 2), barcode.y + barcode.height + 12);
  return encodePng(bitmap);
}
