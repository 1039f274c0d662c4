import { PDFDocument } from "pdf-lib";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { barsOf, encodeCode128 } from "./code128";
import { LABEL_HEIGHT, LABEL_WIDTH, renderLabelsPdf } from "./pdf-label";
import { PNG_HEIGHT, PNG_WIDTH, renderPng } from "./png-label";
import { GERMAN_ADDRESS, JAPANESE_ADDRESS, JAPANESE_ADDRESS_PRINTED, SCRIPT_NAMES } from "../../lib/test-addresses";
import { buildInternationalLabel, buildLabel } from "./test-label";
import { pageContents, pageRuns, pageTexts, readPages, textOffPage } from "./test-pdf";
import { renderEpl2, renderZpl } from "./thermal";
import { DOTS_HIGH, thermalInvoicePages, thermalLayout } from "./thermal-layout";
import { packRows, rasterText, textWidthDots } from "../../lib/pdf/raster-text";

describe("PDF labels", () => {
  it("GIVEN three labels THEN one 4×6 in (288×432 pt) page each, in order", async () => {
    const labels = ["1ZAAAAAA0100000017", "940010000000000000000000", "712345678901"].map((trackingNumber) => buildLabel({ trackingNumber }));
    const pdf = await renderLabelsPdf(labels);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(3);
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: LABEL_WIDTH, height: LABEL_HEIGHT });
    const pages = await pageTexts(pdf);
    labels.forEach((label, index) => expect(pages[index]).toContain(label.trackingNumber));
  });

  it("draws the tracking number's Code 128 bars as rectangles", async () => {
    const label = buildLabel();
    const [content] = await pageContents(await renderLabelsPdf([label]));
    const rectangles = content!.split("\n").filter((line) => / re$/.test(line));
    // Three horizontal rules are also rectangles ("re f" on one line); bars are "re" lines filled once.
    expect(rectangles).toHaveLength(barsOf(encodeCode128(label.trackingNumber)).bars.length);
  });

  it("shows the carrier, service, both addresses, reference and weight", async () => {
    const [texts] = await pageTexts(await renderLabelsPdf([buildLabel()]));
    for (const text of [
      "BROWNLINE PARCEL",
      "Ground",
      "Ada Moreno",
      "Jordan Blake",
      "88 Orchard St",
      "REF #1001",
      "WEIGHT 6 lb   PIECE 1 of 1",
      "BOOK CN0023863922",
    ]) {
      expect(texts).toContain(text);
    }
  });

  it.each([
    ["a long carrier name", { carrierLabel: "Globe Parcel Consolidators", zone: "7" }, "GLOBE PARCEL CONSOLIDATORS"],
    ["a two-digit zone", { carrierLabel: "Globe Parcel Consolidators", zone: "10" }, "GLOBE PARCEL CONSOLIDATORS"],
    [
      "a carrier name too long for any size",
      { carrierLabel: "Intercontinental Express Logistics Worldwide Consolidated", zone: "7" },
      "INTERCONTINENTAL EXPRESS LOGISTICS WORLDWIDE CONSOLIDATED",
    ],
  ])("GIVEN %s THEN the carrier's name, whole, ends before the zone, and no text overlaps another or leaves the page", async (_what, overrides, shown) => {
    const label = buildLabel(overrides);
    const [runs] = await pageRuns(await renderLabelsPdf([label]));
    const zone = runs!.find((run) => run.text === `ZONE ${label.zone}`)!;
    const carrier = runs!.find((run) => run.y === zone.y && run !== zone)!;
    expect(carrier.text).toBe(shown);
    expect(carrier.size).toBeGreaterThanOrEqual(6);
    expect(carrier.x + carrier.width).toBeLessThan(zone.x);
    for (const run of runs!) {
      expect(run.x, run.text).toBeGreaterThanOrEqual(14);
      expect(run.x + run.width, run.text).toBeLessThanOrEqual(LABEL_WIDTH - 14 + 0.01);
      for (const other of runs!) {
        if (other === run || other.y !== run.y || other.x < run.x) continue;
        expect(run.x + run.width, `${run.text} | ${other.text}`).toBeLessThan(other.x);
      }
    }
  });

  it("GIVEN a short carrier name THEN it prints at full size", async () => {
    const [runs] = await pageRuns(await renderLabelsPdf([buildLabel({ carrierLabel: "Brownline Parcel" })]));
    expect(runs!.find((run) => run.text === "BROWNLINE PARCEL")?.size).toBe(14);
  });

  it("stays small (fonts subset to the glyphs drawn): ≤ 20 KiB per label over a 500-label document, under 40 KiB for one label", async () => {
    const labels = Array.from({ length: 500 }, (_, index) => buildLabel({ trackingNumber: `1ZSVPIIC05${String(10_000_000 + index)}` }));
    const pdf = await renderLabelsPdf(labels);
    expect(pdf.length / 500).toBeLessThan(20 * 1024);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(500);
    expect((await renderLabelsPdf([buildLabel()])).length).toBeLessThan(40 * 1024);
  });

  it("is deterministic: the same labels give the same bytes", async () => {
    const labels = [buildLabel(), buildLabel({ trackingNumber: "712345678901" })];
    expect(Buffer.from(await renderLabelsPdf(labels)).equals(Buffer.from(await renderLabelsPdf(labels)))).toBe(true);
  });

  it("GIVEN names and addresses in Polish, German, Turkish, Greek, Cyrillic, Japanese, Chinese and Korean THEN each prints as written, in a font that has it, and nothing leaves the page", async () => {
    const names = SCRIPT_NAMES;
    const labels = names.map((name) => buildLabel({ receiver: { ...buildLabel().receiver, name, company: "Großhandel Ölçer Ltd", country: "US" } }));
    const pages = await readPages(await renderLabelsPdf(labels));
    names.forEach((name, index) => {
      expect(pages[index]!.runs.map((run) => run.text)).toContain(name);
      expect(pages[index]!.runs.map((run) => run.text)).toContain("Großhandel Ölçer Ltd");
    });
    expect(textOffPage(pages, 14)).toEqual([]);
  });

  it("GIVEN a German and a Japanese address THEN each is in its own format: the postcode before the city in Germany, Japan from the postcode and prefecture down, the country's name last", async () => {
    const german = buildLabel({ receiver: GERMAN_ADDRESS });
    const japanese = buildLabel({ receiver: JAPANESE_ADDRESS });
    const [de, jp] = await pageTexts(await renderLabelsPdf([german, japanese]));
    const after = (texts: string[], first: string, count: number) => texts.slice(texts.indexOf(first), texts.indexOf(first) + count);
    expect(after(de!, "Jürgen Müller", 5)).toEqual(["Jürgen Müller", "Invalidenstraße 117", "10115 Berlin", "Germany", "+49 30 1234567"]);
    expect(after(jp!, "〒150-0041", 6)).toEqual(JAPANESE_ADDRESS_PRINTED);
    expect(textOffPage(await readPages(await renderLabelsPdf([german, japanese])), 14)).toEqual([]);
  });

  it("GIVEN a company and address lines too long for the label THEN they wrap or shrink onto the label whole, never cut, and the text still ends above the barcode", async () => {
    const company = "Großhandel Müller & Söhne Spedition und Logistik Gesellschaft mit beschränkter Haftung";
    const address2 = "Hinterhaus, 3. Obergeschoss, bei Familie Papadopoulos-Schmidt, Klingel links neben dem Tor";
    const label = buildLabel({ receiver: { ...buildLabel().receiver, company, address2 } });
    const pages = await readPages(await renderLabelsPdf([label]));
    const text = pages[0]!.runs.map((run) => run.text).join(" ");
    for (const word of [...company.split(" "), ...address2.split(" ")]) expect(text).toContain(word);
    expect(textOffPage(pages, 14)).toEqual([]);
    const caption = pages[0]!.runs.find((run) => run.text === "TRACKING #")!;
    for (const run of pages[0]!.runs.filter((each) => each.y > caption.y)) expect(run.y - run.size / 4, run.text).toBeGreaterThan(caption.y + caption.size);
  });
});

