import type { PageContent, PdfBuilder } from "../../lib/pdf/page-content";
import { invoiceContent, pageOf } from "./invoice-content";
import type { LabelData, LabelInvoice } from "./label-data";
import { LABEL_HEIGHT, LABEL_WIDTH, MARGIN, labelPage } from "./pdf-page";

/**
 * An international shipment's commercial invoice on 4×6 pages, printed right after its label so that one
 * document per batch holds everything a parcel needs: who ships to whom (with tax ids), terms of trade,
 * currency, each item's description, quantity, HS code, country of origin, weight, unit and line value, the
 * total, the goods' and the parcel's actual weight, and the shipper's declaration. Nothing is cut short:
 * long names, addresses and descriptions wrap. Items run on to further pages when they do not fit; every
 * page names its parcel (tracking number) and says "Page i of n".
 */

const RIGHT = LABEL_WIDTH - MARGIN;
const MIDDLE = LABEL_WIDTH / 2;
/** Column positions of an item's second line: quantity, HS code, origin at their x; weight and values end at theirs. */
const COLUMNS = { quantity: MARGIN, hsCode: MARGIN + 24, origin: MARGIN + 82, weightRight: RIGHT - 96, unitValueRight: RIGHT - 50, valueRight: RIGHT };
const LINE = 8.5;
/** Room the totals, the weights, the declaration and the signature line take at the end of the invoice. */
const CLOSING_HEIGHT = 112;
const BOTTOM = MARGIN + 4;

export function invoicePages(builder: PdfBuilder, label: LabelData, invoice: LabelInvoice): PageContent[] {
  const content = invoiceContent(label, invoice);
  const pages: PageContent[] = [];
  let page = labelPage(builder);
  let y = 0;

  const startPage = (continued: boolean) => {
    page = labelPage(builder);
    pages.push(page);
    y = LABEL_HEIGHT - MARGIN - 12;
    page.text(continued ? content.continuedTitle : content.title, MARGIN, y, continued ? 10 : 12, true);
    y -= 12;
    page.text(content.tracking, MARGIN, y, 7);
    page.rightText(content.date, RIGHT, y, 7);
    y -= 6;
  };

  const itemHeader = () => {
    y -= 4;
    page.rule(y, 0.75);
    y -= 9;
    page.text("DESCRIPTION", COLUMNS.quantity, y, 6.5, true);
    y -= 8;
    page.text("QTY", COLUMNS.quantity, y, 6.5, true);
    page.text("HS CODE", COLUMNS.hsCode, y, 6.5, true);
    page.text("ORIGIN", COLUMNS.origin, y, 6.5, true);
    page.rightText("WEIGHT", COLUMNS.weightRight, y, 6.5, true);
    page.rightText(`UNIT (${content.currency})`, COLUMNS.unitValueRight, y, 6.5, true);
    page.rightText(`VALUE (${content.currency})`, COLUMNS.valueRight, y, 6.5, true);
    y -= 4;
    page.rule(y, 0.5);
  };

  startPage(false);
  if (content.marks) y = page.block(content.marks, MARGIN, y - 8, RIGHT - MARGIN, 7, 5.5);
  y -= 4;
  page.rule(y, 0.75);
  y -= 9;
  page.text("SHIPPER / EXPORTER", MARGIN, y, 6.5, true);
  page.text("CONSIGNEE", MIDDLE + 4, y, 6.5, true);
  // Each party's lines wrapped to its column, then drawn side by side.
  const column = (lines: string[], width: number) =>
    lines.flatMap((line) => {
      const fitted = page.fit(line, width, 7, 5.5);
      return fitted.lines.map((text) => ({ text, size: fitted.size }));
    });
  const shipper = column(content.shipper, MIDDLE - MARGIN - 4);
  const consignee = column(content.consignee, RIGHT - MIDDLE - 4);
  for (let row = 0; row < Math.max(shipper.length, consignee.length); row++) {
    y -= LINE;
    if (shipper[row]) page.text(shipper[row]!.text, MARGIN, y, shipper[row]!.size);
    if (consignee[row]) page.text(consignee[row]!.text, MIDDLE + 4, y, consignee[row]!.size);
  }
  y -= 4;
  page.rule(y, 0.75);
  y = page.block(content.terms, MARGIN, y - 9, RIGHT - MARGIN, 7, 5.5);
  if (content.exportFiling) y = page.block(content.exportFiling, MARGIN, y - 9, RIGHT - MARGIN, 7, 5.5);
  itemHeader();

  for (const item of content.items) {
    const description = page.fit(item.description, RIGHT - MARGIN, 7.5, 6);
    const height = description.lines.length * description.size * 1.2 + 12;
    if (y - height < BOTTOM) {
      startPage(true);
      itemHeader();
    }
    y = page.block(item.description, MARGIN, y - 9, RIGHT - MARGIN, 7.5, 6);
    y -= 9;
    page.text(item.quantity, COLUMNS.quantity, y, 7);
    page.fittedText(item.hsCode, COLUMNS.hsCode, y, COLUMNS.origin - COLUMNS.hsCode - 4, 7);
    page.text(item.origin, COLUMNS.origin, y, 7);
    page.rightText(item.weight, COLUMNS.weightRight, y, 7);
    page.rightText(item.unitValue, COLUMNS.unitValueRight, y, 7);
    page.rightText(item.value, COLUMNS.valueRight, y, 7);
    y -= 3;
  }

  if (y - CLOSING_HEIGHT < BOTTOM) startPage(true);
  y -= 3;
  page.rule(y, 0.75);
  y -= 11;
  page.text("TOTAL VALUE", MARGIN, y, 8, true);
  page.rightText(content.total, RIGHT, y, 9, true);
  y -= 10;
  page.text(content.summary, MARGIN, y, 7);
  if (content.netWeight) {
    y -= 9;
    page.text(content.netWeight, MARGIN, y, 7);
  }
  y -= 9;
  page.text(content.grossWeight, MARGIN, y, 7, true);
  y -= 6;
  for (const line of page.wrap(content.declaration, RIGHT - MARGIN, 6.5)) {
    y -= 8;
    page.text(line, MARGIN, y, 6.5);
  }
  y -= 16;
  page.fittedText(content.shipperName, MARGIN, y, MIDDLE - MARGIN, 7);
  page.text("Signature ____________________", MIDDLE + 4, y, 7);

  pages.forEach((each, index) => each.rightText(pageOf(index, pages.length), RIGHT, LABEL_HEIGHT - MARGIN - 12, 7));
  return pages;
}
