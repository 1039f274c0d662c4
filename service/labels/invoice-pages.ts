import { invoiceContent, pageOf } from "./invoice-content";
import type { LabelData, LabelInvoice } from "./label-data";
import { type Fonts, LABEL_HEIGHT, LABEL_WIDTH, MARGIN, PageContent } from "./pdf-page";

/**
 * An international shipment's commercial invoice on 4×6 pages, printed right after its label so that one
 * document per batch holds everything a parcel needs: who ships to whom (with tax ids), terms of trade,
 * currency, each item's description, quantity, HS code, country of origin, unit and line value, the
 * total, and the shipper's declaration. Items run on to further pages when they do not fit; every page
 * names its parcel (tracking number) and says "Page i of n".
 */

const RIGHT = LABEL_WIDTH - MARGIN;
const MIDDLE = LABEL_WIDTH / 2;
/** Column positions of an item's second line: quantity, HS code, origin at their x; values end at theirs. */
const COLUMNS = { quantity: MARGIN, hsCode: MARGIN + 34, origin: MARGIN + 110, unitValueRight: RIGHT - 62, valueRight: RIGHT };
const ITEM_HEIGHT = 21;
/** Room the totals, the declaration and the signature line take at the end of the invoice. */
const CLOSING_HEIGHT = 92;
const BOTTOM = MARGIN + 4;

export function invoicePages(fonts: Fonts, label: LabelData, invoice: LabelInvoice): PageContent[] {
  const content = invoiceContent(label, invoice);
  const pages: PageContent[] = [];
  let page = new PageContent(fonts);
  let y = 0;

  const startPage = (continued: boolean) => {
    page = new PageContent(fonts);
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
    page.rightText(`UNIT (${content.currency})`, COLUMNS.unitValueRight, y, 6.5, true);
    page.rightText(`VALUE (${content.currency})`, COLUMNS.valueRight, y, 6.5, true);
    y -= 4;
    page.rule(y, 0.5);
  };

  startPage(false);
  if (content.marks) {
    y -= 8;
    page.fittedText(content.marks, MARGIN, y, RIGHT - MARGIN, 7, 5);
  }
  y -= 4;
  page.rule(y, 0.75);
  y -= 9;
  page.text("SHIPPER / EXPORTER", MARGIN, y, 6.5, true);
  page.text("CONSIGNEE", MIDDLE + 4, y, 6.5, true);
  for (let row = 0; row < Math.max(content.shipper.length, content.consignee.length); row++) {
    y -= 8.5;
    if (content.shipper[row]) page.fittedText(content.shipper[row]!, MARGIN, y, MIDDLE - MARGIN - 4, 7, 5);
    if (content.consignee[row]) page.fittedText(content.consignee[row]!, MIDDLE + 4, y, RIGHT - MIDDLE - 4, 7, 5);
  }
  y -= 4;
  page.rule(y, 0.75);
  y -= 9;
  page.text(content.terms, MARGIN, y, 7);
  if (content.exportFiling) {
    y -= 9;
    page.fittedText(content.exportFiling, MARGIN, y, RIGHT - MARGIN, 7, 5);
  }
  itemHeader();

  for (const item of content.items) {
    if (y - ITEM_HEIGHT < BOTTOM) {
      startPage(true);
      itemHeader();
    }
    y -= 9;
    page.fittedText(item.description, MARGIN, y, RIGHT - MARGIN, 7.5, 5.5);
    y -= 9;
    page.text(item.quantity, COLUMNS.quantity, y, 7);
    page.text(item.hsCode, COLUMNS.hsCode, y, 7);
    page.text(item.origin, COLUMNS.origin, y, 7);
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
  y -= 6;
  for (const line of page.wrap(content.declaration, RIGHT - MARGIN, 6.5)) {
    y -= 8;
    page.text(line, MARGIN, y, 6.5);
  }
  y -= 16;
  page.text(content.shipperName, MARGIN, y, 7);
  page.text("Signature ______________________", MIDDLE + 4, y, 7);

  pages.forEach((each, index) => each.rightText(pageOf(index, pages.length), RIGHT, LABEL_HEIGHT - MARGIN - 12, 7));
  return pages;
}
