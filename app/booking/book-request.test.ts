import { describe, expect, it } from "vitest";
import { BatchQuoteShipment, BookShipmentRequest } from "../../shipping-api/contract";
import { buildCommercialInvoice, buildQuoteShipment, buildUkReceiver } from "../../test/factories/shipping-api";
import { buildBookRequest, invoiceTotal, parseBookingForm, surchargesInWords, type BookingForm } from "./book-request";

const domestic = BatchQuoteShipment.parse(buildQuoteShipment({ shipmentReference: "#1042" }));
const international = BatchQuoteShipment.parse(
  buildQuoteShipment({
    receiver: buildUkReceiver(),
    pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: null, declaredValue: "61.00" }],
    commercialInvoice: buildCommercialInvoice(),
  }),
);
const rate = { carrierCode: "MRX", serviceCode: "MRX_INTERNATIONAL_PRIORITY", packageTypeCode: "MRX_PACKAGE" };
const references = { shipmentId: "ship_1", orderName: "#1042" };
const settings = { returnTo: null, providerAccountId: null };

function form(overrides: Partial<BookingForm> = {}): BookingForm {
  return {
    shipmentId: "ship_1",
    quoteId: 7,
    signatureOptionCode: null,
    insuranceAmount: null,
    saturdayDelivery: false,
    labelFormat: "PDF",
    approvePrepayRecharge: false,
    ...overrides,
  };
}

describe("parseBookingForm", () => {
  it("GIVEN the form's fields with invoice lines THEN typed values, empty fields as null, checkboxes as booleans", () => {
    const body = new URLSearchParams({
      shipmentId: "ship_1",
      quoteId: "7",
      signatureOptionCode: "",
      insuranceAmount: "120.50",
      saturdayDelivery: "on",
      labelFormat: "ZPL",
      termsOfTrade: "DDP",
      "items[0].description": "Ceramic mug",
      "items[0].quantity": "2",
      "items[0].unitValue": "18.00",
      "items[0].htsNumber": "6912.00",
      "items[0].countryOfOrigin": "pt",
    });
    expect(parseBookingForm(body)).toEqual({
      ok: true,
      value: {
        shipmentId: "ship_1",
        quoteId: 7,
        signatureOptionCode: null,
        insuranceAmount: "120.50",
        saturdayDelivery: true,
        labelFormat: "ZPL",
        approvePrepayRecharge: false,
        termsOfTrade: "DDP",
        items: [{ description: "Ceramic mug", quantity: 2, unitValue: "18.00", htsNumber: "6912.00", countryOfOrigin: "PT" }],
      },
    });
  });

  it("GIVEN wrong values THEN each problem is keyed by its field, in words", () => {
    const body = new URLSearchParams({
      shipmentId: "ship_1",
      quoteId: "7",
      labelFormat: "PDF",
      insuranceAmount: "lots",
      "items[0].description": "",
      "items[0].quantity": "1.5",
      "items[0].unitValue": "18",
      "items[0].htsNumber": "69A",
      "items[0].countryOfOrigin": "Portugal",
    });
    expect(parseBookingForm(body)).toEqual({
      ok: false,
      message:
        "Not booked: Insurance: enter an amount like 25.00; Item 1: describe the item, as customs will read it; Item 1: enter a whole number; Item 1: an HS code has digits (and dots) only, like 6912.00; Item 1: enter a two-letter country code, like PT.",
      fieldErrors: {
        insuranceAmount: "Insurance: enter an amount like 25.00",
        "items[0].description": "Item 1: describe the item, as customs will read it",
        "items[0].quantity": "Item 1: enter a whole number",
        "items[0].htsNumber": "Item 1: an HS code has digits (and dots) only, like 6912.00",
        "items[0].countryOfOrigin": "Item 1: enter a two-letter country code, like PT",
      },
    });
  });
});

describe("buildBookRequest", () => {
  it("GIVEN a domestic shipment THEN the chosen service, the options and the references, no declared value and no invoice, valid for the contract", () => {
    const request = buildBookRequest(
      domestic,
      { carrierCode: "BLP", serviceCode: "BLP_NEXT_DAY_AIR", packageTypeCode: "BLP_PACKAGE" },
      form({ signatureOptionCode: "ADULT", insuranceAmount: "80.00", saturdayDelivery: true, labelFormat: "ZPL" }),
      { returnTo: { name: "Returns desk", country: "US", state: "OH" }, providerAccountId: null },
      references,
    );
    expect(request).toMatchObject({
      carrierCode: "BLP",
      serviceCode: "BLP_NEXT_DAY_AIR",
      packageTypeCode: "BLP_PACKAGE",
      shipmentReference: "#1042",
      shipmentReference2: "ship_1",
      orderNumber: "#1042",
      signatureOptionCode: "ADULT",
      saturdayDelivery: true,
      labelImageFormat: "ZPL",
      returnTo: { name: "Returns desk" },
      commercialInvoice: null,
      pieces: [{ weight: domestic.pieces[0]!.weight, insuranceAmount: "80.00", declaredValue: null }],
    });
    expect(request).not.toHaveProperty("approvePrepayRecharge");
    expect(BookShipmentRequest.safeParse(request).success).toBe(true);
  });

  it("GIVEN an international shipment and edited invoice lines THEN the invoice carries them (weights kept by line) and the declared value is its total", () => {
    const items = [
      { description: "Soy candle, large", quantity: 3, unitValue: "20.00", htsNumber: "3406.00", countryOfOrigin: "US" },
      { description: "Gift wrap", quantity: 1, unitValue: "2.50", htsNumber: "", countryOfOrigin: "US" },
    ];
    const request = buildBookRequest(international, rate, form({ termsOfTrade: "DDP", items }), settings, references);
    const parsed = BookShipmentRequest.parse(request);
    expect(parsed.commercialInvoice).toMatchObject({
      termsOfTrade: "DDP",
      items: [{ ...items[0], weight: international.commercialInvoice!.items[0]!.weight }, { description: "Gift wrap" }],
    });
    expect(parsed.pieces[0]!.declaredValue).toBe("62.50");
  });

  it("GIVEN an international shipment with the invoice unedited THEN the stored invoice goes, with its declared value", () => {
    const request = BookShipmentRequest.parse(buildBookRequest(international, rate, form(), settings, references));
    expect(request.commercialInvoice).toEqual(international.commercialInvoice);
    expect(request.pieces[0]!.declaredValue).toBe(invoiceTotal(international.commercialInvoice!));
  });
});

describe("a priced booking's surcharges in words", () => {
  it.each([
    ["$50 insured, priced per started 100 USD", "50", [{ description: "Insurance (1 × 100 USD declared)", amount: "1.10" }], ["Insurance of $50.00"]],
    ["no insurance chosen", null, [{ description: "Signature (adult)", amount: "5.00" }], ["Signature (adult)"]],
    [
      "insurance beside a signature",
      "250.5",
      [
        { description: "Signature", amount: "5.00" },
        { description: "Insurance (3 × 100 USD declared)", amount: "3.30" },
      ],
      ["Signature", "Insurance of $250.50"],
    ],
  ])("GIVEN %s THEN the insurance line says the amount insured", (_, insured, surcharges, words) => {
    expect(surchargesInWords(surcharges, insured, "USD").map((surcharge) => surcharge.description)).toEqual(words);
  });
});
