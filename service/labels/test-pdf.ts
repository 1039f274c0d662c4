import { PDFArray, PDFDocument, PDFRawStream, StandardFonts, decodePDFRawStream } from "pdf-lib";

/** Reading back what a PDF of labels prints, for tests: each page's content stream and its text runs. */

export async function pageContents(pdf: Uint8Array): Promise<string[]> {
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

export interface TextRun {
  text: string;
  size: number;
  x: number;
  y: number;
  width: number;
}

/** Every text a page prints, where, and how wide (measured with the same standard fonts). */
export async function textRuns(content: string): Promise<TextRun[]> {
  const scratch = await PDFDocument.create();
  const fonts = { FR: scratch.embedStandardFont(StandardFonts.Helvetica), FB: scratch.embedStandardFont(StandardFonts.HelveticaBold) };
  return [...content.matchAll(/BT \/(F[RB]) ([\d.]+) Tf ([\d.]+) ([\d.]+) Td <([0-9A-F]*)> Tj ET/g)].map(([, font, size, x, y, encoded]) => {
    // WinAnsi byte 0x85 is the ellipsis.
    const text = Buffer.from(encoded!, "hex").toString("latin1").replaceAll("\u0085", "\u2026");
    return { text, size: Number(size), x: Number(x), y: Number(y), width: fonts[font as "FR" | "FB"].widthOfTextAtSize(text, Number(size)) };
  });
}

/** The text runs of every page of a PDF, page by page, in drawing order. */
export async function pageTexts(pdf: Uint8Array): Promise<string[][]> {
  const pages = await pageContents(pdf);
  return Promise.all(pages.map(async (content) => (await textRuns(content)).map((run) => run.text)));
}
