import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, decodePDFRawStream } from "pdf-lib";

/**
 * Reading back what a PDF drawn with PageContent prints, for tests: each page's size, its content stream and
 * its text, decoded through each font's ToUnicode map and measured with the widths embedded in the font, so
 * a test sees the characters and extents a viewer shows.
 */

export interface TextRun {
  text: string;
  size: number;
  x: number;
  y: number;
  width: number;
}

export interface PageText {
  width: number;
  height: number;
  content: string;
  runs: TextRun[];
}

interface FontReading {
  unicode: Map<number, string>;
  widths: Map<number, number>;
  defaultWidth: number;
}

function streamText(doc: PDFDocument, object: unknown): string {
  const stream = object instanceof PDFRef ? doc.context.lookup(object) : object;
  if (!(stream instanceof PDFRawStream)) throw new Error("expected a raw stream");
  return Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
}

function readFont(doc: PDFDocument, font: PDFDict): FontReading {
  const unicode = new Map<number, string>();
  const cmap = streamText(doc, font.get(PDFName.of("ToUnicode")));
  for (const [, glyph, codes] of cmap.matchAll(/<([0-9a-fA-F]{4})> <([0-9a-fA-F]+)>/g)) {
    const units = codes!.match(/.{4}/g)!.map((unit) => parseInt(unit, 16));
    unicode.set(parseInt(glyph!, 16), String.fromCharCode(...units));
  }
  const descendant = doc.context.lookup(font.lookup(PDFName.of("DescendantFonts"), PDFArray).get(0), PDFDict);
  const widths = new Map<number, number>();
  const w = descendant.lookupMaybe(PDFName.of("W"), PDFArray)?.asArray() ?? [];
  for (let index = 0; index < w.length;) {
    const first = (w[index] as PDFNumber).asNumber();
    const next = w[index + 1];
    if (next instanceof PDFArray) {
      next.asArray().forEach((value, offset) => widths.set(first + offset, (value as PDFNumber).asNumber()));
      index += 2;
    } else {
      const last = (next as PDFNumber).asNumber();
      for (let cid = first; cid <= last; cid++) widths.set(cid, (w[index + 2] as PDFNumber).asNumber());
      index += 3;
    }
  }
  const defaultWidth = descendant.lookupMaybe(PDFName.of("DW"), PDFNumber)?.asNumber() ?? 1000;
  return { unicode, widths, defaultWidth };
}

/** Every page's size, content and text, in drawing order; runs drawn end to end on one line are one run. */
export async function readPages(pdf: Uint8Array): Promise<PageText[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
    const content = streams.map((stream) => streamText(doc, stream)).join("\n");
    const fontDict = page.node.Resources()?.lookupMaybe(PDFName.of("Font"), PDFDict);
    const fonts = new Map<string, FontReading>();
    for (const [name, ref] of fontDict?.entries() ?? []) fonts.set(name.decodeText(), readFont(doc, doc.context.lookup(ref, PDFDict)));
    const runs: TextRun[] = [];
    for (const [, fontName, size, x, y, hex] of content.matchAll(/BT \/(\S+) ([\d.]+) Tf (-?[\d.]+) (-?[\d.]+) Td <([0-9A-Fa-f]*)> Tj ET/g)) {
      const font = fonts.get(fontName!);
      if (!font) throw new Error(`font ${fontName} is not in the page's resources`);
      const glyphs = (hex!.match(/.{4}/g) ?? []).map((code) => parseInt(code, 16));
      const run = {
        // Glyph 0 is the font's "missing" box: the character was not in any font.
        text: glyphs.map((glyph) => (glyph === 0 ? "\uFFFD" : (font.unicode.get(glyph) ?? "\uFFFD"))).join(""),
        size: Number(size),
        x: Number(x),
        y: Number(y),
        width: glyphs.reduce((sum, glyph) => sum + (font.widths.get(glyph) ?? font.defaultWidth), 0) * (Number(size) / 1000),
      };
      const previous = runs.at(-1);
      if (previous && previous.y === run.y && previous.size === run.size && Math.abs(previous.x + previous.width - run.x) < 0.02) {
        previous.text += run.text;
        previous.width = run.x + run.width - previous.x;
      } else runs.push(run);
    }
    const { width, height } = page.getSize();
    return { width, height, content, runs };
  });
}

/** The text of every page, page by page, in drawing order. */
export async function pageTexts(pdf: Uint8Array): Promise<string[][]> {
  return (await readPages(pdf)).map((page) => page.runs.map((run) => run.text));
}

/**
 * Text that runs off its page (outside the page's box less `margin`) or is cut short with an ellipsis:
 * empty when every run is whole and on its page. The glyph box is taken as the size above the baseline and
 * a quarter of it below.
 */
export function textOffPage(pages: readonly PageText[], margin = 0): string[] {
  return pages.flatMap((page, index) =>
    page.runs.flatMap((run) => {
      const problems: string[] = [];
      if (run.x < margin - 0.01 || run.x + run.width > page.width - margin + 0.01) problems.push("runs off the side");
      if (run.y - run.size / 4 < margin - 0.01 || run.y + run.size > page.height - margin + 0.01) problems.push("runs off the top or bottom");
      if (run.text.includes("\u2026")) problems.push("is cut with an ellipsis");
      if (run.text.includes("\uFFFD")) problems.push("has a character the font could not show");
      return problems.map((problem) => `page ${index + 1}: "${run.text}" at ${run.x.toFixed(1)},${run.y.toFixed(1)} size ${run.size} ${problem}`);
    }),
  );
}
