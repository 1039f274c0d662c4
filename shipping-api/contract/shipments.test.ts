import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  buildAddress,
  buildBookShipment,
  buildCommercialInvoice,
  buildDomesticReceiver,
  buildPiece,
  buildQuote,
  buildQuoteShipment,
  buildUkReceiver,
} from "../../test/factories/shipping-api";
import { type RejectionRow, itAcceptsEach, itRejectsEach } from "../../test/support/contract-rows";
import { BatchQuoteRequest, BatchQuoteResponse, BookShipmentPiece, BookShipmentRequest, BookShipmentResponse, formatIssues } from "../contract";

// The shipment requests of Batch Quote and Book Shipment (addresses, pieces, line items, the commercial
// invoice, billing) and their responses.

const quoteRequest = (...shipments: z.input<typeof BatchQuoteRequest>["shipments"]) => ({ shipments });
const internationalQuote = (invoice: Parameters<typeof buildCommercialInvoice>[0]) =>
  quoteRequest(buildQuoteShipment({ receiver: buildUkReceiver(), commercialInvoice: buildCommercialInvoice(invoice) }));
const bookInvoice = (invoice: Parameters<typeof buildCommercialInvoice>[0]) => buildBookShipment({ commercialInvoice: buildCommercialInvoice(invoice) });
const bookingWithPieceWithout = (key: keyof z.input<typeof BookShipmentPiece>) => {
  const piece: Record<string, unknown> = { weight: "1", length: "1", width: "1", height: "1", insuranceAmount: null, declaredValue: null };
  delete piece[key];
  return buildBookShipment({ pieces: [piece as z.input<typeof BookShipmentPiece>] });
};

