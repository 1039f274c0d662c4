import { type Weight, faceRuns } from "./fonts";

/**
 * Text drawn into printer dots with the documents' own fonts (fonts.ts: Noto Sans, JP, SC, KR), for the
 * thermal labels: a label printer's resident fonts and the PNG label's dot font have Latin letters only, so a
 * name in Polish, Greek, Cyrillic, Japanese, Chinese or Korean is sent to the printer as a picture of itself
 * (ZPL ^GF, EPL2 GW, the PNG's own dots). Glyph outlines are filled by scan line (non-zero winding), a dot black
 * when its centre is inside; curves are flattened to short lines.
 */

/** A 1-bit picture of a line of text, row by row from the top; 1 is a black dot. */
export interface TextBitmap {
  width: number;
  height: number;
  /** Dots from the top of the bitmap to the text's baseline. */
  baseline: number;
  dots: Uint8Array;
}

/** Above and below the baseline, as fractions of the size: room for accents over capitals and for descenders. */
const ASCENT = 1.08;
const DESCENT = 0.3;

/** How many dots wide `value` prints at `size` dots to the em. */
export function textWidthDots(value: string, size: number, weight: Weight = "regular"): number {
  let units = 0;
  for (const run of faceRuns(value, weight)) {
    let runUnits = 0;
    for (const char of run.text) runUnits += run.font.glyphForCodePoint(char.codePointAt(0)!).advanceWidth;
    units += (runUnits * size) / run.font.unitsPerEm;
  }
  return Math.ceil(units);
}

/** The size (dots to the em), from `size` down, at which `value` fits `maxWidth` dots: shrunk, never cut. */
export function fittingSizeDots(value: string, maxWidth: number, size: number, weight: Weight = "regular"): number {
  const width = textWidthDots(value, size, weight);
  return width <= maxWidth ? size : Math.max(1, Math.floor((size * maxWidth) / width));
}

interface Edge {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** `value` at `size` dots to the em as a bitmap as wide as the text. */
export function rasterText(value: string, size: number, weight: Weight = "regular"): TextBitmap {
  const baseline = Math.ceil(size * ASCENT);
  const height = baseline + Math.ceil(size * DESCENT);
  const edges: Edge[] = [];
  let pen = 0;
  for (const run of faceRuns(value, weight)) {
    const scale = size / run.font.unitsPerEm;
    for (const char of run.text) {
      const glyph = run.font.glyphForCodePoint(char.codePointAt(0)!);
      const origin = pen;
      const point = (x: number, y: number) => ({ x: origin + x * scale, y: baseline - y * scale });
      let start = { x: 0, y: 0 };
      let at = { x: 0, y: 0 };
      const line = (to: { x: number; y: number }) => {
        if (to.y !== at.y) edges.push({ x0: at.x, y0: at.y, x1: to.x, y1: to.y });
        at = to;
      };
      // Enough steps that a curve's chords are within about a tenth of a dot of it at these sizes.
      const steps = Math.max(4, Math.min(16, Math.ceil(size / 4)));
      glyph.path.toFunction()({
        moveTo: (x: number, y: number) => {
          if (at.x !== start.x || at.y !== start.y) line(start);
          start = at = point(x, y);
        },
        lineTo: (x: number, y: number) => line(point(x, y)),
        quadraticCurveTo: (cx: number, cy: number, x: number, y: number) => {
          const from = at;
          const control = point(cx, cy);
          const to = point(x, y);
          for (let step = 1; step <= steps; step++) {
            const t = step / steps;
            const u = 1 - t;
            line({ x: u * u * from.x + 2 * u * t * control.x + t * t * to.x, y: u * u * from.y + 2 * u * t * control.y + t * t * to.y });
          }
        },
        bezierCurveTo: (c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number) => {
          const from = at;
          const [c1, c2, to] = [point(c1x, c1y), point(c2x, c2y), point(x, y)];
          for (let step = 1; step <= steps; step++) {
            const t = step / steps;
            const u = 1 - t;
            line({
              x: u * u * u * from.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * to.x,
              y: u * u * u * from.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * to.y,
            });
          }
        },
        closePath: () => line(start),
      } as unknown as CanvasRenderingContext2D);
      if (at.x !== start.x || at.y !== start.y) line(start);
      pen += glyph.advanceWidth * scale;
    }
  }
  const width = Math.max(1, Math.ceil(pen));
  const dots = new Uint8Array(width * height);
  for (let row = 0; row < height; row++) {
    const y = row + 0.5;
    const crossings: Array<{ x: number; winding: number }> = [];
    for (const edge of edges) {
      const [top, bottom] = edge.y0 < edge.y1 ? [edge.y0, edge.y1] : [edge.y1, edge.y0];
      if (y < top || y >= bottom) continue;
      crossings.push({ x: edge.x0 + ((y - edge.y0) * (edge.x1 - edge.x0)) / (edge.y1 - edge.y0), winding: edge.y1 > edge.y0 ? 1 : -1 });
    }
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    for (let index = 0; index < crossings.length - 1; index++) {
      winding += crossings[index]!.winding;
      if (winding === 0) continue;
      // Dots whose centres lie between this crossing and the next.
      const from = Math.max(0, Math.ceil(crossings[index]!.x - 0.5));
      const to = Math.min(width - 1, Math.floor(crossings[index + 1]!.x - 0.5));
      for (let x = from; x <= to; x++) dots[row * width + x] = 1;
    }
  }
  return { width, height, baseline, dots };
}

/** The bitmap's rows packed 8 dots to a byte, the leftmost dot in the high bit; `black` is the bit a black dot takes. */
export function packRows(bitmap: TextBitmap, black: 0 | 1): { bytesPerRow: number; bytes: Uint8Array } {
  const bytesPerRow = Math.ceil(bitmap.width / 8);
  const bytes = new Uint8Array(bytesPerRow * bitmap.height).fill(black === 1 ? 0 : 0xff);
  for (let row = 0; row < bitmap.height; row++) {
    for (let x = 0; x < bitmap.width; x++) {
      if (bitmap.dots[row * bitmap.width + x] !== 1) continue;
      const index = row * bytesPerRow + (x >> 3);
      bytes[index] = black === 1 ? bytes[index]! | (0x80 >> (x & 7)) : bytes[index]! & ~(0x80 >> (x & 7));
    }
  }
  return { bytesPerRow, bytes };
}