describe("a label for every piece", () => {
  const numbers = ["9400100000000000000017", "9400100000000000000024"];
  const twoBoxes = buildLabel({
    trackingNumber: numbers[0]!,
    pieceCount: 2,
    pieces: [
      { trackingNumber: numbers[0]!, weight: "20 lb" },
      { trackingNumber: numbers[1]!, weight: "12.5 lb" },
    ],
  });

  it('GIVEN a shipment of two pieces with a number each THEN two labels, "1 of 2" and "2 of 2", each with its piece\'s weight and its own number in text and bars', async () => {
    const pdf = await renderLabelsPdf([twoBoxes]);
    const pages = await pageTexts(pdf);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain("WEIGHT 20 lb   PIECE 1 of 2");
    expect(pages[1]).toContain("WEIGHT 12.5 lb   PIECE 2 of 2");
    const contents = await pageContents(pdf);
    numbers.forEach((number, index) => {
      expect(pages[index]).toContain(number);
      expect(pages[index]).not.toContain(numbers[1 - index]);
      const bars = contents[index]!.split("\n").filter((line) => / re$/.test(line));
      expect(bars).toHaveLength(barsOf(encodeCode128(number)).bars.length);
    });
    // Different numbers, different bars.
    expect(contents[0]!.split("\n").filter((line) => / re$/.test(line))).not.toEqual(contents[1]!.split("\n").filter((line) => / re$/.test(line)));
  });

  it("GIVEN a shipment of two pieces under one number THEN two labels, each with the shipment's number and its piece count", async () => {
    const shared = buildLabel({
      pieceCount: 2,
      pieces: [
        { trackingNumber: "1ZSVPIIC0538639223", weight: "20 lb" },
        { trackingNumber: "1ZSVPIIC0538639223", weight: "20 lb" },
      ],
    });
    const pages = await pageTexts(await renderLabelsPdf([shared]));
    expect(pages.map((texts) => texts.filter((text) => text.includes(" of 2")))).toEqual([["WEIGHT 20 lb   PIECE 1 of 2"], ["WEIGHT 20 lb   PIECE 2 of 2"]]);
    for (const texts of pages) expect(texts).toContain("1ZSVPIIC0538639223");
  });

  it("GIVEN a label kept before per-piece labels (a piece count, no pieces) THEN one label per piece under the shipment's number", async () => {
    const pages = await pageTexts(await renderLabelsPdf([buildLabel({ pieceCount: 3 })]));
    expect(pages.map((texts) => texts.find((text) => text.startsWith("WEIGHT")))).toEqual([
      "WEIGHT 6 lb   PIECE 1 of 3",
      "WEIGHT 6 lb   PIECE 2 of 3",
      "WEIGHT 6 lb   PIECE 3 of 3",
    ]);
  });

  it("GIVEN an international shipment of two pieces beside a domestic one THEN label 1 of 2, its invoice, label 2 of 2, then the next shipment", async () => {
    const international = buildInternationalLabel(2, {
      pieceCount: 2,
      pieces: [
        { trackingNumber: "GC123456789US", weight: "2 kg" },
        { trackingNumber: "GC123456789US", weight: "1 kg" },
      ],
    });
    const pages = await pageTexts(await renderLabelsPdf([international, buildLabel()]));
    const kind = (texts: string[]) => (texts[0] === "COMMERCIAL INVOICE" ? "invoice" : texts.find((text) => text.includes("PIECE")));
    expect(pages.map(kind)).toEqual(["WEIGHT 2 kg   PIECE 1 of 2", "invoice", "WEIGHT 1 kg   PIECE 2 of 2", "WEIGHT 6 lb   PIECE 1 of 1"]);
    expect(pages[0]).toContain("CUSTOMS: COMMERCIAL INVOICE ON THE NEXT PAGE");
    expect(pages[2]).not.toContain("CUSTOMS: COMMERCIAL INVOICE ON THE NEXT PAGE");
  });

  it("GIVEN two pieces THEN ZPL and EPL2 files hold two labels, each with its piece's line and number", () => {
    const zpl = renderZpl(twoBoxes);
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    const [first, second] = zpl.split("^XZ");
    expect(first).toContain("PIECE 1 of 2");
    expect(first).toContain(`^FD>:${numbers[0]}^FS`);
    expect(second).toContain("PIECE 2 of 2");
    expect(second).toContain(`^FD>:${numbers[1]}^FS`);
    const epl = renderEpl2(twoBoxes);
    expect(epl.split("\n").filter((line) => line === "P1")).toHaveLength(2);
    for (const number of numbers) expect(epl).toContain(`,B,"${number}"`);
  });
});

