import { FOUR_BY_SIX, type PageContent, type PdfBuilder } from "../../lib/pdf/page-content";

/** 4 × 6 inches at 72 points per inch: labels and the commercial invoice pages printed with them. */
export const LABEL_WIDTH = FOUR_BY_SIX.width;
export const LABEL_HEIGHT = FOUR_BY_SIX.height;
export const MARGIN = 14;

/** A new 4×6 page of `builder`'s document with the labels' margin. */
export function labelPage(builder: PdfBuilder): PageContent {
  return builder.page(FOUR_BY_SIX, MARGIN);
}
