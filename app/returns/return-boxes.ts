import { z } from "zod";
import type { FieldErrors } from "../field-errors";
import type { Outcome } from "../outcome";
import type { ReturnLine, ReverseLine } from "./return-node";

/**
 * A return in several boxes (issue 24 §2, docs/decisions/041 "a return's boxes"), pure: the merchant's split of a
 * return's items (for each box, how many of each returned line it holds) checked against the return, and each box's
 * items (their weights in proportion) and its reverse fulfillment order lines, which its reverse delivery is
 * created with. One box, the default, holds every item and every reverse line.
 */

/** Boxes one return may be split into: more than any parcel of returned items needs, fewer than a page can show. */
export const MAX_RETURN_BOXES = 20;

/** The merchant's split as the page sends it: per box, the returned line's id → how many of it the box holds. */
export const ReturnSplit = z
  .array(z.record(z.string().min(1).max(100), z.number().int().min(0).max(100_000)))
  .min(1, "Choose at least one box.")
  .max(MAX_RETURN_BOXES, `A return can go in ${MAX_RETURN_BOXES} boxes at most.`);
export type ReturnSplit = z.infer<typeof ReturnSplit>;

/** One box of a return: the items in it (each line's weight that of the units in the box) and its reverse lines. */
export interface ReturnBox {
  lines: ReturnLine[];
  reverseLines: ReverseLine[];
}

/** The whole return in one box: every item, every reverse line as Shopify has it. */
export function oneBox(lines: ReturnLine[], reverseLines: ReverseLine[]): ReturnBox {
  return { lines, reverseLines };
}

/** `quantity` of a returned line: its weight that of those units (Shopify gives the weight of all of them). */
function partOf(line: ReturnLine, quantity: number): ReturnLine {
  if (quantity === line.quantity || !line.weight) return { ...line, quantity };
  return { ...line, quantity, weight: { unit: line.weight.unit, value: (line.weight.value * quantity) / line.quantity } };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * The boxes of a split, or what is wrong with it, each problem keyed by its field: `boxes` (more boxes than items),
 * `boxes[i]` (box i+1 holds nothing), `lines[j]` (a unit of the return's line j in no box, or in more boxes than
 * come back). Every unit must be in exactly one box.
 */
export function planReturnBoxes(
  lines: ReturnLine[],
  reverseLines: ReverseLine[],
  split: ReturnSplit,
): Outcome<{ boxes: ReturnBox[] }, { fieldErrors: FieldErrors }> {
  const fieldErrors: FieldErrors = {};
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  if (split.length > units) fieldErrors.boxes = `${plural(units, "item", "items")} can go in ${plural(units, "box", "boxes")} at most. Use fewer boxes.`;
  const known = new Set(lines.map((line) => line.id));
  for (const box of split)
    for (const lineId of Object.keys(box))
      if (!known.has(lineId)) fieldErrors.boxes ??= "This return's items changed in Shopify. Reload the page, then split it again.";
  lines.forEach((line, index) => {
    const boxed = split.reduce((sum, box) => sum + (box[line.id] ?? 0), 0);
    if (boxed < line.quantity)
      fieldErrors[`lines[${index}]`] =
        `${line.quantity - boxed} of ${line.title} ${line.quantity - boxed === 1 ? "is" : "are"} in no box. Put every item in a box.`;
    else if (boxed > line.quantity)
      fieldErrors[`lines[${index}]`] = `The boxes hold ${boxed} of ${line.title}, but ${line.quantity} ${line.quantity === 1 ? "is" : "are"} coming back.`;
  });
  split.forEach((box, index) => {
    if (!Object.values(box).some((quantity) => quantity > 0))
      fieldErrors[`boxes[${index}]`] = `Box ${index + 1} has nothing in it. Put an item in it, or use fewer boxes.`;
  });
  const missing = lines.filter((line) => !reverseLines.some((reverse) => reverse.fulfillmentLineItemId === line.fulfillmentLineItemId));
  if (missing.length > 0)
    return {
      ok: false,
      message: `Shopify's return has no line to send ${missing.map((line) => line.title).join(", ")} back on. Check Shopify for returns, then split it again.`,
      fieldErrors,
    };
  const problems = Object.values(fieldErrors);
  if (problems.length > 0) return { ok: false, message: problems.join(" "), fieldErrors };
  const boxes = split.map((box) => {
    const held = lines.filter((line) => (box[line.id] ?? 0) > 0);
    return {
      lines: held.map((line) => partOf(line, box[line.id]!)),
      reverseLines: held.map((line) => {
        const reverse = reverseLines.find((candidate) => candidate.fulfillmentLineItemId === line.fulfillmentLineItemId)!;
        return { ...reverse, quantity: box[line.id]! };
      }),
    };
  });
  return { ok: true, boxes };
}
