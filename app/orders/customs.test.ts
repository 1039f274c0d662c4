import { describe, expect, it } from "vitest";
import { buildMirroredOrder } from "../../test/factories/orders";
import { applyCustoms, parseCustoms } from "./customs";

describe("customs details typed in Consign", () => {
  it.each([
    ["an HS code with dots", { hsCode: ["4911.99"], countryOfOrigin: [""] }, { L1: { hsCode: "491199" } }],
    ["an origin in lower case", { hsCode: [""], countryOfOrigin: ["pt"] }, { L1: { countryOfOrigin: "PT" } }],
    ["both, ten digits", { hsCode: ["6912.00.4810"], countryOfOrigin: ["US"] }, { L1: { hsCode: "6912004810", countryOfOrigin: "US" } }],
  ])("GIVEN %s THEN it is kept as Shopify would write it", (_, typed, entries) => {
    expect(parseCustoms({ orderId: "gid://shopify/Order/1", lineId: ["L1"], ...typed })).toEqual({
      ok: true,
      orderId: "gid://shopify/Order/1",
      entries,
    });
  });

  it.each([
    ["a weight in pounds", { weight: ["0.5"], weightUnit: "POUNDS" }, { L1: { weight: { value: 0.5, unit: "POUNDS" } } }],
    ["a weight with a comma", { weight: ["1,25"], weightUnit: "KILOGRAMS" }, { L1: { weight: { value: 1.25, unit: "KILOGRAMS" } } }],
    [
      "an HS code and a weight",
      { hsCode: ["491199"], weight: ["300"], weightUnit: "GRAMS" },
      { L1: { hsCode: "491199", weight: { value: 300, unit: "GRAMS" } } },
    ],
  ])("GIVEN %s THEN it is kept for the order's line", (_, typed, entries) => {
    expect(parseCustoms({ orderId: "gid://shopify/Order/1", lineId: ["L1"], hsCode: [""], countryOfOrigin: [""], ...typed })).toEqual({
      ok: true,
      orderId: "gid://shopify/Order/1",
      entries,
    });
  });

  it.each([
    ["a weight of 0", { weight: ["0"], weightUnit: "POUNDS" }, "lines[0].weight", "Item 1: weight must be more than 0, like 0.5 (in lb)"],
    ["words for a weight", { weight: ["half a pound"], weightUnit: "POUNDS" }, "lines[0].weight", "Item 1: weight must be more than 0, like 0.5 (in lb)"],
    ["a negative weight", { weight: ["-2"], weightUnit: "GRAMS" }, "lines[0].weight", "Item 1: weight must be more than 0, like 0.5 (in g)"],
    ["a ton of a sticker", { weight: ["2000"], weightUnit: "KILOGRAMS" }, "lines[0].weight", "Item 1: weight must be at most 1,000 kg"],
    [
      "nothing typed in a form with weights",
      { weight: [" "], weightUnit: "OUNCES" },
      "lines[0].weight",
      "Type a weight, an HS code or a country of origin for at least one item",
    ],
  ])("GIVEN %s THEN it is refused on %s", (_, typed, field, message) => {
    expect(parseCustoms({ orderId: "gid://shopify/Order/1", lineId: ["L1"], hsCode: [""], countryOfOrigin: [""], ...typed })).toEqual({
      ok: false,
      message,
      fieldErrors: { [field]: message },
    });
  });

  it.each([
    [
      "letters for an HS code",
      { lineId: ["L1"], hsCode: ["abc"], countryOfOrigin: [""], product: ["Blue T-shirt (M)"] },
      "lines[0].hsCode",
      "Blue T-shirt (M): HS code must be 6 to 10 digits, like 6912.00 or 691200",
    ],
    [
      "a four-digit HS code on the second item",
      { lineId: ["L1", "L2"], hsCode: ["491199", "4911"], countryOfOrigin: ["", ""], product: ["Mug", "Sticker Pack"] },
      "lines[1].hsCode",
      "Sticker Pack: HS code must be 6 to 10 digits, like 6912.00 or 691200",
    ],
    [
      "a country name, the item unnamed",
      { lineId: ["L1"], hsCode: [""], countryOfOrigin: ["Portugal"] },
      "lines[0].countryOfOrigin",
      "Item 1: country of origin must be a two-letter country code, like PT or US",
    ],
    [
      "nothing typed",
      { lineId: ["L1"], hsCode: [" "], countryOfOrigin: [""] },
      "lines[0].hsCode",
      "Type an HS code or a country of origin for at least one item",
    ],
    ["no line", { lineId: [], hsCode: [], countryOfOrigin: [] }, "lineId", "Items: there is no item to fix; reload the page"],
  ])("GIVEN %s THEN it is refused on %s, naming the item and no field path", (_, typed, field, message) => {
    expect(parseCustoms({ orderId: "gid://shopify/Order/1", ...typed })).toEqual({ ok: false, message, fieldErrors: { [field]: message } });
  });

  it("GIVEN entries THEN they fill the lines they name and leave the others", () => {
    const order = buildMirroredOrder();
    const [first, ...others] = order.fulfillmentOrders[0]!.lines;
    const applied = applyCustoms(order, { [first!.id]: { hsCode: "491199" }, unknown: { countryOfOrigin: "PT" } });
    expect(applied.fulfillmentOrders[0]!.lines[0]).toEqual({ ...first, hsCode: "491199" });
    expect(applied.fulfillmentOrders[0]!.lines.slice(1)).toEqual(others);
  });

  it("GIVEN a typed weight THEN it replaces the line's missing weight and keeps its customs details", () => {
    const order = buildMirroredOrder();
    const line = { ...order.fulfillmentOrders[0]!.lines[0]!, weight: null };
    const weighed = applyCustoms(
      { ...order, fulfillmentOrders: [{ ...order.fulfillmentOrders[0]!, lines: [line] }] },
      { [line.id]: { weight: { value: 12, unit: "OUNCES" } } },
    );
    expect(weighed.fulfillmentOrders[0]!.lines[0]).toEqual({ ...line, weight: { value: 12, unit: "OUNCES" } });
  });
});
