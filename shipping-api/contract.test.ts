import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  addressText,
  AddToBatchRequest,
  BatchBookRequest,
  BatchBookResponse,
  BatchDetail,
  BatchLabelsResponse,
  BatchQuoteRequest,
  BatchQuoteResponse,
  BookedShipment,
  BookShipmentPiece,
  BookShipmentRequest,
  BookShipmentResponse,
  buildPath,
  CreateBatchRequest,
  CreateCustomerRequest,
  CreateCustomerResponse,
  Decimal,
  endpointList,
  endpoints,
  ErrorBody,
  EventStatus,
  formatIssuePath,
  formatIssues,
  formatMoney,
  IdParam,
  ListBatchesQuery,
  ListBatchesResponse,
  ListProviderAccountsResponse,
  ListServicesResponse,
  OkResponse,
  SearchShipmentsRequest,
  SearchShipmentsResponse,
  Service,
  TrackingResponse,
} from "./contract";
import {
  buildAddress,
  buildBatch,
  buildBatchQuoteEntry,
  buildBookedShipment,
  buildBookShipment,
  buildCommercialInvoice,
  buildCreateCustomer,
  buildCustomerAddress,
  buildDomesticReceiver,
  buildPackageType,
  buildPiece,
  buildQuote,
  buildQuoteShipment,
  buildService,
  buildTrackingEvent,
  buildUkReceiver,
} from "../test/factories/shipping-api";

/** Formatted paths of every issue the schema raises for the input (empty when it parses). */
function issuePaths(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => formatIssuePath(issue.path));
}

const quoteRequest = (...shipments: z.input<typeof BatchQuoteRequest>["shipments"]) => ({ shipments });
const internationalQuote = (invoice: Parameters<typeof buildCommercialInvoice>[0]) =>
  quoteRequest(buildQuoteShipment({ receiver: buildUkReceiver(), commercialInvoice: buildCommercialInvoice(invoice) }));
const bookInvoice = (invoice: Parameters<typeof buildCommercialInvoice>[0]) =>
  buildBookShipment({ commercialInvoice: buildCommercialInvoice(invoice) });
const bookingWithPieceWithout = (key: keyof z.input<typeof BookShipmentPiece>) => {
  const piece: Record<string, unknown> = { weight: "1", length: "1", width: "1", height: "1", insuranceAmount: null, declaredValue: null };
  delete piece[key];
  return buildBookShipment({ pieces: [piece as z.input<typeof BookShipmentPiece>] });
};
const oneServiceResponse = (service: z.input<typeof Service>) => ({ services: [service] });

