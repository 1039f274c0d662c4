import { describe, expect, it } from "vitest";
import type { BatchQuoteShipment } from "../../shipping-api/contract";
import type { ShippingSettings } from "../settings/settings";
import {
  type AssignableLine,
  applyPackages,
  assignmentOf,
  derivedBoxWeight,
  evenAssignment,
  linesPerBox,
  packingFacts,
  parseAssignment,
  parsePackages,
} from "./packages";

const boxes: ShippingSettings["boxes"] = [
  { kind: "custom", name: "Standard box", length: "12", width: "9", height: "4", dimUnit: "in" },
  { kind: "custom", name: "Long box", length: "36", width: "6", height: "6", dimUnit: "in" },
  { kind: "custom", name: "Metric box", length: "30", width: "20", height: "10", dimUnit: "cm" },
  { kind: "preset", name: "Flat rate", carrierCode: "NPS", packageTypeCode: "NPS_BOX_MEDIUM" },
];

describe("packages the merchant sets for one shipment", () => {
  it.each([
    ["one package", { box: ["Long box"], weight: ["3.5"] }, [{ box: "Long box", weight: "3.5" }]],
    [
      "a split into two",
      { box: ["Standard box", "Long box"], weight: ["2", "1.25"] },
      [
        { box: "Standard box", weight: "2" },
        { box: "Long box", weight: "1.25" },
      ],
    ],
    [
      "a carrier's package for both",
      { box: ["Flat rate", "Flat rate"], weight: ["1", "1"] },
      [
        { box: "Flat rate", weight: "1" },
        { box: "Flat rate", weight: "1" },
      ],
    ],
  ])("GIVEN %s THEN they are taken", (_, posted, packages) => {
    expect(parsePackages({ shipmentId: "s1", ...posted }, boxes, "lb")).toEqual({ ok: true, shipmentId: "s1", packages });
  });

  it.each([
    ["no shipment", { shipmentId: "", box: ["Long box"], weight: ["1"] }, "shipmentId", "Shipment: choose a shipment"],
    ["no package", { shipmentId: "s1", box: [], weight: [] }, "box", "Boxes: add at least one package"],
    [
      "a weight that is not a number",
      { shipmentId: "s1", box: ["Long box", "Long box"], weight: ["2", "two"] },
      "packages[1].weight",
      "Box 2: weight must be a number, like 12 or 12.5",
    ],
    ["a zero weight", { shipmentId: "s1", box: ["Long box"], weight: ["0"] }, "packages[0].weight", "Box 1: weight must be more than 0"],
    ["a negative weight", { shipmentId: "s1", box: ["Long box"], weight: ["-3"] }, "packages[0].weight", "Box 1: weight must be more than 0"],
    [
      "a 99,999 lb package",
      { shipmentId: "s1", box: ["Long box"], weight: ["99999"] },
      "packages[0].weight",
      "Box 1: weight must be at most 150 lb; split it into more packages",
    ],
    [
      "a box that is not in Settings",
      { shipmentId: "s1", box: ["Crate"], weight: ["1"] },
      "packages[0].box",
      "Box 1: “Crate” is not one of your boxes; add it in Settings first",
    ],
    ["a blank box", { shipmentId: "s1", box: [" "], weight: ["1"] }, "packages[0].box", "Box 1: choose a box"],
    ["more boxes than weights", { shipmentId: "s1", box: ["Long box", "Long box"], weight: ["1"] }, "packages", "Each box needs a size and a weight"],
    [
      "a carrier's package with a custom box",
      { shipmentId: "s1", box: ["Flat rate", "Long box"], weight: ["1", "1"] },
      "packages[0].box",
      "A carrier's own package cannot be mixed with other boxes in one shipment; use it for every package or none",
    ],
    [
      "inches with centimetres",
      { shipmentId: "s1", box: ["Long box", "Metric box"], weight: ["1", "1"] },
      "packages[0].box",
      "Boxes measured in inches and in centimetres cannot go in one shipment; use boxes of one unit",
    ],
    ["eleven packages", { shipmentId: "s1", box: Array(11).fill("Long box"), weight: Array(11).fill("1") }, "box", "Boxes may have at most 10"],
  ])("GIVEN %s THEN it is refused on %s, in words that name the box and no field path", (_, posted, field, message) => {
    expect(parsePackages(posted, boxes, "lb")).toEqual({ ok: false, message, fieldErrors: { [field]: message } });
  });

  const request = {
    shipmentDate: "2026-11-23",
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    carrierCode: undefined,
    pieces: [
      {
        weight: "3.5",
        length: "12",
        width: "9",
        height: "4",
        insuranceAmount: "40.00",
        declaredValue: "40.00",
        lineItems: [{ sku: "MUG", productName: "Mug", quantity: 2 }],
      },
    ],
  } as unknown as BatchQuoteShipment;

  it("GIVEN a split into a standard and a long box THEN each piece has its box's sides and weight; insurance, value and items stay on the first", () => {
    const repacked = applyPackages(
      request,
      [
        { box: "Standard box", weight: "2" },
        { box: "Long box", weight: "1.5" },
      ],
      boxes,
    );
    expect(repacked.dimUnit).toBe("in");
    expect(repacked.pieces).toEqual([
      {
        weight: "2",
        length: "12",
        width: "9",
        height: "4",
        insuranceAmount: "40.00",
        declaredValue: "40.00",
        lineItems: [{ sku: "MUG", productName: "Mug", quantity: 2 }],
      },
      { weight: "1.5", length: "36", width: "6", height: "6", insuranceAmount: null, declaredValue: null, lineItems: null },
    ]);
    expect("carrierCode" in repacked).toBe(false);
  });

  it("GIVEN a carrier's package THEN the request asks that carrier for that package type, without sides", () => {
    const repacked = applyPackages(request, [{ box: "Flat rate", weight: "1" }], boxes);
    expect(repacked).toMatchObject({ carrierCode: "NPS", packageTypeCode: "NPS_BOX_MEDIUM", dimUnit: null });
    expect(repacked.pieces[0]).toMatchObject({ weight: "1", length: null, width: null, height: null });
  });
});

