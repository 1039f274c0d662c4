import { PDFArray, PDFDocument, PDFRawStream, StandardFonts, decodePDFRawStream } from "pdf-lib";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { barsOf, encodeCode128 } from "./code128";
import { LABEL_HEIGHT, LABEL_WIDTH, renderLabelsPdf } from "./pdf-label";
import { PNG_HEIGHT, PNG_WIDTH, renderPng } from "./png-label";
import { buildLabel } from "./test-label";
import { renderEpl2, renderZpl } from "./thermal";

async function pageContents(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    return streams
      .map((stream) => {
        if (!(stream instanceof PDFRawStream)) throw new Error("expected raw content streams");
        return Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
      })
      .join("\n");
  });
}

const hex = (text: string) => Buffer.from(text, "latin1").toString("hex").toUpperCase();

interface TextRun {
  text: string;
  size: number;
  x: number;
  y: number;
  width: number;
}

/** Every text a page prints, where, and how wide (measured with the same standard fonts). */
async function textRuns(content: string): Promise<TextRun[]> {
  const scratch = await PDFDocument.create();
  const fonts = { FR: scratch.embedStandardFont(StandardFonts.Helvetica), FB: scratch.embedStandardFont(StandardFonts.HelveticaBold) };
  return [...content.matchAll(/BT \/(F[RB]) ([\d.]+) Tf ([\d.]+) ([\d.]+) Td <([0-9A-F]*)> Tj ET/g)].map(([, font, size, x, y, encoded]) => {
    // WinAnsi byte 0x85 is the ellipsis.
    const text = Buffer.from(encoded!, "hex").toString("latin1").replaceAll("\u0085", "\u2026");
    return { text, size: Number(size), x: Number(x), y: Number(y), width: fonts[font as "FR" | "FB"].widthOfTextAtSize(text, Number(size)) };
  });
}

describe("PDF labels", () => {
  it("GIVEN three labels THEN one 4×6 in (288×432 pt) page each, in order", async () => {
    const labels = ["1ZAAAAAA0100000017", "940010000000000000000000", "712345678901"].map((trackingNumber) => buildLabel({ trackingNumber }));
    const pdf = await renderLabelsPdf(labels);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(3);
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: LABEL_WIDTH, height: LABEL_HEIGHT });
    const contents = await pageContents(pdf);
    labels.forEach((label, index) => expect(contents[index]).toContain(`<${hex(label.trackingNumber)}>`));
  });

  it("draws the tracking number's Code 128 bars as rectangles", async () => {
    const label = buildLabel();
    const [content] = await pageContents(await renderLabelsPdf([label]));
    const rectangles = content!.split("\n").filter((line) => / re$/.test(line));
    // Three horizontal rules are also rectangles ("re f" on one line); bars are "re" lines filled once.
    expect(rectangles).toHaveLength(barsOf(encodeCode128(label.trackingNumber)).bars.length);
  });

  it("shows the carrier, service, both addresses, reference and weight", async () => {
    const [content] = await pageContents(await renderLabelsPdf([buildLabel()]));
    for (const text of ["BROWNLINE PARCEL", "Ground", "Ada Moreno", "Jordan Blake", "88 Orchard St", "REF #1001", "WEIGHT 6 lb   PIECES 1", "BOOK CN0023863922"]) {
      expect(content).toContain(`<${hex(text)}>`);
    }
  });

  it.each([
    ["a long carrier name", { carrierLabel: "Globe Parcel Consolidators", zone: "7" }, "GLOBE PARCEL CONSOLIDATORS"],
    ["a two-digit zone", { carrierLabel: "Globe Parcel Consolidators", zone: "10" }, "GLOBE PARCEL CONSOLIDATORS"],
    ["a carrier name too long for any size", { carrierLabel: "Intercontinental Express Logistics Worldwide Consolidated", zone: "7" }, "INTERCONTINENTAL EXPRESS LOGISTICS"],
  ])("GIVEN %s THEN the carrier's name ends before the zone, and no text overlaps another or leaves the page", async (_what, overrides, shownStart) => {
    const label = buildLabel(overrides);
    const runs = await textRuns((await pageContents(await renderLabelsPdf([label])))[0]!);
    const zone = runs.find((run) => run.text === `ZONE ${label.zone}`)!;
    const carrier = runs.find((run) => run.y === zone.y && run !== zone)!;
    expect(carrier.text.startsWith(shownStart)).toBe(true);
    expect(carrier.size).toBeGreaterThanOrEqual(8);
    expect(carrier.x + carrier.width).toBeLessThan(zone.x);
    for (const run of runs) {
      expect(run.x, run.text).toBeGreaterThanOrEqual(14);
      expect(run.x + run.width, run.text).toBeLessThanOrEqual(LABEL_WIDTH - 14 + 0.01);
      for (const other of runs) {
        if (other === run || other.y !== run.y || other.x < run.x) continue;
        expect(run.x + run.width, `${run.text} | ${other.text}`).toBeLessThan(other.x);
      }
    }
  });

  it("GIVEN a short carrier name THEN it prints at full size", async () => {
    const runs = await textRuns((await pageContents(await renderLabelsPdf([buildLabel({ carrierLabel: "Brownline Parcel" })])))[0]!);
    expect(runs.find((run) => run.text === "BROWNLINE PARCEL")?.size).toBe(14);
  });

  it("stays small (standard fonts, not embedded): ≤ 20 KiB per label over a 500-label document", async () => {
    const labels = Array.from({ length: 500 }, (_, index) => buildLabel({ trackingNumber: `1ZSVPIIC05${String(10_000_000 + index)}` }));
    const pdf = await renderLabelsPdf(labels);
    expect(pdf.length / 500).toBeLessThan(20 * 1024);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(500);
  });

  it("is deterministic: the same labels give the same bytes", async () => {
    const labels = [buildLabel(), buildLabel({ trackingNumber: "712345678901" })];
    expect(Buffer.from(await renderLabelsPdf(labels)).equals(Buffer.from(await renderLabelsPdf(labels)))).toBe(true);
  });

  it("GIVEN names outside WinAnsi THEN they print as ? instead of failing", async () => {
    const [content] = await pageContents(await renderLabelsPdf([buildLabel({ receiver: { ...buildLabel().receiver, name: "Zoë 李" } })]));
    expect(content).toContain(`<${hex("Zo\u00eb ?")}>`);
  });
});