describe("Shipping API contract: documented shapes", () => {
  it.each<[string, z.ZodType, unknown]>([
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
    ["a create batch request", CreateBatchRequest, { name: "Monday pickups", quoteIds: [9001, 9002] }],
    ["a create batch request without quotes", CreateBatchRequest, { name: "x".repeat(255) }],
    ["an add to batch request", AddToBatchRequest, { quoteIds: [9003] }],
    ["a batch book request", BatchBookRequest, { batchId: 17 }],
    ["a search request", SearchShipmentsRequest, { keyword: "Blake" }],
    ["a create customer request", CreateCustomerRequest, buildCreateCustomer()],
    [
      "a create customer request with only required fields",
      CreateCustomerRequest,
      {
        profileCode: "Default",
        email: "a@b.test",
        password: "pw",
        mailingAddress: buildCustomerAddress(),
        billingAddress: buildCustomerAddress(),
        prepaySettings: { minimumBalance: 0, rechargeAmount: "100" },
      },
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
    ["a batch", BatchDetail.omit({ quotes: true }), buildBatch()],
    [
      "a batch with its quotes",
      BatchDetail,
      {
        ...buildBatch({ status: "completed", bookedCount: 1, errorCount: 1, processedAt: "2026-11-21 10:00:00" }),
        quotes: [
          buildBatchQuoteEntry({ status: "booked", bookNumber: "BK-1", trackingNumber: "1Z1" }),
          buildBatchQuoteEntry({ quoteId: 9002, bookingError: "Address not serviceable", totalAmount: 9.5 }),
        ],
      },
    ],
    ["a list of batches", ListBatchesResponse, { batches: [buildBatch()], total: 1, page: 1, limit: 25 }],
    ["an ok response", OkResponse, { ok: true }],
    [
      "a batch book response",
      BatchBookResponse,
      {
        results: [
          {
            quoteId: 9001,
            status: "success",
            bookNumber: "BK-1",
            trackingNumber: "1Z1",
            lastMileTrackingNumber: "",
            totalShippingCost: "14.75",
            zone: "8",
          },
          { quoteId: 9002, status: "error", error: "Quote expired", errorCategory: "QUOTE_EXPIRED" },
        ],
        labelsPdf: "JVBERi0xLjcK",
        prepayBalance: "185.25",
      },
    ],
    [
      "a batch book response where nothing was booked",
      BatchBookResponse,
      { results: [{ quoteId: 9002, status: "error", error: "Quote expired", errorCategory: "QUOTE_EXPIRED" }], labelsPdf: "" },
    ],
    ["batch labels", BatchLabelsResponse, { labelsPdf: "JVBERi0xLjcK" }],
    [
      "a book shipment response",
      BookShipmentResponse,
      { bookNumber: "BK-2", trackingNumber: "9400100000000000000000", prepayBalance: "170.50", zone: "5" },
    ],
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
    [
      "search results with both reference spellings",
      SearchShipmentsResponse,
      { shipments: [buildBookedShipment(), buildBookedShipment({ shipperReference: undefined, shipmentReference: "#7" })] },
    ],
    [
      "services with supported and unsupported country lists",
      ListServicesResponse,
      {
        services: [
          buildService(),
          buildService({
            serviceCode: "intl",
            supportedCountries: null,
            unsupportedCountries: ["CU", "KP"],
            supportedDangerousGoodCodes: "UN3481",
            supportedDangerousGoodsCodes: undefined,
          }),
        ],
      },
    ],
    [
      "tracking events (a bare array), every event status",
      TrackingResponse,
      EventStatus.options.map((eventStatus) => buildTrackingEvent({ eventStatus, serviceArea: "" })),
    ],
    ["an empty tracking history", TrackingResponse, []],
    [
      "provider accounts with masked fields",
      ListProviderAccountsResponse,
      {
        providerAccounts: [
          { id: "pa_1", providerCode: "express", accountFields: { accountNumber: "****6789", key: "****", password: "****", meterNumber: "****" } },
          { id: "pa_2", providerCode: "parcel", accountFields: { accountNumber: "****1234", userId: "n***d", password: "****", accessLicenceNumber: "****" } },
        ],
      },
    ],
    ["a create customer response", CreateCustomerResponse, { customerId: "cus_123" }],
    ["an error body with an unknown category", ErrorBody, { error: "Slow down", errorCategory: "SOMETHING_NEW" }],
  ])("GIVEN %s WHEN parsed THEN it is accepted", (_name, schema, input) => {
    const result = schema.safeParse(input);
    expect(result.success ? "" : formatIssues(result.error)).toBe("");
  });
});

type RejectionRow = [rule: string, schema: z.ZodType, input: unknown, path: string];

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
  ["a US state that is not a two-letter code", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ receiver: buildDomesticReceiver({ state: "New York" }) })), "shipments[0].receiver.state"],
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
  ["a numeric (not string) weight", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ weight: 2 as unknown as string })] })), "shipments[0].pieces[0].weight"],
  ["a negative dimension", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ length: "-3" })] })), "shipments[0].pieces[0].length"],
  ["a non-numeric dimension", BookShipmentRequest, buildBookShipment({ pieces: [{ weight: "1", length: "ten", width: "1", height: "1", insuranceAmount: null, declaredValue: null }] }), "pieces[0].length"],
  ["a decimal with a comma", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ insuranceAmount: "12,50" })] })), "shipments[0].pieces[0].insuranceAmount"],
  ["a decimal in exponent notation", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ insuranceAmount: "1e3" })] })), "shipments[0].pieces[0].insuranceAmount"],
  ...(["insuranceAmount", "declaredValue", "height"] as const).map(
    (key): RejectionRow => [`a booking piece without ${key}`, BookShipmentRequest, bookingWithPieceWithout(key), `pieces[0].${key}`],
  ),
  ["a line item with a fractional quantity", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ lineItems: [{ sku: "A", productName: "A", quantity: 1.5 }] })] })), "shipments[0].pieces[0].lineItems[0].quantity"],
  ["a line item without sku", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ pieces: [buildPiece({ lineItems: [{ productName: "A", quantity: 1 } as { sku: string; productName: string; quantity: number }] })] })), "shipments[0].pieces[0].lineItems[0].sku"],
  ["an unknown billing party", BatchQuoteRequest, quoteRequest(buildQuoteShipment({ billing: { party: "shipper" as "sender" } })), "shipments[0].billing.party"],
  [
    "duty paid by the receiver without an account",
    BookShipmentRequest,
    buildBookShipment({ billing: { party: "sender", dutiableParty: { dutyPaymentType: "third_party", dutyPaymentAccountNumber: null } } }),
    "billing.dutiableParty.dutyPaymentAccountNumber",
  ],
];

