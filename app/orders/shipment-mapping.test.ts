import { describe, expect, it } from "vitest";
import { BatchQuoteShipment } from "../../shipping-api/contract";
import { buildAddress, buildFulfillmentOrder, buildLine, buildOrder, buildService, buildSettings } from "../../test/factories/orders";
import { normalisePhone, orderToShipments, type MappedShipment, type MappingIssueCode } from "./shipment-mapping";

function mapped(result: ReturnType<typeof orderToShipments>): MappedShipment[] {
  if (!result.ok) throw new Error(`expected shipments, got issues: ${result.issues.map((issue) => issue.message).join(" | ")}`);
  return result.shipments;
}

function issueCodes(result: ReturnType<typeof orderToShipments>): MappingIssueCode[] {
  if (result.ok) throw new Error("expected issues, got shipments");
  return result.issues.map((issue) => issue.code);
}

describe("orderToShipments — domestic", () => {
  const mug = buildLine({ sku: "MUG-1", productTitle: "Ceramic mug", variantTitle: "Blue", remainingQuantity: 2, weight: { unit: "GRAMS", value: 350 } });
  const tea = buildLine({ sku: "TEA-9", productTitle: "Loose tea", remainingQuantity: 3, weight: { unit: "OUNCES", value: 4 } });
  const mugAgain = buildLine({ sku: "MUG-1", productTitle: "Ceramic mug", variantTitle: "Blue", remainingQuantity: 1, weight: { unit: "GRAMS", value: 350 } });
  const order = buildOrder({ fulfillmentOrders: [buildFulfillmentOrder({ lines: [mug, tea, mugAgain] })] });
  const [shipment] = mapped(orderToShipments(order, buildSettings()));

  it("GIVEN a residential US order THEN the receiver is the shipping address, phone normalised, residential", () => {
    expect(shipment?.shipment.receiver).toEqual({
      name: "Ada Lovelace",
      company: "",
      address1: "12 Analytical Way",
      address2: "",
      city: "Portland",
      state: "OR",
      zip: "97205",
      country: "US",
      phone: "5035550101",
      email: "ada@example.com",
    });
    expect(shipment?.shipment.residential).toBe(true);
    expect(shipment?.shipment.shipmentReference).toBe(order.name);
    expect(shipment?.shipment.currency).toBe("USD");
  });

  it("GIVEN lines in grams and ounces, quantities and packaging THEN the weight is their exact sum, rounded up", () => {
    // 3 × 350 g + 3 × 4 oz + 4 oz packaging = 1050 g + 16 oz = 2.31485… + 1 lb = 3.31485 lb → 3.315
    expect(shipment?.shipment.pieces[0]?.weight).toBe("3.315");
    expect(shipment?.shipment.weightUnit).toBe("lb");
  });

  it("GIVEN the same SKU on two lines THEN lineItems keep every line in order, duplicates included", () => {
    expect(shipment?.shipment.pieces[0]?.lineItems).toEqual([
      { sku: "MUG-1", productName: "Ceramic mug - Blue", quantity: 2 },
      { sku: "TEA-9", productName: "Loose tea", quantity: 3 },
      { sku: "MUG-1", productName: "Ceramic mug - Blue", quantity: 1 },
    ]);
    expect(shipment?.lines.map((line) => line.quantity)).toEqual([2, 3, 1]);
  });

  it("GIVEN a domestic order THEN no declared value, no invoice, dimensions from the box, and a valid quote request", () => {
    expect(shipment?.shipment.pieces[0]).toMatchObject({ declaredValue: null, length: "12", width: "10", height: "6" });
    expect(shipment?.shipment.commercialInvoice).toBeNull();
    expect(shipment?.shipment.dimUnit).toBe("in");
    expect(BatchQuoteShipment.safeParse(shipment?.shipment).success).toBe(true);
  });

  it("GIVEN a company on the address THEN the receiver is commercial unless the merchant says otherwise", () => {
    const business = buildOrder({ shippingAddress: buildAddress({ company: "Analytical Engines Ltd" }) });
    expect(mapped(orderToShipments(business, buildSettings()))[0]?.shipment.residential).toBe(false);
    expect(mapped(orderToShipments(business, buildSettings({ residential: "residential" })))[0]?.shipment.residential).toBe(true);
  });

  it("GIVEN a preset package type as the box THEN its codes are sent and dimensions are null", () => {
    const settings = buildSettings({ box: { kind: "preset", name: "Flat rate envelope", carrierCode: "POSTAL", packageTypeCode: "FLAT_ENVELOPE" } });
    const [preset] = mapped(orderToShipments(buildOrder(), settings));
    expect(preset?.shipment).toMatchObject({ carrierCode: "POSTAL", packageTypeCode: "FLAT_ENVELOPE", dimUnit: null });
    expect(preset?.shipment.pieces[0]).toMatchObject({ length: null, width: null, height: null });
  });

  it("GIVEN a partially fulfilled order THEN only what remains is shipped", () => {
    const done = buildLine({ remainingQuantity: 0, totalQuantity: 2 });
    const left = buildLine({ remainingQuantity: 1, totalQuantity: 3 });
    const [partial] = mapped(orderToShipments(buildOrder({ fulfillmentOrders: [buildFulfillmentOrder({ lines: [done, left] })] }), buildSettings()));
    expect(partial?.lines).toEqual([{ fulfillmentOrderLineItemId: left.id, quantity: 1 }]);
  });

  it("GIVEN insurance on THEN each package is insured for its goods", () => {
    const [insured] = mapped(orderToShipments(buildOrder(), buildSettings({ insure: true })));
    expect(insured?.shipment.pieces[0]?.insuranceAmount).toBe("18.00");
  });

  it("GIVEN two shippable fulfillment orders (two locations) THEN one shipment each", () => {
    const order = buildOrder({ fulfillmentOrders: [buildFulfillmentOrder(), buildFulfillmentOrder()] });
    expect(mapped(orderToShipments(order, buildSettings())).map((s) => s.fulfillmentOrderId)).toEqual(order.fulfillmentOrders.map((fo) => fo.id));
  });
});

