import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from "pdf-lib";
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