const invoiceRules: RejectionRow[] = [
  ["three carrier tax ids", BatchQuoteRequest, internationalQuote({ carrierTaxIds: [{ number: "1", type: "VAT" }, { number: "2", type: "EIN" }, { number: "3", type: "FED" }] }), "shipments[0].commercialInvoice.carrierTaxIds"],
  ["an empty carrier tax id number", BatchQuoteRequest, internationalQuote({ carrierTaxIds: [{ number: "", type: "EOR" }] }), "shipments[0].commercialInvoice.carrierTaxIds[0].number"],
  ["a blank carrier tax id number", BookShipmentRequest, bookInvoice({ carrierTaxIds: [{ number: "GB1", type: "VAT" }, { number: "   ", type: "EOR" }] }), "commercialInvoice.carrierTaxIds[1].number"],
  ["an unknown carrier tax id type", BookShipmentRequest, bookInvoice({ carrierTaxIds: [{ number: "GB1", type: "EORI" as "EOR" }] }), "commercialInvoice.carrierTaxIds[0].type"],
  ["a lowercase issuer country", BookShipmentRequest, bookInvoice({ carrierTaxIds: [{ number: "GB1", type: "EOR", issuerCountry: "gb" }] }), "commercialInvoice.carrierTaxIds[0].issuerCountry"],
  ["an ftrNumber next to an itnNumber", BookShipmentRequest, bookInvoice({ ftrNumber: "30.37(a)", itnNumber: "X2026" }), "commercialInvoice.ftrNumber"],
  ["an itnNumber next to an ftrNumber", BookShipmentRequest, bookInvoice({ ftrNumber: "30.37(a)", itnNumber: "X2026" }), "commercialInvoice.itnNumber"],
  ["an ftrNumber next to an aesNumber", BookShipmentRequest, bookInvoice({ ftrNumber: "30.37(a)", aesNumber: "AES1" }), "commercialInvoice.ftrNumber"],
  ["an itnNumber next to an aesNumber", BatchQuoteRequest, internationalQuote({ ftrNumber: null, itnNumber: "X2026", aesNumber: "AES1" }), "shipments[0].commercialInvoice.itnNumber"],
  ["any aesNumber", BookShipmentRequest, bookInvoice({ ftrNumber: null, aesNumber: "AES1" }), "commercialInvoice.aesNumber"],
  ["an ftrNumber key left out", BookShipmentRequest, bookInvoice({ ftrNumber: undefined }), "commercialInvoice.ftrNumber"],
  ["unknown terms of trade", BookShipmentRequest, bookInvoice({ termsOfTrade: "FOB" as "DAP" }), "commercialInvoice.termsOfTrade"],
  ["an unknown sender tax id type", BatchQuoteRequest, internationalQuote({ senderTaxIdNumberType: "ssn" as "ein" }), "shipments[0].commercialInvoice.senderTaxIdNumberType"],
  ["no packageMarks", BookShipmentRequest, bookInvoice({ packageMarks: undefined }), "commercialInvoice.packageMarks"],
  ["no invoice items", BookShipmentRequest, bookInvoice({ items: [] }), "commercialInvoice.items"],
  ["an item with a decimal quantity", BookShipmentRequest, bookInvoice({ items: [{ description: "A", quantity: 0.5, unitValue: "1", htsNumber: "", countryOfOrigin: "US" }] }), "commercialInvoice.items[0].quantity"],
  ["an item with a non-decimal unit value", BookShipmentRequest, bookInvoice({ items: [{ description: "A", quantity: 1, unitValue: "$5", htsNumber: "", countryOfOrigin: "US" }] }), "commercialInvoice.items[0].unitValue"],
  ["an item without htsNumber", BookShipmentRequest, bookInvoice({ items: [{ description: "A", quantity: 1, unitValue: "5", countryOfOrigin: "US" } as never] }), "commercialInvoice.items[0].htsNumber"],
  ["an item with a bad country of origin", BookShipmentRequest, bookInvoice({ items: [{ description: "A", quantity: 1, unitValue: "5", htsNumber: "", countryOfOrigin: "USA" }] }), "commercialInvoice.items[0].countryOfOrigin"],
  ["a consignee without zip", BookShipmentRequest, bookInvoice({ consignee: { name: "H", address1: "1 Row", city: "London", country: "GB" } as never }), "commercialInvoice.consignee.zip"],
  ["an importer of record without city", BookShipmentRequest, bookInvoice({ importerOfRecord: { name: "H", address1: "1 Row", zip: "E1", country: "GB" } as never }), "commercialInvoice.importerOfRecord.city"],
  ["a US consignee with a bad state", BookShipmentRequest, bookInvoice({ consignee: { name: "H", address1: "1 St", city: "Austin", zip: "73301", country: "US", state: "Texas" } }), "commercialInvoice.consignee.state"],
];