describe("the label's reference", () => {
  // Labels kept before the one-reference rule carried the order's name, the shipper's own id and the order's
  // name again; each is drawn with the order's name once and the id never.
  const kept = buildLabel({ references: ["#1005", "cmwukg9f0000abcd1234efgh", "#1005"] });

  it("GIVEN several references THEN the PDF prints one REF line, the order's name, and no internal id", async () => {
    const [texts] = await pageTexts(await renderLabelsPdf([kept]));
    expect(texts!.filter((text) => text.startsWith("REF"))).toEqual(["REF #1005"]);
    expect(texts!.join(" ")).not.toContain("cmwukg9f");
  });

  it("GIVEN several references THEN ZPL, EPL2 and PNG (one layout) print one REF line, the order's name", () => {
    expect(
      thermalLayout(kept)
        .texts.filter((text) => text.value.startsWith("REF"))
        .map((text) => text.value),
    ).toEqual(["REF #1005"]);
    for (const output of [renderZpl(kept), renderEpl2(kept)]) {
      expect(output.match(/REF /g)).toHaveLength(1);
      expect(output).not.toContain("cmwukg9f");
    }
  });

  it("GIVEN no reference THEN no REF line", async () => {
    const [texts] = await pageTexts(await renderLabelsPdf([buildLabel({ references: [] })]));
    expect(texts!.some((text) => text.startsWith("REF"))).toBe(false);
  });
});