describe("orderToShipments — international", () => {
  const sweater = buildLine({
    productTitle: "Wool sweater",
    remainingQuantity: 2,
    unitPrice: "89.50",
    weight: { unit: "KILOGRAMS", value: 0.45 },
    hsCode: "611011",
    countryOfOrigin: "GB",
  });
  const order = buildOrder({
    shippingAddress: buildAddress({
      name: "Zoë Müller-Łukasiewicz",
      address1: "Kastanienallee 12",
      city: "Berlin",
      provinceCode: null,
      zip: "10435",
      countryCode: "DE",
      phone: "+49 30 1234567",
    }),
    fulfillmentOrders: [buildFulfillmentOrder({ lines: [sweater] })],
  });
  const [shipment] = mapped(orderToShipments(order, buildSettings({ termsOfTrade: "DDP" })));

  it("GIVEN a German order THEN the declared value is the goods' value and the invoice lists the lines", () => {
    expect(shipment?.shipment.pieces[0]?.declaredValue).toBe("179.00");
    expect(shipment?.shipment.commercialInvoice).toMatchObject({
      termsOfTrade: "DDP",
      ftrNumber: null,
      itnNumber: null,
      aesNumber: null,
      packageMarks: order.name,
      items: [{ description: "Wool sweater", quantity: 2, unitValue: "89.50", htsNumber: "611011", countryOfOrigin: "GB", weight: "1.984" }],
    });
    expect(shipment?.shipment.receiver).toMatchObject({ name: "Zoë Müller-Łukasiewicz", state: "", country: "DE", phone: "49301234567" });
  });

  it("GIVEN the invoice THEN item weights never exceed the package weight, and the request is valid", () => {
    const items = shipment?.shipment.commercialInvoice?.items ?? [];
    const itemsWeight = items.reduce((sum, item) => sum + Number(item.weight ?? 0), 0);
    expect(itemsWeight).toBeLessThanOrEqual(Number(shipment?.shipment.pieces[0]?.weight));
    expect(BatchQuoteShipment.safeParse(shipment?.shipment).success).toBe(true);
  });
});