describe("thermal labels", () => {
  it("ZPL: one label with a Code 128 barcode command of the tracking number", () => {
    const zpl = renderZpl(buildLabel());
    expect(zpl.startsWith("^XA")).toBe(true);
    expect(zpl.trim().endsWith("^XZ")).toBe(true);
    expect(zpl).toContain("^FO60,870^BY3,3,220^BCN,220,Y,N,N^FD>:1ZSVPIIC0538639223^FS");
    expect(zpl).toContain("^FDJordan Blake^FS");
  });

  it("ZPL: field data cannot inject commands", () => {
    expect(renderZpl(buildLabel({ references: ["^XZ~JR"] }))).toContain("^FDREF  XZ JR^FS");
  });

  it("EPL2: Code 128 barcode (type 1) of the tracking number and a print command", () => {
    const epl = renderEpl2(buildLabel({ references: ['say "hi"'] }));
    expect(epl).toContain('B60,870,0,1,3,6,220,B,"1ZSVPIIC0538639223"');
    expect(epl).toContain('A30,30,0,5,1,1,N,"BROWNLINE PARCEL"');
    expect(epl).toContain('"REF say \\"hi\\""');
    expect(epl.trim().endsWith("P1")).toBe(true);
  });
});

describe("PNG labels", () => {
  function decode(png: Buffer) {
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks: { type: string; data: Buffer }[] = [];
    for (let offset = 8; offset < png.length; ) {
      const length = png.readUInt32BE(offset);
      chunks.push({ type: png.toString("ascii", offset + 4, offset + 8), data: png.subarray(offset + 8, offset + 8 + length) });
      offset += 12 + length;
    }
    return chunks;
  }

  it("is a 812×1218 1-bit greyscale PNG (4×6 in at 203 dpi)", () => {
    const chunks = decode(renderPng(buildLabel()));
    const header = chunks.find((chunk) => chunk.type === "IHDR")!.data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([PNG_WIDTH, PNG_HEIGHT, 1, 0]);
    expect(chunks.at(-1)?.type).toBe("IEND");
  });

  it("draws the barcode: a scan line through it has the bars' widths", () => {
    const label = buildLabel({ trackingNumber: "GC12345678" + "9US" });
    const chunks = decode(renderPng(label));
    const raw = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === "IDAT").map((chunk) => chunk.data)));
    const rowBytes = Math.ceil(PNG_WIDTH / 8) + 1;
    const row = raw.subarray(980 * rowBytes + 1, 981 * rowBytes);
    const black = (x: number) => (row[x >> 3]! & (0x80 >> (x & 7))) === 0;
    const runs: number[] = [];
    for (let x = 0; x < PNG_WIDTH; x++) {
      if (black(x) && (x === 0 || !black(x - 1))) runs.push(0);
      if (black(x)) runs[runs.length - 1]! += 1;
    }
    const { bars } = barsOf(encodeCode128(label.trackingNumber));
    const module = runs[0]! / bars[0]!.width;
    expect(runs).toEqual(bars.map((bar) => bar.width * module));
  });
});
