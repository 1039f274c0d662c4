import { formatCents, parseCents } from "../money";
import { type LabelAddress, type LabelData, type LabelInvoice, addressLines, printedReference } from "./label-data";
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

const DECLARATION = "I declare that the information on this invoice is true and correct, and that the contents of this shipment are as stated above.";

function lineValueCents(item: LabelInvoice["items"][number]): number {
  return (parseCents(item.unitValue) ?? 0) * item.quantity;
}

export function invoicePages(fonts: Fonts, label: LabelData, invoice: LabelInvoice): PageContent[] {
  const pages: PageContent[] = [];
  let page = new PageContent(fonts);
  let y = 0;

  const startPage = (continued: boolean) => {
    page = new PageContent(fonts);
    pages.push(page);
    y = LABEL_HEIGHT - MARGIN - 12;
    page.text(continued ? "COMMERCIAL INVOICE (CONTINUED)" : "COMMERCIAL INVOICE", MARGIN, y, continued ? 10 : 12, true);
    y -= 12;
    page.text(`Tracking ${label.trackingNumber}`, MARGIN, y, 7);
    page.rightText(`Date ${label.shipmentDate}`, RIGHT, y, 7);
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
    page.rightText(`UNIT (${invoice.currency})`, COLUMNS.unitValueRight, y, 6.5, true);
    page.rightText(`VALUE (${invoice.currency})`, COLUMNS.valueRight, y, 6.5, true);
    y -= 4;
    page.rule(y, 0.5);
  };

  startPage(false);
  const reference = invoice.packageMarks || printedReference(label);
  if (reference) {
    y -= 8;
    page.fittedText(`Invoice / package marks ${reference}`, MARGIN, y, RIGHT - MARGIN, 7, 5);
  }
  y -= 4;
  page.rule(y, 0.75);
  y -= 9;
  page.text("SHIPPER / EXPORTER", MARGIN, y, 6.5, true);
  page.text("CONSIGNEE", MIDDLE + 4, y, 6.5, true);
  const party = (address: LabelAddress, taxId: string) => [...addressLines(address), ...(address.phone ? [address.phone] : []), ...(taxId ? [`Tax ID ${taxId}`] : [])];
  const shipper = party(label.sender, invoice.senderTaxId);
  const consignee = party(label.receiver, invoice.receiverTaxId);
  for (let row = 0; row < Math.max(shipper.length, consignee.length); row++) {
    y -= 8.5;
    if (shipper[row]) page.fittedText(shipper[row]!, MARGIN, y, MIDDLE - MARGIN - 4, 7, 5);
    if (consignee[row]) page.fittedText(consignee[row]!, MIDDLE + 4, y, RIGHT - MIDDLE - 4, 7, 5);
  }
  y -= 4;
  page.rule(y, 0.75);
  y -= 9;
  page.text(`Terms of trade ${invoice.termsOfTrade}   Currency ${invoice.currency}   Export ${label.sender.country} to ${label.receiver.country}`, MARGIN, y, 7);
  if (invoice.exportFiling) {
    y -= 9;
    page.fittedText(`Export filing ${invoice.exportFiling}`, MARGIN, y, RIGHT - MARGIN, 7, 5);
  }
  itemHeader();

  for (const item of invoice.items) {
    if (y - ITEM_HEIGHT < BOTTOM) {
      startPage(true);
      itemHeader();
    }
    y -= 9;
    page.fittedText(item.description, MARGIN, y, RIGHT - MARGIN, 7.5, 5.5);
    y -= 9;
    page.text(String(item.quantity), COLUMNS.quantity, y, 7);
    page.text(item.htsNumber || "-", COLUMNS.hsCode, y, 7);
    page.text(item.countryOfOrigin, COLUMNS.origin, y, 7);
    page.rightText(item.unitValue, COLUMNS.unitValueRight, y, 7);
    page.rightText(formatCents(lineValueCents(item)), COLUMNS.valueRight, y, 7);
    y -= 3;
  }

  if (y - CLOSING_HEIGHT < BOTTOM) startPage(true);
  y -= 3;
  page.rule(y, 0.75);
  y -= 11;
  const totalCents = invoice.items.reduce((sum, item) => sum + lineValueCents(item), 0);
  const units = invoice.items.reduce((sum, item) => sum + item.quantity, 0);
  page.text("TOTAL VALUE", MARGIN, y, 8, true);
  page.rightText(`${invoice.currency} ${formatCents(totalCents)}`, RIGHT, y, 9, true);
  y -= 10;
  page.text(`Units ${units}   Packages ${label.pieceCount}   Weight ${label.weight}`, MARGIN, y, 7);
  y -= 6;
  for (const line of page.wrap(DECLARATION, RIGHT - MARGIN, 6.5)) {
    y -= 8;
    page.text(line, MARGIN, y, 6.5);
  }
  y -= 16;
  page.text(`Shipper ${label.sender.name}`, MARGIN, y, 7);
  page.text("Signature ______________________", MIDDLE + 4, y, 7);

  pages.forEach((each, index) => each.rightText(`Page ${index + 1} of ${pages.length}`, RIGHT, LABEL_HEIGHT - MARGIN - 12, 7));
  return pages;
}
