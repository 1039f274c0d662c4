import { PDFDocument, PDFName, type PDFRef, StandardFonts } from "pdf-lib";
import { barsOf, encodeCode128 } from "./code128";
import { invoicePages } from "./invoice-pages";
import { type LabelData, type LabelPiece, addressLines, labelPieces, pieceText, printedReference } from "./label-data";
import { type Fonts, LABEL_HEIGHT, LABEL_WIDTH, MARGIN, PageContent } from "./pdf-page";

export { LABEL_HEIGHT, LABEL_WIDTH } from "./pdf-page";

/** Space kept between the carrier's name and the zone on the label's first line. */
const ZONE_GAP = 8;

/** One box's label: the shipment's addresses and service, the piece's own line ("PIECE 1 of 2", its weight) and barcode. */
function drawLabel(page: PageContent, label: LabelData, piece: LabelPiece): void {
  const right = LABEL_WIDTH - MARGIN;
  let y = LABEL_HEIGHT - MARGIN - 14;
  // The zone ends at the right margin; the carrier's name takes what is left of the line (smaller when long).
  const zone = `ZONE ${label.zone}`;
  page.rightText(zone, right, y, 11, true);
  page.fittedText(label.carrierLabel.toUpperCase(), MARGIN, y, right - page.width(zone, 11, true) - ZONE_GAP - MARGIN, 14, 8, true);
  y -= 16;
  page.text(label.serviceLabel, MARGIN, y, 11);
  y -= 8;
  page.rule(y, 1.5);

  y -= 12;
  page.text("FROM", MARGIN, y, 7, true);
  page.text(`SHIP DATE ${label.shipmentDate}`, right - 110, y, 7);
  for (const line of addressLines(label.sender)) {
    y -= 9;
    page.text(line, MARGIN, y, 8);
  }
  if (label.sender.phone) {
    y -= 9;
    page.text(label.sender.phone, MARGIN, y, 8);
  }
  y -= 8;
  page.rule(y, 0.75);

  y -= 14;
  page.text("SHIP TO", MARGIN, y, 8, true);
  for (const [index, line] of addressLines(label.receiver).entries()) {
    y -= 14;
    page.text(line, MARGIN + 8, y, index === 0 ? 12 : 11, index === 0);
  }
  if (label.receiver.phone) {
    y -= 13;
    page.text(label.receiver.phone, MARGIN + 8, y, 10);
  }
  y -= 10;
  page.rule(y, 1.5);

  y -= 12;
  page.text(`WEIGHT ${piece.weight}   ${pieceText(piece)}`, MARGIN, y, 8, true);
  page.text(`BOOK ${label.bookNumber}`, right - 110, y, 8);
  const reference = printedReference(label);
  if (reference) {
    y -= 10;
    page.text(`REF ${reference}`, MARGIN, y, 8);
  }
  if (label.invoice && piece.index === 1) {
    y -= 10;
    page.text("CUSTOMS: COMMERCIAL INVOICE ON THE NEXT PAGE", MARGIN, y, 7, true);
  }

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
  const doc = await PDFDocument.create({ updateMetadata: false });
  const regular = doc.embedStandardFont(StandardFonts.Helvetica);
  const bold = doc.embedStandardFont(StandardFonts.HelveticaBold);
  const fonts: Fonts = { regular, bold, charset: new Set(regular.getCharacterSet()) };
  const created = new Date(labels[0]?.bookedAt ?? 0);
  doc.setCreationDate(created);
  doc.setModificationDate(created);
  doc.setProducer("Consign Shipping API");
  doc.setTitle(labels.length === 1 ? `Label ${labels[0]!.trackingNumber}` : `${labels.length} labels`);
  const addPage = (content: PageContent) => {
    const page = doc.addPage([LABEL_WIDTH, LABEL_HEIGHT]);
    useFont(page.node, "FR", regular.ref);
    useFont(page.node, "FB", bold.ref);
    page.node.addContentStream(doc.context.register(doc.context.flateStream(content.toString())));
  };
  for (const label of labels) {
    for (const piece of labelPieces(label)) {
      const content = new PageContent(fonts);
      drawLabel(content, label, piece);
      addPage(content);
      if (label.invoice && piece.index === 1) for (const invoicePage of invoicePages(fonts, label, label.invoice)) addPage(invoicePage);
    }
  }
  return doc.save({ useObjectStreams: true });
}

function useFont(node: { setFontDictionary(name: PDFName, ref: PDFRef): void }, name: string, ref: PDFRef): void {
  node.setFontDictionary(PDFName.of(name), ref);
}
