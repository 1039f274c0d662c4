import { PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { FOUR_BY_SIX, PdfBuilder } from "./page-content";
import { readPages, textOffPage } from "./read-back";

const SCRIPTS = [
  "Müller-Łukasiewicz",
  "Şükrü Yılmaz İnönü",
  "Γιώργος Παπαδόπουλος",
  "Иван Смирнов",
  "東京都渋谷区 山田太郎",
  "北京市朝阳区 张伟",
  "서울특별시 김민준",
];

async function document(lines: readonly string[]): Promise<Uint8Array> {
  const builder = await PdfBuilder.create({ title: "fonts", producer: "test", created: new Date(0) });
  const page = builder.page(FOUR_BY_SIX, 14);
  lines.forEach((line, index) => page.text(line, 14, 400 - index * 20, 12, index % 2 === 1));
  builder.add(page);
  return builder.save();
}

describe("embedded fonts", () => {
  it("GIVEN text in eight scripts THEN it reads back as written, measured inside the page, with no missing glyph", async () => {
    const pages = await readPages(await document(SCRIPTS));
    expect(pages[0]!.runs.map((run) => run.text)).toEqual(SCRIPTS);
    expect(textOffPage(pages, 14)).toEqual([]);
  });

  it("GIVEN a document THEN every glyph of every embedded subset decodes to an outline (a subset with a misplaced glyph table draws nothing)", async () => {
    const doc = await PDFDocument.load(await document(SCRIPTS));
    let fonts = 0;
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFDict) || object.get(PDFName.of("Type"))?.toString() !== "/FontDescriptor") continue;
      const file = doc.context.lookup(object.get(PDFName.of("FontFile2"))) as PDFRawStream;
      const glyphs = trueTypeGlyphs(Buffer.from(decodePDFRawStream(file).decode()));
      expect(glyphs.length).toBeGreaterThan(1);
      for (const [id, glyph] of glyphs.entries()) {
        if (!glyph) continue; // no outline: .notdef or a space
        expect(glyph.contours, `glyph ${id}`).not.toBe(0);
        expect(glyph.xMin <= glyph.xMax && glyph.yMin <= glyph.yMax && Math.abs(glyph.xMax) < 4000 && Math.abs(glyph.yMax) < 4000, `glyph ${id} box`).toBe(
          true,
        );
      }
      fonts++;
    }
    // Noto Sans regular and bold, and the Japanese, Chinese and Korean faces the CJK lines need.
    expect(fonts).toBeGreaterThanOrEqual(5);
  });

  it("GIVEN Latin text only THEN only Noto Sans is embedded, subset small", async () => {
    const pdf = await document(["Ada Moreno", "500 Market St"]);
    const pages = await readPages(pdf);
    expect(pages[0]!.runs.map((run) => run.text)).toEqual(["Ada Moreno", "500 Market St"]);
    expect(pdf.length).toBeLessThan(30 * 1024);
  });
});

/** Each glyph's header (contour count and box) of a TrueType font, found through its `loca` table as a viewer finds it. */
function trueTypeGlyphs(font: Buffer): ({ contours: number; xMin: number; yMin: number; xMax: number; yMax: number } | null)[] {
  const tables = new Map<string, number>();
  for (let index = 0; index < font.readUInt16BE(4); index++) {
    const entry = 12 + index * 16;
    tables.set(font.toString("latin1", entry, entry + 4), font.readUInt32BE(entry + 8));
  }
  const head = tables.get("head")!;
  const long = font.readInt16BE(head + 50) === 1;
  const glyphCount = font.readUInt16BE(tables.get("maxp")! + 4);
  const loca = tables.get("loca")!;
  const glyf = tables.get("glyf")!;
  const offset = (index: number) => (long ? font.readUInt32BE(loca + index * 4) : font.readUInt16BE(loca + index * 2) * 2);
  return Array.from({ length: glyphCount }, (_, index) => {
    const start = offset(index);
    if (offset(index + 1) === start) return null;
    const at = glyf + start;
    return {
      contours: font.readInt16BE(at),
      xMin: font.readInt16BE(at + 2),
      yMin: font.readInt16BE(at + 4),
      xMax: font.readInt16BE(at + 6),
      yMax: font.readInt16BE(at + 8),
    };
  });
}
