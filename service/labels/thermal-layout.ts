import { type LabelData, addressLines, printedReference } from "./label-data";

/**
 * The one layout of the 4×6 in thermal labels, in printer dots at 203 dpi (812 × 1218). ZPL, EPL2 and
 * PNG render the same items, each in its own commands, so the three formats cannot drift apart.
 */
export const DOTS_WIDE = 812;
export const DOTS_HIGH = 1218;
const LEFT = 30;

export interface TextItem {
  x: number;
  y: number;
  /** Character height in dots. */
  height: number;
  value: string;
}

export interface ThermalLayout {
  texts: TextItem[];
  rules: { x: number; y: number; width: number; thickness: number }[];
  barcode: { x: number; y: number; height: number; data: string };
}

export function thermalLayout(label: LabelData): ThermalLayout {
  const texts: TextItem[] = [
    { x: LEFT, y: 30, height: 48, value: label.carrierLabel.toUpperCase() },
    { x: 620, y: 90, height: 28, value: `ZONE ${label.zone}` },
    { x: LEFT, y: 90, height: 28, value: label.serviceLabel },
    { x: LEFT, y: 150, height: 21, value: "FROM" },
    ...addressLines(label.sender).map((line, index) => ({ x: LEFT, y: 180 + index * 28, height: 21, value: line })),
    { x: LEFT, y: 380, height: 21, value: "SHIP TO" },
    ...addressLines(label.receiver).map((line, index) => ({ x: LEFT + 20, y: 420 + index * 40, height: 28, value: line })),
    { x: LEFT, y: 700, height: 21, value: `WEIGHT ${label.weight}  PIECES ${label.pieceCount}  DATE ${label.shipmentDate}` },
    { x: LEFT, y: 735, height: 21, value: `BOOK ${label.bookNumber}` },
  ];
  const reference = printedReference(label);
  if (reference) texts.push({ x: LEFT, y: 770, height: 21, value: `REF ${reference}` });
  const width = DOTS_WIDE - 2 * LEFT;
  return {
    texts,
    rules: [
      { x: LEFT, y: 130, width, thickness: 4 },
      { x: LEFT, y: 360, width, thickness: 2 },
      { x: LEFT, y: 680, width, thickness: 4 },
    ],
    barcode: { x: 60, y: 870, height: 220, data: label.trackingNumber },
  };
}