const shipmentRules: RejectionRow[] = [
  ["no shipments", BatchQuoteRequest, quoteRequest(), "shipments"],
  ["501 shipments", BatchQuoteRequest, { shipments: Array.from({ length: 501 }, () => buildQuoteShipment()) }, "shipments"],
  [
    "a declared value on a domestic quote",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment(), buildQuoteShipment({ pieces: [buildPiece(), buildPiece({ declaredValue: "10.00" })] })),
    "shipments[1].pieces[1].declaredValue",
  ],
  [
    "a declared value on a domestic booking",
    BookShipmentRequest,
    buildBookShipment({ receiver: buildDomesticReceiver(), commercialInvoice: null }),
    "pieces[0].declaredValue",
  ],
  [
    "a US state that is not a two-letter code",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment({ receiver: buildDomesticReceiver({ state: "New York" }) })),
    "shipments[0].receiver.state",
  ],
  ["a CA address without a state", BookShipmentRequest, buildBookShipment({ receiver: buildUkReceiver({ country: "CA", state: "" }) }), "receiver.state"],
  ["a lowercase state code", BookShipmentRequest, buildBookShipment({ sender: buildAddress({ state: "ca" }) }), "sender.state"],
  ["a three-letter country", BookShipmentRequest, buildBookShipment({ receiver: buildUkReceiver({ country: "GBR" }) }), "receiver.country"],
  ["a lowercase country", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ sender: buildAddress({ country: "us" }) })), "shipments[0].sender.country"],
  ["a sender without phone", BookShipmentRequest, buildBookShipment({ sender: buildAddress({ phone: undefined }) }), "sender.phone"],
  ["a receiver without company", BookShipmentRequest, buildBookShipment({ receiver: buildUkReceiver({ company: undefined }) }), "receiver.company"],
  ["a receiver without zip key", BookShipmentRequest, buildBookShipment({ receiver: buildUkReceiver({ zip: undefined }) }), "receiver.zip"],
  ["a sender with an empty name", BookShipmentRequest, buildBookShipment({ sender: buildAddress({ name: "" }) }), "sender.name"],
  ["a malformed sender email", BookShipmentRequest, buildBookShipment({ sender: buildAddress({ email: "not-an-email" }) }), "sender.email"],
  ["a returnTo US address with a bad state", BookShipmentRequest, buildBookShipment({ returnTo: { country: "US", state: "Calif." } }), "returnTo.state"],
  ["an impossible shipment date", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ shipmentDate: "2026-02-29" })), "shipments[0].shipmentDate"],
  ["a shipment date not zero-padded", BookShipmentRequest, buildBookShipment({ shipmentDate: "2026-11-3" }), "shipmentDate"],
  ["an unknown weight unit", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ weightUnit: "lbs" as "lb" })), "shipments[0].weightUnit"],
  ["an unknown currency", BookShipmentRequest, buildBookShipment({ currency: "AUD" as "USD" }), "currency"],
  ["an unknown customs currency", BookShipmentRequest, buildBookShipment({ customsCurrency: "JPY" as "USD" }), "customsCurrency"],
  ["a dimUnit key left out", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ dimUnit: undefined })), "shipments[0].dimUnit"],
  ["an unknown label format", BookShipmentRequest, buildBookShipment({ labelImageFormat: "GIF" as "PDF" }), "labelImageFormat"],
  ["a booking without carrierCode", BookShipmentRequest, buildBookShipment({ carrierCode: "" }), "carrierCode"],
  ["no pieces", BookShipmentRequest, buildBookShipment({ pieces: [] }), "pieces"],
  ["a zero weight", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ weight: "0" })] })), "shipments[0].pieces[0].weight"],
  [
    "a numeric (not string) weight",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ weight: 2 as unknown as string })] })),
    "shipments[0].pieces[0].weight",
  ],
  ["a negative dimension", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ length: "-3" })] })), "shipments[0].pieces[0].length"],
  [
    "a non-numeric dimension",
    BookShipmentRequest,
    buildBookShipment({ pieces: [{ weight: "1", length: "ten", width: "1", height: "1", insuranceAmount: null, declaredValue: null }] }),
    "pieces[0].length",
  ],
  [
    "a decimal with a comma",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ insuranceAmount: "12,50" })] })),
    "shipments[0].pieces[0].insuranceAmount",
  ],
  [
    "a decimal in exponent notation",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ insuranceAmount: "1e3" })] })),
    "shipments[0].pieces[0].insuranceAmount",
  ],
  ...(["insuranceAmount", "declaredValue", "height"] as const).map((key): RejectionRow => [
    `a booking piece without ${key}`,
    BookShipmentRequest,
    bookingWithPieceWithout(key),
    `pieces[0].${key}`,
  ]),
  [
    "a line item with a fractional quantity",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ lineItems: [{ sku: "A", productName: "A", quantity: 1.5 }] })] })),
    "shipments[0].pieces[0].lineItems[0].quantity",
  ],
  [
    "a line item without sku",
    BatchQuoteRequest,
    quoteRequest(
      buildQuoteShipment({
        pieces: [buildPiece({ lineItems: [{ productName: "A", quantity: 1 } as { sku: string; productName: string; quantity: number }] })],
      }),
    ),
    "shipments[0].pieces[0].lineItems[0].sku",
  ],
  [
    "an unknown billing party",
    BatchQuoteRequest,
    quoteRequest(buildQuoteShipment({ billing: { party: "shipper" as "sender" } })),
    "shipments[0].billing.party",
  ],
  [
    "duty paid by the receiver without an account",
    BookShipmentRequest,
    buildBookShipment({ billing: { party: "sender", dutiableParty: { dutyPaymentType: "third_party", dutyPaymentAccountNumber: null } } }),
    "billing.dutiableParty.dutyPaymentAccountNumber",
  ],
  [
    "three carrier tax ids",
    BatchQuoteRequest,
    internationalQuote({
      carrierTaxIds: [
        { number: "1", type: "VAT" },
        { number: "2", type: "EIN" },
        { number: "3", type: "FED" },
      ],
    }),
    "shipments[0].commercialInvoice.carrierTaxIds",
  ],
  [
    "an empty carrier tax id number",
    BatchQuoteRequest,
    internationalQuote({ carrierTaxIds: [{ number: "", type: "EOR" }] }),
    "shipments[0].commercialInvoice.carrierTaxIds[0].number",
  ],
  [
    "a blank carrier tax id number",
    BookShipmentRequest,
    bookInvoice({
      carrierTaxIds: [
        { number: "GB1", type: "VAT" },
        { number: "   ", type: "EOR" },
      ],
    }),
    "commercialInvoice.carrierTaxIds[1].number",
  ],
  [
    "an unknown carrier tax id type",
    BookShipmentRequest,
    bookInvoice({ carrierTaxIds: [{ number: "GB1", type: "EORI" as "EOR" }] }),
    "commercialInvoice.carrierTaxIds[0].type",
  ],
  [
    "a lowercase issuer country",
    BookShipmentRequest,
    bookInvoice({ carrierTaxIds: [{ number: "GB1", type: "EOR", issuerCountry: "gb" }] }),
    "commercialInvoice.carrierTaxIds[0].issuerCountry",
  ],
  ["an ftrNumber next to an itnNumber", BookShipmentRequest, bookInvoice({ ftrNumber: "30.37(a)", itnNumber: "X2026" }), "commercialInvoice.ftrNumber"],
  ["an itnNumber next to an ftrNumber", BookShipmentRequest, bookInvoice({ ftrNumber: "30.37(a)", itnNumber: "X2026" }), "commercialInvoice.itnNumber"],
  ["an ftrNumber next to an aesNumber", BookShipmentRequest, bookInvoice({ ftrNumber: "30.37(a)", aesNumber: "AES1" }), "commercialInvoice.ftrNumber"],
  [
    "an itnNumber next to an aesNumber",
    BatchQuoteRequest,
    internationalQuote({ ftrNumber: null, itnNumber: "X2026", aesNumber: "AES1" }),
    "shipments[0].commercialInvoice.itnNumber",
  ],
  ["any aesNumber", BookShipmentRequest, bookInvoice({ ftrNumber: null, aesNumber: "AES1" }), "commercialInvoice.aesNumber"],
  ["an ftrNumber key left out", BookShipmentRequest, bookInvoice({ ftrNumber: undefined }), "commercialInvoice.ftrNumber"],
  ["unknown terms of trade", BookShipmentRequest, bookInvoice({ termsOfTrade: "FOB" as "DAP" }), "commercialInvoice.termsOfTrade"],
  [
    "an unknown sender tax id type",
    BatchQuoteRequest,
    internationalQuote({ senderTaxIdNumberType: "ssn" as "ein" }),
    "shipments[0].commercialInvoice.senderTaxIdNumberType",
  ],
  ["no packageMarks", BookShipmentRequest, bookInvoice({ packageMarks: undefined }), "commercialInvoice.packageMarks"],
  ["no invoice items", BookShipmentRequest, bookInvoice({ items: [] }), "commercialInvoice.items"],
  [
    "an item with a decimal quantity",
    BookShipmentRequest,
    bookInvoice({ items: [{ description: "A", quantity: 0.5, unitValue: "1", htsNumber: "", countryOfOrigin: "US" }] }),
    "commercialInvoice.items[0].quantity",
  ],
  [
    "an item with a non-decimal unit value",
    BookShipmentRequest,
    bookInvoice({ items: [{ description: "A", quantity: 1, unitValue: "$5", htsNumber: "", countryOfOrigin: "US" }] }),
    "commercialInvoice.items[0].unitValue",
  ],
  [
    "an item without htsNumber",
    BookShipmentRequest,
    bookInvoice({ items: [{ description: "A", quantity: 1, unitValue: "5", countryOfOrigin: "US" } as never] }),
    "commercialInvoice.items[0].htsNumber",
  ],
  [
    "an item with a bad country of origin",
    BookShipmentRequest,
    bookInvoice({ items: [{ description: "A", quantity: 1, unitValue: "5", htsNumber: "", countryOfOrigin: "USA" }] }),
    "commercialInvoice.items[0].countryOfOrigin",
  ],
  [
    "a consignee without zip",
    BookShipmentRequest,
    bookInvoice({ consignee: { name: "H", address1: "1 Row", city: "London", country: "GB" } as never }),
    "commercialInvoice.consignee.zip",
  ],
  [
    "an importer of record without city",
    BookShipmentRequest,
    bookInvoice({ importerOfRecord: { name: "H", address1: "1 Row", zip: "E1", country: "GB" } as never }),
    "commercialInvoice.importerOfRecord.city",
  ],
  [
    "a US consignee with a bad state",
    BookShipmentRequest,
    bookInvoice({ consignee: { name: "H", address1: "1 St", city: "Austin", zip: "73301", country: "US", state: "Texas" } }),
    "commercialInvoice.consignee.state",
  ],
  ["a book prepay balance sent as a number", BookShipmentResponse, { bookNumber: "B", trackingNumber: "T", prepayBalance: 170.5, zone: "5" }, "prepayBalance"],
  [
    "a piece shipping cost sent as a number",
    BookShipmentResponse,
    { bookNumber: "B", trackingNumber: "T", prepayBalance: "1.00", zone: "5", pieces: [{ trackingNumber: "T1", shippingCost: 7.05 }] },
    "pieces[0].shippingCost",
  ],
  ["a quote error category left out", BatchQuoteResponse, { results: [{ shipmentIndex: 0, status: "error", error: "No" }] }, "results[0].errorCategory"],
  [
    "a negative shipment index",
    BatchQuoteResponse,
    { results: [{ shipmentIndex: -1, status: "error", error: "No", errorCategory: "X" }] },
    "results[0].shipmentIndex",
  ],
  [
    "an unknown quoted weight type",
    BatchQuoteResponse,
    { results: [{ shipmentIndex: 0, status: "success", quotes: [buildQuote({ quotedWeightType: "Volumetric" as "Actual" })], quoteErrors: [] }] },
    "results[0].quotes[0].quotedWeightType",
  ],
  [
    "a surcharge amount that is not a decimal",
    BatchQuoteResponse,
    { results: [{ shipmentIndex: 0, status: "success", quotes: [buildQuote({ surcharges: [{ description: "Fuel", amount: "n/a" }] })], quoteErrors: [] }] },
    "results[0].quotes[0].surcharges[0].amount",
  ],
];

