import { type TextRun, readPages } from "../../lib/pdf/read-back";

/** Reading back what a PDF of labels prints, for tests (lib/pdf/read-back.ts): each page's content stream and its text runs. */
export { pageTexts, readPages, textOffPage, type TextRun } from "../../lib/pdf/read-back";

export async function pageContents(pdf: Uint8Array): Promise<string[]> {
  return (await readPages(pdf)).map((page) => page.content);
}

/** Every text each page prints, where, and how wide. */
export async function pageRuns(pdf: Uint8Array): Promise<TextRun[][]> {
  return (await readPages(pdf)).map((page) => page.runs);
}
