import { describe, expect, it } from "vitest";
import type { BatchQuoteShipment } from "../../shipping-api/contract";
import type { ShippingSettings } from "../settings/settings";
import { applyPackages, parsePackages } from "./packages";

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
