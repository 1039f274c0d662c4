import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit, { type Font } from "@pdf-lib/fontkit";
import { CustomFontSubsetEmbedder, type PDFDocument, PDFFont, PDFHexString } from "pdf-lib";

/**
 * The fonts every printed document (labels, commercial invoices, packing slips, pick lists) draws with:
 * Noto Sans for Latin (with Polish, Turkish and the rest of Latin Extended), Greek and Cyrillic, then Noto
 * Sans JP, SC and KR for Japanese, Chinese and Korean, all from the npm registry (`@expo-google-fonts/*`,
 * TrueType outlines, SIL Open Font License). Each character is drawn with the first font that has it, so a
 * Japanese address is in Japanese shapes and a Chinese character Japanese lacks comes from SC.
 *
 * A document embeds only the fonts its text uses, each subset to the glyphs it draws (a 4×6 label in
 * Latin carries about 10 KB of font, one in Japanese about 20 KB more). A font file is read and parsed once
 * per process, when a document first needs it; the CJK files (5–10 MB each) are never read for a batch
 * whose text is Latin, Greek and Cyrillic only.
 */

export type Weight = "regular" | "bold";

interface Face {
  name: string;
  files: Record<Weight, string>;
}

const FACES: readonly Face[] = [
  { name: "NotoSans", files: { regular: "noto-sans/400Regular/NotoSans_400Regular.ttf", bold: "noto-sans/700Bold/NotoSans_700Bold.ttf" } },
  { name: "NotoSansJP", files: { regular: "noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf", bold: "noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf" } },
  { name: "NotoSansSC", files: { regular: "noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf", bold: "noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf" } },
  { name: "NotoSansKR", files: { regular: "noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf", bold: "noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf" } },
];

const require = createRequire(import.meta.url);
const parsed = new Map<string, { font: Font; bytes: Uint8Array }>();

function load(face: Face, weight: Weight): { font: Font; bytes: Uint8Array } {
  const file = face.files[weight];
  let entry = parsed.get(file);
  if (!entry) {
    const bytes = readFileSync(require.resolve(`@expo-google-fonts/${file}`));
    entry = { font: fontkit.create(bytes), bytes };
    parsed.set(file, entry);
  }
  return entry;
}

/** Which face draws a code point: the first that has it, else the first face (which shows its "missing" box). */
function faceIndexFor(codePoint: number, weight: Weight): number {
  for (let index = 0; index < FACES.length; index++) {
    if (load(FACES[index]!, weight).font.hasGlyphForCodePoint(codePoint)) return index;
  }
  return 0;
}

/** Code points that are not drawn: controls and format characters (zero-width joiners, bidi marks). */
const INVISIBLE = /[\p{Cc}\p{Cf}]/gu;

/** Which face draws each character, by weight and character (spaces and punctuation follow their run). */
const faceCache = new Map<string, number>();

/**
 * `text` cut into runs that one face draws each, in order: each character in the first face that has it, a
 * space or punctuation keeping its run's face, so "山田 太郎" is one run. The PDF documents embed these faces
 * (DocumentFonts), the thermal labels rasterise them (raster-text.ts).
 */
export function faceRuns(text: string, weight: Weight): Array<{ faceIndex: number; text: string; font: Font }> {
  const runs: Array<{ faceIndex: number; text: string; font: Font }> = [];
  let current: { faceIndex: number; text: string; font: Font } | null = null;
  for (const char of text.replace(INVISIBLE, "")) {
    const cacheKey = `${weight}${char}`;
    let faceIndex = faceCache.get(cacheKey);
    if (faceIndex === undefined) {
      faceIndex =
        current && /[\s\p{P}]/u.test(char) && load(FACES[current.faceIndex]!, weight).font.hasGlyphForCodePoint(char.codePointAt(0)!)
          ? current.faceIndex
          : faceIndexFor(char.codePointAt(0)!, weight);
      if (!/[\s\p{P}]/u.test(char)) faceCache.set(cacheKey, faceIndex);
    }
    if (current && current.faceIndex === faceIndex) current.text += char;
    else {
      if (current) runs.push(current);
      current = { faceIndex, text: char, font: load(FACES[faceIndex]!, weight).font };
    }
  }
  if (current) runs.push(current);
  return runs;
}

export interface Segment {
  text: string;
  font: DocumentFont;
}

/** One font embedded in one document, under the resource name pages use for it. */
export interface DocumentFont {
  resourceName: string;
  pdfFont: PDFFont;
}

/**
 * The fonts of one PDF document. Fonts are embedded on first use, synchronously, so drawing code stays
 * synchronous; `finish()` writes their subsets before the document is saved.
 */
export class DocumentFonts {
  private readonly embedded = new Map<string, DocumentFont>();

  constructor(private readonly doc: PDFDocument) {}

  /** Every font embedded so far, for a page's resources. */
  all(): DocumentFont[] {
    return [...this.embedded.values()];
  }

