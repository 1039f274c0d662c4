import { describe, expect, it } from "vitest";
import { buildAddress, buildFulfillmentOrder, buildLine, buildOrder, buildSettings } from "../../test/factories/orders";
import type { ProductPreset } from "./product-presets";
import { orderToShipments, type BoxPreset } from "./shipment-mapping";

const medium: BoxPreset = { kind: "custom", name: "Medium box", length: "12", width: "10", height: "6", dimUnit: "in" };
const tube: BoxPreset = { kind: "custom", name: "Poster tube", length: "30", width: "4", height: "4", dimUnit: "in" };
const flatRate: BoxPreset = { kind: "preset", name: "NPS flat rate", carrierCode: "NPS", packageTypeCode: "NPS_FLAT_RATE" };
const boxes = [medium, tube, flatRate];

const preset = (overrides: Partial<ProductPreset>): ProductPreset => ({ box: null, hsCode: null, countryOfOrigin: null, description: null, ...overrides });
const mug = { productId: "gid://shopify/Product/1", variantId: "gid://shopify/ProductVariant/11", productTitle: "Mug" };
const lamp = { productId: "gid://shopify/Product/2", variantId: "gid://shopify/ProductVariant/21", productTitle: "Floor lamp" };
const poster = { productId: "gid://shopify/Product/3", variantId: "gid://shopify/ProductVariant/31", productTitle: "Poster" };

function mapped(lines: ReturnType<typeof buildLine>[], presets: Array<[string, ProductPreset]>, country = "US") {
  const order = buildOrder({
    shippingAddress: buildAddress(country === "US" ? {} : { countryCode: country, provinceCode: null, zip: "10115", city: "Berlin", phone: "+49 30 1234567" }),
    fulfillmentOrders: [buildFulfillmentOrder({ lines })],
  });
  const result = orderToShipments(order, buildSettings({ box: medium, boxes, presets: new Map(presets), enabledServices: buildSettings().enabledServices }));
  if (!result.ok) throw new Error(result.message);
  return result.shipments[0]!;
}

describe("product presets in the mapping: the box", () => {
  it("without presets the default box, and no note", () => {
    const shipment = mapped([buildLine(mug)], []);
    expect(shipment.shipment.pieces[0]).toMatchObject({ length: "12", width: "10", height: "6" });
    expect(shipment.packingNote).toBeNull();
  });

  it("a product's Settings box is used over the default, saying whose preset it is", () => {
    const shipment = mapped([buildLine(poster)], [[poster.productId, preset({ box: { kind: "settings", name: "Poster tube" } })]]);
    expect(shipment.shipment.pieces[0]).toMatchObject({ length: "30", width: "4", height: "4" });
    expect(shipment.packingNote).toBe("Ships in box 'Poster tube': the product preset of Poster");
  });

  it("a carrier's package named by a preset is quoted as that package", () => {
    const shipment = mapped([buildLine(mug)], [[mug.productId, preset({ box: { kind: "settings", name: "NPS flat rate" } })]]);
    expect(shipment.shipment).toMatchObject({ carrierCode: "NPS", packageTypeCode: "NPS_FLAT_RATE", dimUnit: null });
  });

  it("a variant's preset is used over its product's; 'ships in its own box' with its sizes", () => {
    const shipment = mapped(
      [buildLine(lamp)],
      [
        [lamp.productId, preset({ box: { kind: "settings", name: "Poster tube" } })],
        [lamp.variantId, preset({ box: { kind: "own", length: "20", width: "14", height: "48", dimUnit: "in" } })],
      ],
    );
    expect(shipment.shipment.pieces[0]).toMatchObject({ length: "20", width: "14", height: "48" });
    expect(shipment.packingNote).toBe("Ships in the own box of Floor lamp (20 × 14 × 48 in): the product preset of Floor lamp");
  });

  it("mixed boxes: the largest by volume, naming each item's box (an item without a preset counts as the default box)", () => {
    const shipment = mapped(
      [buildLine(mug), buildLine(poster), buildLine(lamp)],
      [
        [poster.productId, preset({ box: { kind: "settings", name: "Poster tube" } })],
        [lamp.productId, preset({ box: { kind: "own", length: "50", width: "30", height: "30", dimUnit: "cm" } })],
      ],
    );
    expect(shipment.shipment.pieces[0]).toMatchObject({ length: "50", width: "30", height: "30" });
    expect(shipment.shipment.dimUnit).toBe("cm");
    expect(shipment.packingNote).toBe(
      "Ships in the own box of Floor lamp (50 × 30 × 30 cm), the largest of the items' boxes (Mug: the default box 'Medium box'; Poster: box 'Poster tube'; Floor lamp: the own box of Floor lamp (50 × 30 × 30 cm))",
    );
  });

  it("a preset naming a box no longer in Settings is ignored: the default box", () => {
    expect(mapped([buildLine(mug)], [[mug.productId, preset({ box: { kind: "settings", name: "Gone" } })]]).packingNote).toBeNull();
  });
});

describe("product presets in the mapping: customs defaults used when Shopify has none", () => {
  it("HS code, origin and description fill an international order's invoice; Shopify's own values stay", () => {
    const shipment = mapped(
      [buildLine({ ...mug, hsCode: null, countryOfOrigin: null }), buildLine({ ...lamp, hsCode: "940510", countryOfOrigin: "CN" })],
      [
        [mug.productId, preset({ hsCode: "691200", countryOfOrigin: "PT", description: "Stoneware mug" })],
        [lamp.productId, preset({ hsCode: "111111", countryOfOrigin: "US" })],
      ],
      "DE",
    );
    expect(shipment.shipment.commercialInvoice?.items).toMatchObject([
      { description: "Stoneware mug", htsNumber: "691200", countryOfOrigin: "PT" },
      { description: "Floor lamp", htsNumber: "940510", countryOfOrigin: "CN" },
    ]);
  });

  it("without a preset the missing HS code still blocks the order", () => {
    const order = buildOrder({
      shippingAddress: buildAddress({ countryCode: "DE", provinceCode: null, zip: "10115", city: "Berlin", phone: "+49 30 1234567" }),
      fulfillmentOrders: [buildFulfillmentOrder({ lines: [buildLine({ ...mug, hsCode: null })] })],
    });
    const result = orderToShipments(order, buildSettings({ presets: new Map() }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((issue) => issue.code)).toContain("MISSING_HS_CODE");
  });
});