const batchRules: RejectionRow[] = [
  ["an empty batch name", CreateBatchRequest, { name: "" }, "name"],
  ["a 256-character batch name", CreateBatchRequest, { name: "x".repeat(256) }, "name"],
  ["501 quote ids at creation", CreateBatchRequest, { name: "b", quoteIds: Array.from({ length: 501 }, (_, i) => i + 1) }, "quoteIds"],
  ["a non-integer quote id", CreateBatchRequest, { name: "b", quoteIds: [1, 2.5] }, "quoteIds[1]"],
  ["no quote ids to add", AddToBatchRequest, { quoteIds: [] }, "quoteIds"],
  ["501 quote ids to add", AddToBatchRequest, { quoteIds: Array.from({ length: 501 }, (_, i) => i + 1) }, "quoteIds"],
  ["a quote id of zero", AddToBatchRequest, { quoteIds: [0] }, "quoteIds[0]"],
  ["a batch id as a string", BatchBookRequest, { batchId: "17" }, "batchId"],
  ["page 0", ListBatchesQuery, { page: "0" }, "page"],
  ["a non-numeric page", ListBatchesQuery, { page: "two" }, "page"],
  ["limit 0", ListBatchesQuery, { limit: "0" }, "limit"],
  ["limit 101", ListBatchesQuery, { limit: "101" }, "limit"],
  ["a fractional limit", ListBatchesQuery, { limit: "2.5" }, "limit"],
  ["an unknown batch status", ListBatchesResponse, { batches: [buildBatch({ status: "done" as "open" })], total: 1, page: 1, limit: 25 }, "batches[0].status"],
  ["an ISO 8601 timestamp", ListBatchesResponse, { batches: [buildBatch({ createdAt: "2026-11-21T09:12:00Z" })], total: 1, page: 1, limit: 25 }, "batches[0].createdAt"],
  ["hour 24 in a timestamp", BatchDetail, { ...buildBatch({ processedAt: "2026-11-21 24:00:00" }), quotes: [] }, "processedAt"],
  ["an unknown quote status", BatchDetail, { ...buildBatch(), quotes: [buildBatchQuoteEntry({ status: "pending" as "active" })] }, "quotes[0].status"],
  ["a page size over 100 in a list", ListBatchesResponse, { batches: [], total: 0, page: 1, limit: 500 }, "limit"],
  ["a success book result without bookNumber", BatchBookResponse, { results: [{ quoteId: 1, status: "success", trackingNumber: "1", totalShippingCost: "1.00", zone: "1" }], labelsPdf: "" }, "results[0].bookNumber"],
  ["an unknown book result status", BatchBookResponse, { results: [{ quoteId: 1, status: "partial" }], labelsPdf: "" }, "results[0].status"],
  ["labels that are not base64", BatchBookResponse, { results: [], labelsPdf: "%PDF-1.7" }, "labelsPdf"],
  ["empty batch labels", BatchLabelsResponse, { labelsPdf: "" }, "labelsPdf"],
  ["a book prepay balance sent as a number", BookShipmentResponse, { bookNumber: "B", trackingNumber: "T", prepayBalance: 170.5, zone: "5" }, "prepayBalance"],
  ["a piece shipping cost sent as a number", BookShipmentResponse, { bookNumber: "B", trackingNumber: "T", prepayBalance: "1.00", zone: "5", pieces: [{ trackingNumber: "T1", shippingCost: 7.05 }] }, "pieces[0].shippingCost"],
  ["a quote error category left out", BatchQuoteResponse, { results: [{ shipmentIndex: 0, status: "error", error: "No" }] }, "results[0].errorCategory"],
  ["a negative shipment index", BatchQuoteResponse, { results: [{ shipmentIndex: -1, status: "error", error: "No", errorCategory: "X" }] }, "results[0].shipmentIndex"],
  ["an unknown quoted weight type", BatchQuoteResponse, { results: [{ shipmentIndex: 0, status: "success", quotes: [buildQuote({ quotedWeightType: "Volumetric" as "Actual" })], quoteErrors: [] }] }, "results[0].quotes[0].quotedWeightType"],
  ["a surcharge amount that is not a decimal", BatchQuoteResponse, { results: [{ shipmentIndex: 0, status: "success", quotes: [buildQuote({ surcharges: [{ description: "Fuel", amount: "n/a" }] })], quoteErrors: [] }] }, "results[0].quotes[0].surcharges[0].amount"],
];