  private font(faceIndex: number, weight: Weight): DocumentFont {
    const key = `${faceIndex}-${weight}`;
    let font = this.embedded.get(key);
    if (!font) {
      const face = FACES[faceIndex]!;
      const { font: parsedFont, bytes } = load(face, weight);
      // The embedder pdf-lib's embedFont would build, built here so that embedding needs no await mid-page.
      const embedder = new (CustomFontSubsetEmbedder as unknown as new (font: Font, bytes: Uint8Array) => CustomFontSubsetEmbedder)(parsedFont, bytes);
      padGlyphs(embedder);
      encodeByCharacter(embedder, parsedFont);
      font = { resourceName: `F${this.embedded.size}`, pdfFont: PDFFont.of(this.doc.context.nextRef(), this.doc, embedder) };
      this.embedded.set(key, font);
    }
    return font;
  }

  /** `text` cut into runs that one font draws each, in order. */
  segments(text: string, weight: Weight): Segment[] {
    return faceRuns(text, weight).map((run) => ({ text: run.text, font: this.font(run.faceIndex, weight) }));
  }

  /** How wide `text` prints at `size`, in points. */
  width(text: string, size: number, weight: Weight): number {
    return this.segments(text, weight).reduce((sum, segment) => sum + segment.font.pdfFont.widthOfTextAtSize(segment.text, size), 0);
  }

  /** Writes each font's subset into the document; call once, before saving. */
  async finish(): Promise<void> {
    for (const font of this.embedded.values()) await font.pdfFont.embed();
  }
}

interface TrueTypeSubset {
  glyf: Uint8Array[];
  offset: number;
  _addGlyph(gid: number): number;
}

/**
 * @pdf-lib/fontkit 1.1.1 (pinned) writes a subset's glyphs end to end and, when the subset is small, a short
 * `loca` table, which stores offsets halved: a glyph of odd length shifts every glyph after it by a byte, and
 * viewers draw most characters as nothing. Each glyph is padded to an even length as it is added, as the
 * TrueType format asks; read-back.test.ts decodes every glyph of an embedded subset to hold this.
 */
function padGlyphs(embedder: CustomFontSubsetEmbedder): void {
  const subset = (embedder as unknown as { subset: TrueTypeSubset }).subset;
  const addGlyph = subset._addGlyph.bind(subset);
  subset._addGlyph = (gid: number) => {
    const index = addGlyph(gid);
    const glyph = subset.glyf[index]!;
    if (glyph.length % 2 === 1) {
      // The library's own Buffer class (it bundles one), which its encoder checks for.
      const LibraryBuffer = glyph.constructor as typeof Buffer;
      subset.glyf[index] = LibraryBuffer.concat([glyph, LibraryBuffer.alloc(1)]);
      subset.offset += 1;
    }
    return index;
  };
}

interface SubsetGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}

interface SubsetEmbedderState {
  subset: { includeGlyph(gid: number): number };
  glyphs: SubsetGlyph[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
  encodeText(text: string): PDFHexString;
  widthOfTextAtSize(text: string, size: number): number;
}

/**
 * Text is encoded one character to one glyph through the font's character map, where pdf-lib would run
 * fontkit's layout: layout shapes (no script here needs it: Latin, Greek and Cyrillic are precomposed, CJK
 * and Hangul are one glyph a character) and records each glyph's characters on fontkit's glyph objects, which
 * the process shares between documents, so a glyph first met through Greek "ο" wrote an empty entry into the
 * next document's ToUnicode map for Latin "o" and copied text lost letters. Here each document records the
 * character it drew with each glyph, and widths are the glyphs' advances, exactly what the PDF draws.
 */
function encodeByCharacter(embedder: CustomFontSubsetEmbedder, font: Font): void {
  const state = embedder as unknown as SubsetEmbedderState;
  const scale = 1000 / font.unitsPerEm;
  // Each character's glyph, looked up once per document: its code in the subset and its advance.
  const known = new Map<number, { code: string; advance: number }>();
  const glyphOf = (codePoint: number) => {
    let entry = known.get(codePoint);
    if (!entry) {
      const glyph = font.glyphForCodePoint(codePoint);
      const subsetId = state.subset.includeGlyph(glyph.id);
      if (subsetId > 0 && !state.glyphs[subsetId - 1]) state.glyphs[subsetId - 1] = { id: glyph.id, codePoints: [codePoint], advanceWidth: glyph.advanceWidth };
      state.glyphIdMap.set(glyph.id, subsetId);
      state.glyphCache.invalidate();
      entry = { code: subsetId.toString(16).padStart(4, "0"), advance: glyph.advanceWidth };
      known.set(codePoint, entry);
    }
    return entry;
  };
  state.encodeText = (text: string) => {
    let hex = "";
    for (const char of text) hex += glyphOf(char.codePointAt(0)!).code;
    return PDFHexString.of(hex);
  };
  state.widthOfTextAtSize = (text: string, size: number) => {
    let units = 0;
    for (const char of text) units += glyphOf(char.codePointAt(0)!).advance;
    return (units * scale * size) / 1000;
  };
}