describe("Shipping API contract, Batch Quote and Book Shipment: documented shapes", () => {
  itAcceptsEach([
    ["a domestic batch quote", BatchQuoteRequest, quoteRequest(buildQuoteShipment())],
    [
      "an international batch quote with commercial invoice and tax ids",
      BatchQuoteRequest,
      internationalQuote({ ftrNumber: null, itnNumber: "X20261121123456" }),
    ],
    [
      "a batch quote with only the required fields",
      BatchQuoteRequest,
      quoteRequest({
        shipmentDate: "2028-02-29",
        shipmentReference: "",
        sender: buildAddress(),
        receiver: buildDomesticReceiver({ zip: null }),
        weightUnit: "oz",
        dimUnit: null,
        currency: "USD",
        pieces: [{ weight: "12" }],
      }),
    ],
    ["500 shipments in one batch quote", BatchQuoteRequest, { shipments: Array.from({ length: 500 }, () => buildQuoteShipment()) }],
    ["a full international book shipment", BookShipmentRequest, buildBookShipment()],
    [
      "a book shipment with a preset package (null dimensions)",
      BookShipmentRequest,
      buildBookShipment({
        dimUnit: null,
        pieces: [{ weight: "1", length: null, width: null, height: null, insuranceAmount: null, declaredValue: "10" }],
      }),
    ],
    [
      "a domestic book shipment without optional fields",
      BookShipmentRequest,
      buildBookShipment({
        receiver: buildDomesticReceiver(),
        commercialInvoice: null,
        returnTo: {},
        customsCurrency: undefined,
        pieces: [{ weight: "2", length: "5", width: "5", height: "5", insuranceAmount: null, declaredValue: null }],
      }),
    ],
    [
      "a batch quote response with success and error results",
      BatchQuoteResponse,
      {
        results: [
          {
            shipmentIndex: 0,
            status: "success",
            quotes: [buildQuote(), buildQuote({ quoteId: 9002, serviceCode: "express", surcharges: [] })],
            quoteErrors: [
              {
                carrierCode: "postal",
                serviceCode: "priority",
                serviceDescription: "Priority",
                packageTypeCode: "custom",
                error: "Weight exceeds 70 lb",
                errorCategory: "WEIGHT_LIMIT_EXCEEDED",
              },
            ],
          },
          { shipmentIndex: 1, status: "error", error: "Item weights exceed package weight", errorCategory: "INVALID_REQUEST" },
        ],
      },
    ],
    ["a book shipment response", BookShipmentResponse, { bookNumber: "BK-2", trackingNumber: "9400100000000000000000", prepayBalance: "170.50", zone: "5" }],
    [
      "a multipiece book shipment response",
      BookShipmentResponse,
      {
        bookNumber: "BK-3",
        trackingNumber: "940010",
        prepayBalance: "-3.10",
        zone: "5",
        pieces: [{ trackingNumber: "940011", shippingCost: "7.05" }],
      },
    ],
  ]);
});

describe("Shipping API contract, Batch Quote and Book Shipment: rules", () => {
  itRejectsEach(shipmentRules);

  it("GIVEN a US receiver with a state name at index 3 WHEN formatted THEN the message names the field and the rule", () => {
    const shipments = Array.from({ length: 4 }, () => buildQuoteShipment());
    shipments[3] = buildQuoteShipment({ receiver: buildDomesticReceiver({ state: "New York" }) });
    const result = BatchQuoteRequest.safeParse({ shipments });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formatIssues(result.error)).toBe("shipments[3].receiver.state: must be a two-letter code for US and CA");
    }
  });
});

describe("Shipping API contract, Batch Quote and Book Shipment: canonical output", () => {
  it("GIVEN a quote shipment with numeric money WHEN parsed THEN every decimal is a string", () => {
    const parsed = BookShipmentRequest.parse(buildBookShipment());
    expect(parsed.pieces[0]?.declaredValue).toBe("52");
    expect(parsed.commercialInvoice?.items.map((item) => item.unitValue)).toEqual(["24.50", "3"]);
  });
});