const recordRules: RejectionRow[] = [
  ["an empty search keyword", SearchShipmentsRequest, { keyword: " " }, "keyword"],
  ["more than 100 search results", SearchShipmentsResponse, { shipments: Array.from({ length: 101 }, () => buildBookedShipment()) }, "shipments"],
  ["a search result without any reference", SearchShipmentsResponse, { shipments: [buildBookedShipment({ shipperReference: undefined })] }, "shipments[0].shipmentReference"],
  ["a search result weighed in ounces", SearchShipmentsResponse, { shipments: [buildBookedShipment({ weightUnit: "oz" as "lb" })] }, "shipments[0].weightUnit"],
  ["a search result with a bad receiver state", SearchShipmentsResponse, { shipments: [buildBookedShipment({ receiver: { ...buildBookedShipment().receiver, state: "N.Y." } })] }, "shipments[0].receiver.state"],
  ["a service with both country lists", ListServicesResponse, oneServiceResponse(buildService({ unsupportedCountries: ["CU"] })), "services[0].supportedCountries"],
  ["a service with neither country list", ListServicesResponse, oneServiceResponse(buildService({ supportedCountries: null })), "services[0].supportedCountries"],
  ["a custom package type with a dim unit", ListServicesResponse, oneServiceResponse(buildService({ packageTypes: [buildPackageType({ dimUnit: "in" })] })), "services[0].packageTypes[0].dimUnit"],
  ["an envelope with a preset length", ListServicesResponse, oneServiceResponse(buildService({ packageTypes: [buildPackageType({ dimType: "envelope", presetLength: "12" })] })), "services[0].packageTypes[0].presetLength"],
  ["a max weight per piece sent as a number", ListServicesResponse, oneServiceResponse(buildService({ packageTypes: [buildPackageType({ maxWeightPerPiece: 150 as unknown as string })] })), "services[0].packageTypes[0].maxWeightPerPiece"],
  ["the corrected spelling Delivery Arranged", TrackingResponse, [buildTrackingEvent({ eventStatus: "Delivery Arranged" as "Delivery Arragned" })], "[0].eventStatus"],
  ["a tracking time with a T separator", TrackingResponse, [buildTrackingEvent(), buildTrackingEvent({ eventTime: "2026-11-24T06:41:10" })], "[1].eventTime"],
  ["a tracking response wrapped in an object", TrackingResponse, { events: [buildTrackingEvent()] }, "(root)"],
  ["unmasked non-string account fields", ListProviderAccountsResponse, { providerAccounts: [{ id: "pa_1", providerCode: "x", accountFields: { port: 443 } }] }, "providerAccounts[0].accountFields.port"],
  ["a malformed customer email", CreateCustomerRequest, buildCreateCustomer({ email: "owner at shop" }), "email"],
  ["a two-character franchise id", CreateCustomerRequest, buildCreateCustomer({ franchiseId: "SF" }), "franchiseId"],
  ["a four-character franchise id", CreateCustomerRequest, buildCreateCustomer({ franchiseId: "SF12" }), "franchiseId"],
  ["an unknown industry", CreateCustomerRequest, buildCreateCustomer({ industry: "crypto" as "other" }), "industry"],
  ["a mailing address without phone", CreateCustomerRequest, buildCreateCustomer({ mailingAddress: buildCustomerAddress({ phone: undefined }) }), "mailingAddress.phone"],
  ["a billing address with a null zip", CreateCustomerRequest, buildCreateCustomer({ billingAddress: buildCustomerAddress({ zip: null as unknown as string }) }), "billingAddress.zip"],
  ["a billing address with a bad state", CreateCustomerRequest, buildCreateCustomer({ billingAddress: buildCustomerAddress({ state: "Calif" }) }), "billingAddress.state"],
  ["a non-decimal minimum balance", CreateCustomerRequest, buildCreateCustomer({ prepaySettings: { minimumBalance: "fifty", rechargeAmount: "1" } }), "prepaySettings.minimumBalance"],
  ["a missing recharge amount", CreateCustomerRequest, buildCreateCustomer({ prepaySettings: { minimumBalance: "50" } as never }), "prepaySettings.rechargeAmount"],
  ["no profile code", CreateCustomerRequest, buildCreateCustomer({ profileCode: "" }), "profileCode"],
  ["an error body without category", ErrorBody, { error: "Nope" }, "errorCategory"],
];

