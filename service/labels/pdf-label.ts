import { internationalPhone } from "../../lib/postal-address";
import { type PageContent, PdfBuilder } from "../../lib/pdf/page-content";
import { barsOf, encodeCode128 } from "./code128";
import { invoicePages } from "./invoice-pages";
import { type LabelData, type LabelPiece, addressLines, labelPieces, pieceText, printedReference } from "./label-data";
import { LABEL_HEIGHT, LABEL_WIDTH, MARGIN, labelPage } from "./pdf-page";

export { LABEL_HEIGHT, LABEL_WIDTH } from "./pdf-page";

/** Space kept between the carrier's name and the zone on the label's first line. */
const ZONE_GAP = 8;

/** Where the label's text must end: above the barcode's caption. */
const TEXT_BOTTOM = MARGIN + 26 + 82 + 12;

/**
 * One box's label: the shipment's addresses and service, the piece's own line ("PIECE 1 of 2", its weight)
 * and barcode. Addresses are in the destination's own order (postal-address.ts) and wrap rather than run off;
 * when a long address would reach the barcode, the whole text block is drawn again smaller (`scale`).
 */
function drawLabel(page: PageContent, label: LabelData, piece: LabelPiece, scale: number): number {
  const right = LABEL_WIDTH - MARGIN;
  const width = right - MARGIN;
  const s = (size: number) => size * scale;
  let y = LABEL_HEIGHT - MARGIN - 14;
  // The zone ends at the right margin; the carrier's name takes what is left of the line (smaller when long).
  const zone = `ZONE ${label.zone}`;
  page.rightText(zone, right, y, 11, true);
  page.fittedText(label.carrierLabel.toUpperCase(), MARGIN, y, right - page.width(zone, 11, true) - ZONE_GAP - MARGIN, 14, true);
  y -= 16;
  page.fittedText(label.serviceLabel, MARGIN, y, width, 11);
  y -= 8;
  page.rule(y, 1.5);

  y -= 12;
  page.text("FROM", MARGIN, y, 7, true);
  page.rightText(`SHIP DATE ${label.shipmentDate}`, right, y, 7);
  const sender = [...addressLines(label.sender), ...(label.sender.phone ? [internationalPhone(label.sender.phone, label.sender.country)] : [])];
  for (const line of sender) y = page.block(line, MARGIN, y - s(9), width, s(8), s(6.5));
  y -= 8;
  page.rule(y, 0.75);

  y -= 14;
  page.text("SHIP TO", MARGIN, y, 8, true);
  for (const line of addressLines(label.receiver)) {
    const name = line === label.receiver.name;
    y = page.block(line, MARGIN + 8, y - s(14), width - 8, s(name ? 12 : 11), s(8), name);
  }
  if (label.receiver.phone) y = page.block(internationalPhone(label.receiver.phone, label.receiver.country), MARGIN + 8, y - s(13), width - 8, s(10), s(8));
  y -= 10;
  page.rule(y, 1.5);

  y -= 12;
  page.text(`WEIGHT ${piece.weight}   ${pieceText(piece)}`, MARGIN, y, 8, true);
  page.rightText(`BOOK ${label.bookNumber}`, right, y, 8);
  const reference = printedReference(label);
  if (reference) y = page.block(`REF ${reference}`, MARGIN, y - 10, width, 8, 6);
  if (label.invoice && piece.index === 1) {
    y -= 10;
    page.text("CUSTOMS: COMMERCIAL INVOICE ON THE NEXT PAGE", MARGIN, y, 7, true);
  }
  return y;
}

function drawBarcode(page: PageContent, piece: LabelPiece): void {
  // Barcode: as wide as fits (at most 2 pt per module), one inch tall, the number in text below.
  const { bars, modules } = barsOf(encodeCode128(piece.trackingNumber));
  const quietZone = 10;
  const module = Math.min(2, (LABEL_WIDTH - 2 * MARGIN - 2 * quietZone) / modules);
  const left = (LABEL_WIDTH - module * modules) / 2;
  const barBottom = MARGIN + 26;
  page.text("TRACKING #", MARGIN, barBottom + 82, 8, true);
  for (const bar of bars) page.rect(left + bar.x * module, barBottom, bar.width * module, 72);
  page.fill();
  page.centredText(piece.trackingNumber, MARGIN + 10, 11, true);
}

/**
 * One 4×6 page per piece of each shipment ("1 of 2", "2 of 2"), in the given order, an international
 * shipment's first label followed by its commercial invoice page(s): one document to print. All are drawn into a single document (faster and
 * smaller than merging per-label PDFs). Metadata dates come from the labels, so the bytes are deterministic.
 */
export async function renderLabelsPdf(labels: readonly LabelData[]): Promise<Uint8Array> {
  const builder = await PdfBuilder.create({
    title: labels.length === 1 ? `Label ${labels[0]!.trackingNumber}` : `${labels.length} labels`,
    producer: "Consign Shipping API",
    created: new Date(labels[0]?.bookedAt ?? 0),
  });
  for (const label of labels) {
    for (const piece of labelPieces(label)) {
      builder.add(labelContent(builder, label, piece));
      if (label.invoice && piece.index === 1) for (const invoicePage of invoicePages(builder, label, label.invoice)) builder.add(invoicePage);
    }
  }
  return builder.save();
}

/** A piece's label page, its text made smaller in steps until it ends above the barcode. */
function labelContent(builder: PdfBuilder, label: LabelData, piece: LabelPiece): PageContent {
  for (let scale = 1; ; scale -= 0.1) {
    const content = labelPage(builder);
    if (drawLabel(content, label, piece, scale) >= TEXT_BOTTOM || scale <= 0.5) {
      drawBarcode(content, piece);
      return content;
    }
  }
}
