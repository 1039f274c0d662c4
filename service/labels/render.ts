import type { LabelImageFormat } from "../../shipping-api/contract";
import type { LabelData } from "./label-data";
import { renderLabelsPdf } from "./pdf-label";
import { renderPng } from "./png-label";
import { renderEpl2, renderZpl } from "./thermal";

/** One shipment's label in the format it was booked with. */
export async function renderLabelImage(format: LabelImageFormat, label: LabelData): Promise<Buffer> {
  switch (format) {
    case "PDF":
      return Buffer.from(await renderLabelsPdf([label]));
    case "ZPL":
      return Buffer.from(renderZpl(label), "utf8");
    case "EPL2":
      return Buffer.from(renderEpl2(label), "latin1");
    case "PNG":
      return renderPng(label);
  }
}