describe("orderToShipments — lines that need no shipping", () => {
  const giftCard = buildLine({
    productTitle: "Gift Card",
    variantTitle: "$50",
    weight: null,
    unitPrice: "50.00",
    requiresShipping: false,
    hsCode: null,
    countryOfOrigin: null,
  });
  const mug = buildLine({ productTitle: "Ceramic mug", weight: { unit: "POUNDS", value: 1 }, unitPrice: "18.00" });

  it("GIVEN a gift card without weight beside a mug THEN it is no blocker, not in the parcel, and fulfilled with it", () => {
    const [shipment] = mapped(
      orderToShipments(buildOrder({ fulfillmentOrders: [buildFulfillmentOrder({ lines: [giftCard, mug] })] }), buildSettings({ insure: true })),
    );
    expect(shipment?.shipment.pieces[0]?.lineItems?.map((item) => item.productName)).toEqual(["Ceramic mug"]);
    // 1 lb mug + 4 oz packaging; insured for the mug alone.
    expect(shipment?.shipment.pieces[0]).toMatchObject({ weight: "1.250", insuranceAmount: "18.00" });
    expect(shipment?.lines.map((line) => line.fulfillmentOrderLineItemId)).toEqual([giftCard.id, mug.id]);
  });

  it("GIVEN a gift card on an international order THEN the invoice leaves it out and needs no HS code for it", () => {
    const order = buildOrder({
      shippingAddress: buildAddress({ countryCode: "GB", provinceCode: null, city: "London", zip: "N1 9GU", phone: "+44 20 7946 0123" }),
      fulfillmentOrders: [buildFulfillmentOrder({ lines: [giftCard, mug] })],
    });
    const [shipment] = mapped(orderToShipments(order, buildSettings()));
    expect(shipment?.shipment.commercialInvoice?.items.map((item) => item.description)).toEqual(["Ceramic mug"]);
    expect(shipment?.shipment.pieces[0]?.declaredValue).toBe("18.00");
  });

  it("GIVEN a line mirrored before requiresShipping was read THEN it is shipped as before", () => {
    const { requiresShipping: _unknown, ...older } = buildLine({ weight: { unit: "GRAMS", value: 0 } });
    expect(issueCodes(orderToShipments(buildOrder({ fulfillmentOrders: [buildFulfillmentOrder({ lines: [older] })] }), buildSettings()))).toEqual([
      "ZERO_WEIGHT",
    ]);
  });
});

