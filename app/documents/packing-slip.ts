import { type PageContent, type PageSize, PdfBuilder } from "../../lib/pdf/page-content";
import { type PostalAddress, internationalPhone, postalLines } from "../../lib/postal-address";
import { itemName } from "../orders/shipment-lines";

/**
 * The packing slip that goes into each box: the shop's name and address, the order's number and date, who it
 * ships to (in the destination's own format), the box's own lines (product, variant, SKU, quantity; "Box 1 of 2"
 * when the order ships in several), the order's note and gift message, and the shipping service by name. Drawn
 * by the app, on 4×6 (the label printer) or Letter / A4 (Settings), in every script (lib/pdf/fonts.ts);
 * nothing is cut: long names wrap, and lines run on to further pages that say "Page 2 of 2".
 */
export interface PackingSlipLine {
  product: string;
  variant: string | null;
  sku: string;
  quantity: number;
}

export interface PackingSlip {
  shop: { name: string; address: PostalAddress };
  orderName: string;
  /** As the merchant reads it, "27 Nov 2026". */
  orderDate: string;
  shipTo: PostalAddress & { phone: string };
  /** The service the box ships with, by name: "Brownline Parcel Ground". */
  service: string;
  /** Each box's lines, in box order; an order in one box has one entry. */
  boxes: PackingSlipLine[][];
  /**
   * Whether each box's lines are its own (the merchant put the items in the boxes in the packages editor). When
   * the packages do not say (saved before items were assigned to boxes), every box's slip lists the whole
   * shipment, and says so rather than counting it as the box's.
   */
  linesPerBox: boolean;
  note: string | null;
  giftMessage: string | null;
}

interface Layout {
  margin: number;
  /** Body text size; headings and the small print scale from it. */
  body: number;
}

const layoutFor = (size: PageSize): Layout => (size.width < 400 ? { margin: 14, body: 8 } : { margin: 40, body: 10 });

/** A slip's pages, for every box of the order, added to `builder` (so slips can follow labels in one job). */
export function addPackingSlipPages(builder: PdfBuilder, size: PageSize, slip: PackingSlip): void {
  slip.boxes.forEach((lines, index) => {
    for (const page of boxPages(builder, size, slip, lines, index)) builder.add(page);
  });
}

export async function renderPackingSlips(size: PageSize, slips: readonly PackingSlip[], created: Date): Promise<Uint8Array> {
  const builder = await PdfBuilder.create({
    title: slips.length === 1 ? `Packing slip ${slips[0]!.orderName}` : `${slips.length} packing slips`,
    producer: "Consign",
    created,
  });
  for (const slip of slips) addPackingSlipPages(builder, size, slip);
  return builder.save();
}

function boxPages(builder: PdfBuilder, size: PageSize, slip: PackingSlip, lines: readonly PackingSlipLine[], boxIndex: number): PageContent[] {
  const { margin, body } = layoutFor(size);
  const pages: PageContent[] = [];
  const width = size.width - 2 * margin;
  const columns = { quantity: margin, item: margin + body * 3.5, skuWidth: width * 0.3 };
  const skuLeft = size.width - margin - columns.skuWidth;
  let page = builder.page(size, margin);
  let y = 0;
  const box = slip.boxes.length > 1 ? `Box ${boxIndex + 1} of ${slip.boxes.length}` : null;

  const header = (first: boolean) => {
    page = builder.page(size, margin);
    pages.push(page);
    y = size.height - margin - body * 1.6;
    page.text("PACKING SLIP", margin, y, body * 1.6, true);
    page.rightText(slip.orderName, page.right, y, body * 1.6, true);
    y -= body * 1.5;
    page.rightText(slip.orderDate, page.right, y, body);
    if (box) page.text(box, margin, y, body * 1.2, true);
    if (!first) return;
    y -= body * 0.8;
    page.rule(y, 1);
    // The shop on the left, the customer on the right.
    const half = width / 2 - 6;
    const from = [slip.shop.name, ...postalLines(slip.shop.address)];
    const to = [...postalLines(slip.shipTo), ...(slip.shipTo.phone ? [internationalPhone(slip.shipTo.phone, slip.shipTo.country)] : [])];
    y -= body * 1.3;
    page.text("FROM", margin, y, body * 0.8, true);
    page.text("SHIP TO", margin + half + 12, y, body * 0.8, true);
    let left = y;
    let right = y;
    from.forEach((line, index) => (left = page.block(line, margin, left - body * 1.25, half, body, body * 0.75, index === 0)));
    to.forEach(
      (line, index) => (right = page.block(line, margin + half + 12, right - body * 1.25, half, body, body * 0.75, index === 0 && line === slip.shipTo.name)),
    );
    y = Math.min(left, right) - body * 0.8;
    page.rule(y, 0.5);
    y = page.block(`Shipping: ${slip.service}`, margin, y - body * 1.4, width, body, body * 0.75, true);
  };

  const tableHeader = () => {
    y -= body * 0.8;
    page.rule(y, 1);
    y -= body * 1.2;
    page.text("QTY", columns.quantity, y, body * 0.8, true);
    page.text("ITEM", columns.item, y, body * 0.8, true);
    page.text("SKU", skuLeft, y, body * 0.8, true);
    y -= body * 0.5;
    page.rule(y, 0.5);
  };

  header(true);
  tableHeader();
  const itemWidth = skuLeft - columns.item - 6;
  for (const line of lines) {
    const item = itemName(line);
    const itemLines = page.fit(item, itemWidth, body, body * 0.75);
    const skuLines = page.fit(line.sku || "-", columns.skuWidth, body, body * 0.75);
    const height = Math.max(itemLines.lines.length * itemLines.size, skuLines.lines.length * skuLines.size) * 1.2 + body * 0.6;
    if (y - height < margin + body * 2) {
      header(false);
      tableHeader();
    }
    const top = y - body * 1.3;
    page.text(String(line.quantity), columns.quantity, top, body, true);
    const itemBottom = page.block(item, columns.item, top, itemWidth, body, body * 0.75);
    const skuBottom = page.block(line.sku || "-", skuLeft, top, columns.skuWidth, body, body * 0.75);
    y = Math.min(itemBottom, skuBottom) - body * 0.4;
  }
  y -= body * 0.4;
  page.rule(y, 0.5);
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  y -= body * 1.3;
  const count = `${units} ${units === 1 ? "item" : "items"}`;
  const summary = !box ? count : slip.linesPerBox ? `${count} in this box` : `${count} in this shipment of ${slip.boxes.length} boxes`;
  y = page.block(summary, margin, y, width, body, body * 0.75, true);

  for (const [heading, text] of [
    ["Note", slip.note],
    ["Gift message", slip.giftMessage],
  ] as const) {
    if (!text?.trim()) continue;
    const wrapped = page.wrap(text.trim(), width, body);
    if (y - (wrapped.length + 2) * body * 1.25 < margin) header(false);
    y -= body * 1.8;
    page.text(heading, margin, y, body * 0.9, true);
    for (const line of wrapped) {
      y -= body * 1.25;
      if (y < margin + body) {
        header(false);
        y -= body * 1.8;
      }
      page.text(line, margin, y, body);
    }
  }

  if (pages.length > 1) pages.forEach((each, index) => each.text(`Page ${index + 1} of ${pages.length}`, margin, margin, body * 0.8));
  return pages;
}