describe("commercial invoice pages", () => {
  it("GIVEN domestic, international, domestic labels THEN the pages are label, label, invoice, label: the invoice right after its own label", async () => {
    const labels = [buildLabel({ trackingNumber: "1ZAAAAAA0100000017" }), buildInternationalLabel(), buildLabel({ trackingNumber: "712345678901" })];
    const pages = await pageTexts(await renderLabelsPdf(labels));
    expect(pages).toHaveLength(4);
    const kind = (texts: string[]) => (texts[0] === "COMMERCIAL INVOICE" ? "invoice" : "label");
    expect(pages.map(kind)).toEqual(["label", "label", "invoice", "label"]);
    expect(pages[1]).toContain("GC123456789US");
    expect(pages[1]).toContain("CUSTOMS: COMMERCIAL INVOICE ON THE NEXT PAGE");
    expect(pages[2]).toContain("Tracking GC123456789US");
    for (const page of [pages[0]!, pages[3]!]) expect(page).not.toContain("CUSTOMS: COMMERCIAL INVOICE ON THE NEXT PAGE");
    for (const page of (await PDFDocument.load(await renderLabelsPdf(labels))).getPages())
      expect(page.getSize()).toEqual({ width: LABEL_WIDTH, height: LABEL_HEIGHT });
  });

  it("GIVEN an invoice THEN its page shows both parties with tax ids, terms, currency, each item's description, quantity, HS code, origin, unit and line value, the total and the declaration", async () => {
    const [, invoice] = await pageTexts(await renderLabelsPdf([buildInternationalLabel()]));
    expect(invoice).toEqual(
      expect.arrayContaining([
        "COMMERCIAL INVOICE",
        "Page 1 of 1",
        "Invoice / package marks #1001",
        "Ada Moreno",
        "Tax ID US-EIN-12-3456789",
        "Inês Carvalho",
        "1100-048 Lisboa",
        "Portugal",
        "Terms of trade DAP   Currency EUR   Export US to PT",
        "Export filing FTR 30.37(a)",
        "UNIT (EUR)",
        "VALUE (EUR)",
        "Stoneware Mug - Midnight",
        "6912.00.48",
        "PT",
        "18.50",
        "37.00",
        "Linen Apron - Sage",
        "6211.49.00",
        "LT",
        "42.00",
        "EUR 79.00",
        "Units 3   Packages 1",
        "WEIGHT",
        "Shipper Ada Moreno",
      ]),
    );
    expect(invoice!.join(" ")).toContain(
      "I declare that the information on this invoice is true and correct, and that the contents of this shipment are as stated above.",
    );
    // Quantity, HS code and origin of one item are on one line, in that order.
    const [, runs] = await pageRuns(await renderLabelsPdf([buildInternationalLabel()]));
    const hs = runs!.find((run) => run.text === "6912.00.48")!;
    expect(runs!.filter((run) => run.y === hs.y).map((run) => run.text)).toEqual(["2", "6912.00.48", "PT", "-", "18.50", "37.00"]);
  });

  it("GIVEN a 0.6 lb parcel billed at its dimensional 1.5 lb THEN the invoice states the parcel's actual weight, each item's weight, and the items' total", async () => {
    const label = buildInternationalLabel(2, { weight: "1.5 lb", pieces: [{ trackingNumber: "GC123456789US", weight: "0.6 lb" }] });
    label.invoice!.items = label.invoice!.items.map((item, index) => ({ ...item, weight: index === 0 ? "0.3 lb" : "0.2 lb" }));
    const [, runs] = await pageRuns(await renderLabelsPdf([label]));
    const texts = runs!.map((run) => run.text);
    expect(texts).toEqual(expect.arrayContaining(["Gross weight (parcel) 0.6 lb", "Net weight (goods) 0.5 lb", "0.3 lb", "0.2 lb"]));
    expect(texts.join(" ")).not.toContain("1.5 lb");
    const mug = runs!.find((run) => run.text === "0.3 lb")!;
    expect(runs!.filter((run) => run.y === mug.y).map((run) => run.text)).toEqual(["2", "6912.00.48", "PT", "0.3 lb", "18.50", "37.00"]);
  });

  it("GIVEN invoices to consignees named in eight scripts, to a German and to a Japanese address, with a long company and second line THEN each prints as written in its country's format, whole and on its page, and the items add up to the totals", async () => {
    const company = "Großhandel Müller & Söhne Spedition und Logistik Gesellschaft mit beschränkter Haftung";
    const address2 = "Hinterhaus, 3. Obergeschoss, bei Familie Papadopoulos-Schmidt, Klingel links neben dem Tor";
    const base = buildInternationalLabel();
    const labels = [
      ...SCRIPT_NAMES.map((name) => buildInternationalLabel(2, { receiver: { ...GERMAN_ADDRESS, name, company, address2 } })),
      buildInternationalLabel(2, { receiver: { ...JAPANESE_ADDRESS, company: "株式会社山田商事" } }),
    ];
    const pages = await readPages(await renderLabelsPdf(labels));
    const invoices = pages.filter((page) => page.runs.some((run) => run.text === "COMMERCIAL INVOICE"));
    expect(invoices).toHaveLength(labels.length);
    SCRIPT_NAMES.forEach((name, index) => {
      const texts = invoices[index]!.runs.map((run) => run.text);
      expect(texts).toContain(name);
      expect(texts).toContain("10115 Berlin");
      for (const word of [...company.split(" "), ...address2.split(" ")]) expect(texts.join(" ")).toContain(word);
    });
    const japanese = invoices.at(-1)!.runs.map((run) => run.text);
    expect(japanese).toEqual(expect.arrayContaining(["株式会社山田商事", "〒150-0041", "東京都", "渋谷区神南1-2-3", "山田 太郎", "Japan"]));
    expect(textOffPage(invoices, 14)).toEqual([]);
    // The items' values add up to the total the invoice states.
    const values = base.invoice!.items.map((item) => Math.round(Number(item.unitValue) * 100) * item.quantity);
    const total = (values.reduce((sum, value) => sum + value, 0) / 100).toFixed(2);
    expect(invoices[0]!.runs.map((run) => run.text).join(" ")).toContain(total);
  });

  it("GIVEN 40 invoice lines THEN the invoice runs on over several pages, each numbered and naming the parcel, every item once, and no text leaves a page or overlaps another", async () => {
    const label = buildInternationalLabel(40);
    const pdf = await renderLabelsPdf([label]);
    const invoicePages = (await pageRuns(pdf)).slice(1);
    expect(invoicePages.length).toBeGreaterThan(2);
    const texts = invoicePages.map((runs) => runs.map((run) => run.text));
    texts.forEach((page, index) => {
      expect(page).toContain(`Page ${index + 1} of ${invoicePages.length}`);
      expect(page).toContain(`Tracking ${label.trackingNumber}`);
      expect(page[0]).toBe(index === 0 ? "COMMERCIAL INVOICE" : "COMMERCIAL INVOICE (CONTINUED)");
    });
    const all = texts.flat();
    for (const item of label.invoice!.items) expect(all.filter((text) => text === item.description)).toHaveLength(1);
    // 20 × 2 × 18.50 + 20 × 42.00
    expect(all.filter((text) => text.startsWith("EUR "))).toEqual(["EUR 1580.00"]);
    expect(texts.at(-1)).toContain("Shipper Ada Moreno");
    expect(textOffPage(await readPages(pdf), 14)).toEqual([]);
    for (const runs of invoicePages) {
      for (const run of runs) {
        expect(run.x, run.text).toBeGreaterThanOrEqual(14);
        expect(run.x + run.width, run.text).toBeLessThanOrEqual(LABEL_WIDTH - 14 + 0.01);
        expect(run.y, run.text).toBeGreaterThanOrEqual(14);
        for (const other of runs) {
          if (other === run || other.y !== run.y || other.x < run.x) continue;
          expect(run.x + run.width, `${run.text} | ${other.text}`).toBeLessThan(other.x);
        }
      }
    }
  });

  it("GIVEN only domestic labels THEN no invoice page", async () => {
    const pages = await pageTexts(await renderLabelsPdf([buildLabel(), buildLabel({ trackingNumber: "712345678901" })]));
    expect(pages).toHaveLength(2);
    expect(pages.flat().some((text) => text.startsWith("COMMERCIAL INVOICE"))).toBe(false);
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

describe("commercial invoices in thermal formats", () => {
  it("GIVEN an international label THEN the ZPL file holds the label, then its invoice as a further label with the same words as the PDF", () => {
    const zpl = renderZpl(buildInternationalLabel());
    expect(zpl.match(/\^XA/g)).toHaveLength(2);
    const [labelFormat, invoiceFormat] = zpl.split("^XZ");
    expect(labelFormat).toContain("^BCN");
    expect(invoiceFormat).not.toContain("^BCN");
    for (const text of [
      "COMMERCIAL INVOICE",
      "Page 1 of 1",
      "Tracking GC123456789US   Date 2026-11-23",
      "Terms of trade DAP   Currency EUR   Export US to PT",
      "Stoneware Mug - Midnight",
      "  Qty 2   HS 6912.00.48   Origin PT   Weight -",
      "  Unit 18.50   Value 37.00 EUR",
      "  Qty 1   HS 6211.49.00   Origin LT   Weight -",
      "TOTAL VALUE EUR 79.00",
    ]) {
      expect(invoiceFormat).toContain(`^FD${text}^FS`);
    }
  });

  it("GIVEN an international label THEN the EPL2 file prints two labels, the second the invoice", () => {
    const epl = renderEpl2(buildInternationalLabel());
    expect(epl.split("\n").filter((line) => line === "P1")).toHaveLength(2);
    expect(epl).toContain('"TOTAL VALUE EUR 79.00"');
  });

  it("GIVEN 40 invoice lines THEN the invoice runs on over numbered labels, every item once, nothing below the label's edge or past its width", () => {
    const label = buildInternationalLabel(40);
    const pages = thermalInvoicePages(label);
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => expect(page.texts.map((text) => text.value)).toContain(`Page ${index + 1} of ${pages.length}`));
    const texts = pages.flatMap((page) => page.texts);
    for (const item of label.invoice!.items) expect(texts.filter((text) => text.value === item.description)).toHaveLength(1);
    for (const text of texts) {
      expect(text.y + text.height, text.value).toBeLessThanOrEqual(DOTS_HIGH - 30);
      expect(textWidthDots(text.value, text.height), text.value).toBeLessThanOrEqual(812 - 60);
      expect(text.value, "cut short").not.toMatch(/\.\.\.$|…/);
    }
    expect(renderZpl(label).match(/\^XA/g)).toHaveLength(1 + pages.length);
  });

  it("GIVEN a domestic label THEN one label and no invoice", () => {
    expect(thermalInvoicePages(buildLabel())).toEqual([]);
    expect(renderZpl(buildLabel()).match(/\^XA/g)).toHaveLength(1);
  });
});

describe("PNG labels", () => {
  function decode(png: Buffer) {
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks: { type: string; data: Buffer }[] = [];
    for (let offset = 8; offset < png.length;) {
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

describe("thermal labels in every script", () => {
  const names = SCRIPT_NAMES;
  const labelFor = (name: string) =>
    buildLabel({
      receiver: {
        ...buildLabel().receiver,
        name,
        company: "Großhandel Ölçer Ltd",
        address2: "Hinterhaus, 4. Obergeschoss links, bei Familie Øster-Ångström-Łukasiewicz und Söhne",
      },
    });

  /** Each ^GF field of a ZPL file: where it is, and its dots decoded from ZPL's compressed ASCII hex. */
  function zplGraphics(zpl: string) {
    return [...zpl.matchAll(/\^FO(\d+),(\d+)\^GFA,(\d+),(\d+),(\d+),([0-9A-F:,]*)\^FS/g)].map(([, x, y, total, count, perRow, data]) => {
      expect(total).toBe(count);
      const bytesPerRow = Number(perRow);
      const rows: string[] = [];
      // As the printer reads it: hex digits fill a row; "," ends it with white; ":" at a row's start repeats the last.
      let row = "";
      for (const char of data!) {
        if (char === ":") rows.push(rows.at(-1)!);
        else if (char === ",") {
          rows.push(row.padEnd(bytesPerRow * 2, "0"));
          row = "";
        } else {
          row += char;
          if (row.length === bytesPerRow * 2) {
            rows.push(row);
            row = "";
          }
        }
      }
      expect(row).toBe("");
      expect(rows.length * bytesPerRow).toBe(Number(total));
      return { x: Number(x), y: Number(y), bytesPerRow, rows: rows.length, bytes: Buffer.from(rows.join(""), "hex") };
    });
  }

  it("GIVEN names in Polish, German, Turkish, Greek, Cyrillic, Japanese, Chinese and Korean THEN every character has a glyph in the documents' fonts and draws dots", () => {
    for (const name of names) {
      for (const char of name.replace(/\s/g, "")) {
        const bitmap = rasterText(char, 28);
        expect(
          bitmap.dots.some((dot) => dot === 1),
          char,
        ).toBe(true);
      }
    }
  });

  it("GIVEN those names on ZPL labels THEN each is a ^GF picture of itself drawn with the documents' fonts where the name goes, nothing in the printer's font but ASCII, every field on the label", () => {
    for (const name of names) {
      const label = labelFor(name);
      const zpl = renderZpl(label);
      for (const [, data] of zpl.matchAll(/\^FD([^^]*)\^FS/g)) expect(data, "text in the printer's font").toMatch(/^[\x20-\x7E]*$/);
      expect(zpl).not.toContain("?");
      const where = thermalLayout(label).texts.find((text) => text.value === name)!;
      const graphic = zplGraphics(zpl).find((field) => field.x === where.x && field.y === where.y)!;
      expect(graphic, name).toBeDefined();
      const expected = packRows(rasterText(name, where.height), 1);
      expect(graphic.bytesPerRow).toBe(expected.bytesPerRow);
      expect(graphic.bytes.equals(Buffer.from(expected.bytes)), name).toBe(true);
      for (const field of zplGraphics(zpl)) {
        expect(field.x + field.bytesPerRow * 8, "past the label's width").toBeLessThanOrEqual(812);
        expect(field.y + field.rows, "below the label's edge").toBeLessThanOrEqual(DOTS_HIGH);
      }
      // The long second address line is a picture too, shrunk onto the label rather than cut.
      const address2 = thermalLayout(label).texts.find((text) => text.value.startsWith("Hinterhaus"))!;
      expect(address2.value).toBe(label.receiver.address2);
      expect(zplGraphics(zpl).some((field) => field.y === address2.y)).toBe(true);
    }
  });

  it("GIVEN those names on EPL2 labels THEN each is a GW picture of itself (0 bits black) where the name goes, every field on the label", () => {
    for (const name of names) {
      const label = labelFor(name);
      const epl = Buffer.from(renderEpl2(label), "latin1");
      const where = thermalLayout(label).texts.find((text) => text.value === name)!;
      const header = `GW${where.x},${where.y},`;
      const at = epl.indexOf(header);
      expect(at, name).toBeGreaterThan(0);
      const [perRow, rows] = epl
        .subarray(at + header.length, at + header.length + 20)
        .toString("latin1")
        .split(",")
        .map(Number);
      const expected = packRows(rasterText(name, where.height), 0);
      expect([perRow, rows]).toEqual([expected.bytesPerRow, expected.bytes.length / expected.bytesPerRow]);
      const start = at + header.length + `${perRow},${rows},`.length;
      expect(epl.subarray(start, start + expected.bytes.length).equals(Buffer.from(expected.bytes)), name).toBe(true);
      expect(where.x + perRow! * 8).toBeLessThanOrEqual(812);
    }
  });

  it("GIVEN those names on PNG labels THEN each name's dots are on the image where the name goes", () => {
    for (const name of names) {
      const label = labelFor(name);
      const png = renderPng(label);
      const chunks: Buffer[] = [];
      for (let offset = 8; offset < png.length;) {
        const length = png.readUInt32BE(offset);
        if (png.toString("ascii", offset + 4, offset + 8) === "IDAT") chunks.push(png.subarray(offset + 8, offset + 8 + length));
        offset += 12 + length;
      }
      const raw = inflateSync(Buffer.concat(chunks));
      const rowBytes = Math.ceil(PNG_WIDTH / 8) + 1;
      const black = (x: number, y: number) => (raw[y * rowBytes + 1 + (x >> 3)]! & (0x80 >> (x & 7))) === 0;
      const where = thermalLayout(label).texts.find((text) => text.value === name)!;
      const bitmap = rasterText(name, where.height);
      let checked = 0;
      for (let row = 0; row < bitmap.height; row++) {
        for (let x = 0; x < bitmap.width; x++) {
          if (bitmap.dots[row * bitmap.width + x] !== 1) continue;
          expect(black(where.x + x, where.y + row), `${name} at ${x},${row}`).toBe(true);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(50);
    }
  });
});