describe("orderToShipments — pre-flight issues", () => {
  it.each<[string, Parameters<typeof buildOrder>[0], Parameters<typeof buildSettings>[0], MappingIssueCode[]]>([
    ["no shipping address", { shippingAddress: null }, {}, ["NO_SHIPPING_ADDRESS"]],
    ["a US address without state", { shippingAddress: buildAddress({ provinceCode: null }) }, {}, ["INCOMPLETE_ADDRESS"]],
    [
      "a product without weight",
      { fulfillmentOrders: [buildFulfillmentOrder({ lines: [buildLine({ weight: { unit: "GRAMS", value: 0 } })] })] },
      {},
      ["ZERO_WEIGHT"],
    ],
    [
      "an international order missing HS code and origin",
      {
        shippingAddress: buildAddress({ countryCode: "GB", provinceCode: null, city: "London", zip: "N1 9GU" }),
        fulfillmentOrders: [buildFulfillmentOrder({ lines: [buildLine({ hsCode: null, countryOfOrigin: null })] })],
      },
      {},
      ["MISSING_HS_CODE", "MISSING_ORIGIN"],
    ],
    [
      "a destination no enabled service serves",
      { shippingAddress: buildAddress({ countryCode: "JP", provinceCode: null, city: "Tokyo", zip: "100-0001" }) },
      { enabledServices: [buildService()] },
      ["NO_SERVICE_FOR_DESTINATION"],
    ],
    [
      "a package over every service's limit",
      { fulfillmentOrders: [buildFulfillmentOrder({ lines: [buildLine({ weight: { unit: "POUNDS", value: 80 }, remainingQuantity: 2 })] })] },
      {},
      ["OVER_MAX_WEIGHT"],
    ],
    [
      "an order on hold",
      { fulfillmentOrders: [buildFulfillmentOrder({ status: "ON_HOLD", holds: [{ reason: "AWAITING_PAYMENT", reasonNotes: null }] })] },
      {},
      ["ON_HOLD"],
    ],
    ["a fulfillment service order", { fulfillmentOrders: [buildFulfillmentOrder({ assignedToFulfillmentService: true })] }, {}, ["FULFILLMENT_SERVICE"]],
    ["local pickup", { fulfillmentOrders: [buildFulfillmentOrder({ deliveryMethod: "PICK_UP" })] }, {}, ["NOT_SHIPPED"]],
    [
      "local pickup without a shipping address",
      { shippingAddress: null, fulfillmentOrders: [buildFulfillmentOrder({ deliveryMethod: "PICK_UP" })] },
      {},
      ["NOT_SHIPPED"],
    ],
    ["a 4-digit US ZIP", { shippingAddress: buildAddress({ zip: "8020" }) }, {}, ["INVALID_ADDRESS"]],
    ["a state code that does not exist", { shippingAddress: buildAddress({ provinceCode: "ZZ" }) }, {}, ["INVALID_ADDRESS"]],
    ["a phone number too short", { shippingAddress: buildAddress({ phone: "555-0101" }) }, {}, ["INVALID_ADDRESS"]],
    [
      "only a gift card left to ship",
      {
        fulfillmentOrders: [
          buildFulfillmentOrder({ lines: [buildLine({ productTitle: "Gift Card", variantTitle: "$50", weight: null, requiresShipping: false })] }),
        ],
      },
      {},
      ["NOTHING_TO_SHIP"],
    ],
    ["a fulfilled order", { fulfillmentOrders: [buildFulfillmentOrder({ status: "CLOSED", supportedActions: [] })] }, {}, ["NOTHING_TO_SHIP"]],
    ["a currency the API does not quote in", { currencyCode: "JPY" }, {}, ["UNSUPPORTED_CURRENCY"]],
  ])("GIVEN %s THEN the merchant is told before any quote", (_case, order, settings, expected) => {
    expect(issueCodes(orderToShipments(buildOrder(order), buildSettings(settings)))).toEqual(expected);
  });

  it("GIVEN a local-pickup order without a shipping address THEN it says it is picked up in store, not that the address is missing", () => {
    const result = orderToShipments(
      buildOrder({ shippingAddress: null, fulfillmentOrders: [buildFulfillmentOrder({ deliveryMethod: "PICK_UP" })] }),
      buildSettings(),
    );
    expect(result.ok ? "" : result.message).toBe("The customer chose to have this order picked up in store; it needs no shipping label.");
  });

  it("GIVEN a 4-digit US ZIP THEN the message says what to fix and where", () => {
    const result = orderToShipments(buildOrder({ shippingAddress: buildAddress({ zip: "8020" }) }), buildSettings());
    expect(result.ok ? "" : result.message).toBe(
      "Carriers would refuse this address: the ZIP code “8020” is not a United States ZIP code (5 digits, like 94107, or ZIP+4, like 94107-1234). Correct the order's shipping address in Shopify, then quote it again.",
    );
  });

  it("GIVEN an on-hold reason THEN the message says why and what to do", () => {
    const result = orderToShipments(
      buildOrder({ fulfillmentOrders: [buildFulfillmentOrder({ status: "ON_HOLD", holds: [{ reason: "OTHER", reasonNotes: "Fraud review" }] })] }),
      buildSettings(),
    );
    expect(result.ok ? "" : result.issues[0]?.message).toBe("On hold (Fraud review). Release the hold in Shopify to ship it.");
  });
});

describe("normalisePhone", () => {
  it.each([
    ["+1 (555) 010-2000", "US", "5550102000"],
    ["555.010.2000", "CA", "5550102000"],
    ["+44 20 7946 0958", "GB", "442079460958"],
    [null, "US", ""],
  ])("GIVEN %s in %s THEN %s", (phone, country, expected) => {
    expect(normalisePhone(phone, country)).toBe(expected);
  });
});