/** A shipment of 3 mugs, a sage apron (size L) and a gift card, as the mirror names its lines. */
const mugs: AssignableLine = { id: "gid://shopify/FulfillmentOrderLineItem/1", product: "Stoneware mug", variant: null, quantity: 3, ships: true };
const apron: AssignableLine = { id: "gid://shopify/FulfillmentOrderLineItem/2", product: "Sage apron", variant: "L", quantity: 2, ships: true };
const giftCard: AssignableLine = { id: "gid://shopify/FulfillmentOrderLineItem/3", product: "Gift card", variant: null, quantity: 1, ships: false };
const lines = [mugs, apron, giftCard];

/** Two boxes: 2 mugs in the first; the third mug and both aprons in the second. */
const twoBoxes = [
  { box: "Standard box", weight: "2", lines: [{ lineId: mugs.id, quantity: 2 }] },
  {
    box: "Long box",
    weight: "1",
    lines: [
      { lineId: mugs.id, quantity: 1 },
      { lineId: apron.id, quantity: 2 },
    ],
  },
];

describe("which items go in which box", () => {
  // Quantities per item, in box order: [mugs in box 1, in box 2, aprons in box 1, in box 2].
  const posted = (quantity: string[], line = [mugs.id, apron.id]) => ({ line, quantity });

  it.each([
    [
      "every unit in one box or another",
      posted(["2", "1", "0", "2"]),
      [
        [{ lineId: mugs.id, quantity: 2 }],
        [
          { lineId: mugs.id, quantity: 1 },
          { lineId: apron.id, quantity: 2 },
        ],
      ],
    ],
    [
      "everything in box 1, a blank for none",
      posted(["3", "", "2", " 0 "]),
      [
        [
          { lineId: mugs.id, quantity: 3 },
          { lineId: apron.id, quantity: 2 },
        ],
        [],
      ],
    ],
    [
      "the gift card listed with no units",
      posted(["3", "0", "0", "2", "0", "0"], [mugs.id, apron.id, giftCard.id]),
      [[{ lineId: mugs.id, quantity: 3 }], [{ lineId: apron.id, quantity: 2 }]],
    ],
  ])("GIVEN %s THEN each box holds its units", (_, form, boxes) => {
    expect(parseAssignment(form, 2, lines)).toEqual({ ok: true, boxes });
  });

  it.each([
    ["units missing", posted(["2", "0", "1", "1"]), "lines[0]", "Stoneware mug: 1 of 3 is in no box; put it in one"],
    ["two missing", posted(["3", "0", "0", "0"]), "lines[1]", "Sage apron — L: 2 of 2 are in no box; put them in one"],
    ["an item left out of the form", posted(["3", "0"], [mugs.id]), "lines", "Sage apron — L: none of its 2 is in a box; put them in the boxes"],
    ["more than there are", posted(["1", "3", "2", "0"]), "packages[1].lines[0]", "Box 2: 3 × Stoneware mug is more than the 2 left"],
    ["more than are left", posted(["3", "1", "2", "0"]), "packages[1].lines[0]", "Box 2: 1 × Stoneware mug is more than are left: all 3 are in earlier boxes"],
    ["more in the first box than the order has", posted(["4", "0", "2", "0"]), "packages[0].lines[0]", "Box 1: 4 × Stoneware mug is more than the 3 left"],
    [
      "an item of another order",
      posted(["3", "0", "2", "0", "1", "0"], [mugs.id, apron.id, "gid://shopify/FulfillmentOrderLineItem/99"]),
      "lines[2]",
      "Item 3 is not one of this shipment's items; open the packages again",
    ],
    ["a blank item", posted(["3", "0", "2", "0"], [" ", apron.id]), "lines[0]", "Item 1 is not one of this shipment's items; open the packages again"],
    ["an item listed twice", posted(["3", "0", "0", "0"], [mugs.id, mugs.id]), "lines[1]", "Stoneware mug is listed twice; open the packages again"],
    [
      "a gift card in a box",
      posted(["3", "0", "2", "0", "0", "1"], [mugs.id, apron.id, giftCard.id]),
      "packages[1].lines[2]",
      "Box 2: 1 × Gift card needs no shipping (a gift card or a digital product); leave it out of the boxes",
    ],
    ["half a mug", posted(["2.5", "0.5", "2", "0"]), "packages[0].lines[0]", "Box 1: the quantity of Stoneware mug must be a whole number, 0 or more"],
    ["a negative quantity", posted(["3", "0", "3", "-1"]), "packages[1].lines[1]", "Box 2: the quantity of Sage apron — L must be a whole number, 0 or more"],
    ["a quantity missing", posted(["3", "0", "2"]), "lines", "Each item needs a quantity in every box; open the packages again"],
  ])("GIVEN %s THEN it is refused on %s, naming the box and the item", (_, form, field, message) => {
    expect(parseAssignment(form, 2, lines)).toEqual({ ok: false, message, fieldErrors: { [field]: message } });
  });

  it("GIVEN two boxes posted with their items THEN the packages keep them; GIVEN one box THEN it holds everything and keeps no list", () => {
    const two = parsePackages({ shipmentId: "s1", box: ["Standard box", "Long box"], weight: ["2", "1"], ...posted(["2", "1", "0", "2"]) }, boxes, "lb", lines);
    expect(two).toEqual({ ok: true, shipmentId: "s1", packages: twoBoxes });
    expect(parsePackages({ shipmentId: "s1", box: ["Long box"], weight: ["3"], ...posted(["9", "9", "9", "9"]) }, boxes, "lb", lines)).toEqual({
      ok: true,
      shipmentId: "s1",
      packages: [{ box: "Long box", weight: "3" }],
    });
    // Two boxes without saying what is in them: refused, naming what is in no box.
    expect(parsePackages({ shipmentId: "s1", box: ["Long box", "Long box"], weight: ["1", "1"] }, boxes, "lb", lines)).toMatchObject({
      ok: false,
      fieldErrors: { lines: "Stoneware mug: none of its 3 is in a box; put them in the boxes" },
    });
  });

  it("GIVEN 3 mugs and 2 aprons THEN the first suggestion deals them out evenly in runs; saved items are shown as saved while they still place every unit", () => {
    expect(evenAssignment([mugs, apron], 2)).toEqual([
      [3, 0],
      [0, 2],
    ]);
    expect(evenAssignment([mugs, apron], 3)).toEqual([
      [2, 0],
      [1, 1],
      [0, 1],
    ]);
    expect(evenAssignment([{ quantity: 1 }], 2)).toEqual([[1], [0]]);
    const facts = packingFacts(
      [
        { ...mugs, sku: "MUG", weight: { value: 0.75, unit: "POUNDS" }, location: null },
        { ...apron, sku: "APR-L", weight: null, location: null },
        { ...giftCard, sku: "GIFT", weight: null, location: null },
      ],
      { value: 4, unit: "oz" },
    );
    expect(facts.lines.map((line) => [line.name, line.quantity])).toEqual([
      ["Stoneware mug", 3],
      ["Sage apron — L", 2],
    ]);
    expect(assignmentOf(twoBoxes, facts.lines)).toEqual([
      [2, 0],
      [1, 2],
    ]);
    // Saved before items were assigned, or no longer placing every unit (the order changed): the even suggestion.
    expect(
      assignmentOf(
        twoBoxes.map(({ box, weight }) => ({ box, weight })),
        facts.lines,
      ),
    ).toEqual(evenAssignment(facts.lines, 2));
    expect(assignmentOf([twoBoxes[0]!, { ...twoBoxes[1]!, lines: [] }], facts.lines)).toEqual(evenAssignment(facts.lines, 2));

    // Two mugs at 0.75 lb and 4 oz of packaging: 1.75 lb; a box with an apron (no weight known) or nothing in it: none offered.
    expect(derivedBoxWeight(facts, [2, 0], "lb")).toBe("1.750");
    expect(derivedBoxWeight(facts, [2, 0], "kg")).toBe("0.794");
    expect(derivedBoxWeight(facts, [1, 1], "lb")).toBeNull();
    expect(derivedBoxWeight(facts, [0, 0], "lb")).toBeNull();
  });

  it("GIVEN the packages as stored THEN each box's own lines for its slip, or none where they do not say or no longer fit", () => {
    const shipped = [
      { id: mugs.id, sku: "MUG", quantity: 3 },
      { id: apron.id, sku: "APR-L", quantity: 2 },
    ];
    const stored = JSON.stringify(twoBoxes);
    expect(linesPerBox(stored, 2, shipped)).toEqual([
      [{ id: mugs.id, sku: "MUG", quantity: 2 }],
      [
        { id: mugs.id, sku: "MUG", quantity: 1 },
        { id: apron.id, sku: "APR-L", quantity: 2 },
      ],
    ]);
    // Saved before items were assigned (today's rows), one box, boxes booked other than stored, or more than the shipment has.
    expect(
      linesPerBox(
        JSON.stringify([
          { box: "Standard box", weight: "2" },
          { box: "Standard box", weight: "2" },
        ]),
        2,
        shipped,
      ),
    ).toBeNull();
    expect(linesPerBox(JSON.stringify([{ box: "Standard box", weight: "4" }]), 1, shipped)).toBeNull();
    expect(linesPerBox(stored, 3, shipped)).toBeNull();
    expect(linesPerBox(stored, 2, [{ id: mugs.id, sku: "MUG", quantity: 3 }])).toBeNull();
    expect(linesPerBox(null, 2, shipped)).toBeNull();
  });
});
