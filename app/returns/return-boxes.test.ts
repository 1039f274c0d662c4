import { describe, expect, it } from "vitest";
import { planReturnBoxes } from "./return-boxes";
import type { ReturnLine, ReverseLine } from "./return-node";

const line = (id: string, quantity: number, grams: number): ReturnLine => ({
  id,
  fulfillmentLineItemId: `fli-${id}`,
  title: `Item ${id}`,
  sku: null,
  quantity,
  reason: null,
  note: null,
  weight: { unit: "GRAMS", value: grams },
});
const reverse = (id: string, quantity: number): ReverseLine => ({ id: `rfoli-${id}`, fulfillmentLineItemId: `fli-${id}`, quantity });

const lines = [line("a", 3, 900), line("b", 1, 200)];
const reverseLines = [reverse("a", 3), reverse("b", 1)];

describe("planReturnBoxes", () => {
  it("GIVEN a valid split THEN each box holds its units, a line's weight in proportion, and its reverse lines with the box's quantities", () => {
    const planned = planReturnBoxes(lines, reverseLines, [{ a: 2 }, { a: 1, b: 1 }]);
    expect(planned.ok && planned.boxes).toEqual([
      { lines: [{ ...lines[0], quantity: 2, weight: { unit: "GRAMS", value: 600 } }], reverseLines: [{ ...reverseLines[0], quantity: 2 }] },
      {
        lines: [{ ...lines[0], quantity: 1, weight: { unit: "GRAMS", value: 300 } }, lines[1]],
        reverseLines: [{ ...reverseLines[0], quantity: 1 }, reverseLines[1]],
      },
    ]);
  });

  it("GIVEN every problem at once THEN each is keyed by its field and the message sums them up", () => {
    const planned = planReturnBoxes(lines, reverseLines, [{ a: 4 }, {}, {}, {}, {}]);
    expect(planned.ok).toBe(false);
    if (planned.ok) return;
    expect(planned.fieldErrors).toEqual({
      boxes: "4 items can go in 4 boxes at most. Use fewer boxes.",
      "lines[0]": "The boxes hold 4 of Item a, but 3 are coming back.",
      "lines[1]": "1 of Item b is in no box. Put every item in a box.",
      "boxes[1]": "Box 2 has nothing in it. Put an item in it, or use fewer boxes.",
      "boxes[2]": "Box 3 has nothing in it. Put an item in it, or use fewer boxes.",
      "boxes[3]": "Box 4 has nothing in it. Put an item in it, or use fewer boxes.",
      "boxes[4]": "Box 5 has nothing in it. Put an item in it, or use fewer boxes.",
    });
    expect(planned.message).toContain("4 items can go in 4 boxes at most.");
  });

  it("GIVEN a line Shopify's reverse fulfillment order does not hold, or an id the return does not have THEN the split is refused in words", () => {
    expect(planReturnBoxes(lines, [reverseLines[0]!], [{ a: 3 }, { b: 1 }])).toMatchObject({
      ok: false,
      message: expect.stringContaining("no line to send Item b back on"),
    });
    expect(planReturnBoxes(lines, reverseLines, [{ a: 3 }, { b: 1, c: 1 }])).toMatchObject({
      ok: false,
      fieldErrors: { boxes: "This return's items changed in Shopify. Reload the page, then split it again." },
    });
  });
});