describe("Shipping API contract: rules", () => {
  it.each([...shipmentRules, ...invoiceRules, ...batchRules, ...recordRules])(
    "GIVEN %s WHEN parsed THEN it is rejected with an issue naming the field",
    (_rule, schema, input, path) => {
      const result = schema.safeParse(input);
      expect(result.success).toBe(false);
      expect(issuePaths(schema, input)).toContain(path);
      if (!result.success) expect(formatIssues(result.error)).toContain(`${path}: `);
    },
  );

  it("GIVEN a US receiver with a state name at index 3 WHEN formatted THEN the message names the field and the rule", () => {
    const shipments = Array.from({ length: 4 }, () => buildQuoteShipment());
    shipments[3] = buildQuoteShipment({ receiver: buildDomesticReceiver({ state: "New York" }) });
    const result = BatchQuoteRequest.safeParse({ shipments });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formatIssues(result.error)).toBe("shipments[3].receiver.state: must be a two-letter code for US and CA");
    }
  });

  it("GIVEN several violations WHEN formatted THEN every issue is listed, separated by semicolons", () => {
    const result = CreateBatchRequest.safeParse({ name: "", quoteIds: [0] });
    expect(result.success ? "" : formatIssues(result.error)).toBe("name: must not be empty; quoteIds[0]: must be a positive integer");
  });

  it.each([
    ["a digit string beyond the safe-integer range", "9007199254740993"],
    ["a number beyond the safe-integer range", 2 ** 60],
    ["zero", "0"],
    ["a hexadecimal string", "0x10"],
  ])("GIVEN an id path parameter that is %s WHEN parsed THEN it is refused, never rounded to another id", (_case, value) => {
    expect(IdParam.safeParse(value).success).toBe(false);
  });

  it("GIVEN the largest safe id as digits WHEN parsed THEN it is that number", () => {
    expect(IdParam.parse(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("Shipping API contract: canonical output", () => {
  it.each<[unknown, string]>([
    ["12.50", "12.50"],
    [12.5, "12.5"],
    [0, "0"],
    [-3.1, "-3.1"],
    [1e-7, "0.0000001"],
    [1e21, "1000000000000000000000"],
    [0.1, "0.1"],
    [123.45, "123.45"],
  ])("GIVEN the decimal %j WHEN parsed THEN the output is the decimal string %j", (input, output) => {
    expect(Decimal.parse(input)).toBe(output);
  });

  it.each<[unknown]>([[Number.POSITIVE_INFINITY], [Number.NaN], ["12."], [".5"], ["+1"], [""], [null]])(
    "GIVEN %j WHEN parsed as a decimal THEN it is rejected",
    (input) => {
      expect(Decimal.safeParse(input).success).toBe(false);
    },
  );

  it.each<[string | number, string]>([
    [12.5, "12.50"],
    ["7", "7.00"],
    [0.1 + 0.2, "0.30"],
    [1.005, "1.01"],
    ["2.675", "2.68"],
    ["-0.004", "0.00"],
    ["-12.345", "-12.35"],
    ["99.999", "100.00"],
  ])("GIVEN money %j WHEN formatted THEN it has two decimals (%s)", (input, output) => {
    expect(formatMoney(input)).toBe(output);
  });

  it("GIVEN a quote shipment with numeric money WHEN parsed THEN every decimal is a string", () => {
    const parsed = BookShipmentRequest.parse(buildBookShipment());
    expect(parsed.pieces[0]?.declaredValue).toBe("52");
    expect(parsed.commercialInvoice?.items.map((item) => item.unitValue)).toEqual(["24.50", "3"]);
  });

  it("GIVEN a search result with shipperReference WHEN parsed THEN it is exposed as shipmentReference only", () => {
    const parsed = BookedShipment.parse(buildBookedShipment({ shipperReference: "#1042" }));
    expect(parsed.shipmentReference).toBe("#1042");
    expect(parsed).not.toHaveProperty("shipperReference");
  });

  it("GIVEN both reference spellings WHEN parsed THEN shipmentReference wins", () => {
    const parsed = BookedShipment.parse(buildBookedShipment({ shipmentReference: "A", shipperReference: "B" }));
    expect(parsed.shipmentReference).toBe("A");
  });

  it.each<[string, Partial<z.input<typeof Service>>, string | null]>([
    ["the example spelling", { supportedDangerousGoodsCodes: "UN3481" }, "UN3481"],
    ["the field-table spelling", { supportedDangerousGoodsCodes: undefined, supportedDangerousGoodCodes: "UN3091" }, "UN3091"],
    ["neither spelling", { supportedDangerousGoodsCodes: undefined }, null],
  ])("GIVEN a service with %s WHEN parsed THEN supportedDangerousGoodsCodes carries the codes", (_name, overrides, codes) => {
    const parsed = Service.parse(buildService(overrides));
    expect(parsed.supportedDangerousGoodsCodes).toBe(codes);
    expect(parsed).not.toHaveProperty("supportedDangerousGoodCodes");
  });

  it("GIVEN a partial address with a null zip WHEN read as text THEN every field is present and the missing ones are empty", () => {
    expect(addressText({ name: "Ada", country: "IE", zip: null, city: "Dublin" })).toEqual({
      name: "Ada",
      company: "",
      address1: "",
      address2: "",
      city: "Dublin",
      state: "",
      zip: "",
      country: "IE",
      phone: "",
      email: "",
    });
  });

  it("GIVEN an empty list query WHEN parsed THEN page 1 and limit 25 are the defaults", () => {
    expect(ListBatchesQuery.parse({})).toEqual({ page: 1, limit: 25 });
    expect(ListBatchesQuery.parse({ page: "3", limit: "100" })).toEqual({ page: 3, limit: 100 });
  });
});

describe("Shipping API contract: endpoint table", () => {
  it("GIVEN the table WHEN listed THEN it has the spec's 16 endpoints plus Get Shipment Label, each keyed by its name", () => {
    expect(endpointList).toHaveLength(17);
    for (const [key, endpoint] of Object.entries(endpoints)) expect(endpoint.name).toBe(key);
  });

  it.each(endpointList.map((endpoint) => [endpoint.name, endpoint] as const))(
    "GIVEN %s WHEN its path is read THEN its :segments are exactly the keys of its params schema",
    (_name, endpoint) => {
      const segments = [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
      expect(segments.sort()).toEqual(Object.keys(endpoint.params.shape).sort());
    },
  );

  it("GIVEN the table WHEN auth and bodies are read THEN only createCustomer is partner-authenticated and GET/DELETE carry no body", () => {
    expect(endpointList.filter((e) => e.auth === "partner").map((e) => e.name)).toEqual(["createCustomer"]);
    expect(endpointList.filter((e) => e.method !== "POST" && e.body !== null)).toEqual([]);
    expect(endpointList.filter((e) => e.query !== null).map((e) => e.name)).toEqual(["listBatches"]);
  });

  it.each<[unknown, boolean]>([
    ["42", true],
    [42, true],
    ["0", false],
    ["-1", false],
    ["1.5", false],
    ["0x10", false],
    ["abc", false],
    ["", false],
  ])("GIVEN batchId %j WHEN the getBatch params are parsed THEN success is %s", (batchId, ok) => {
    const result = endpoints.getBatch.params.safeParse({ customerId: "cus_1", batchId });
    expect(result.success).toBe(ok);
    if (!result.success) expect(issuePaths(endpoints.getBatch.params, { customerId: "cus_1", batchId })).toContain("batchId");
    else expect(result.data.batchId).toBe(42);
  });

  it("GIVEN an empty book number WHEN the trackShipment params are parsed THEN bookNumber is named", () => {
    expect(issuePaths(endpoints.trackShipment.params, { customerId: "cus_1", bookNumber: "" })).toEqual(["bookNumber"]);
  });

  it("GIVEN params with reserved characters WHEN a path is built THEN each segment is URL-encoded", () => {
    expect(buildPath(endpoints.trackShipment.path, { customerId: "cus 1", bookNumber: "BK/1?x" })).toBe(
      "/restapi/v1/customers/cus%201/shipments/BK%2F1%3Fx/tracking-information",
    );
    expect(() => buildPath(endpoints.getBatch.path, { customerId: "c" })).toThrow(/batchId/);
  });
});
