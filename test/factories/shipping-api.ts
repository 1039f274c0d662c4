import type { z } from "zod";
import type {
  Address,
  Batch,
  BatchQuoteEntry,
  BatchQuoteShipment,
  BookedShipment,
  BookShipmentRequest,
  CommercialInvoice,
  CreateCustomerRequest,
  CustomerAddress,
  PackageType,
  Piece,
  Quote,
  Service,
  TrackingEvent,
} from "../../shipping-api/contract";

/**
 * Factories of realistic, contract-valid Shipping API payloads for tests (contract tests,
 * client tests, the service's tests). Each takes overrides; the result is the wire (input)
 * form, so decimals may be given as numbers or strings.
 */

type In<T extends z.ZodType> = z.input<T>;

export function buildAddress(overrides: Partial<In<typeof Address>> = {}): In<typeof Address> {
  return {
    name: "Ada Moreno",
    company: "Northwind Candles",
    address1: "500 Market St",
    address2: "Suite 400",
    city: "San Francisco",
    state: "CA",
    zip: "94105",
    country: "US",
    phone: "4155550142",
    email: "shipping@northwind-candles.test",
    ...overrides,
  };
}

export function buildDomesticReceiver(overrides: Partial<In<typeof Address>> = {}): In<typeof Address> {
  return buildAddress({
    name: "Jordan Blake",
    company: "",
    address1: "88 Orchard St",
    address2: "Apt 3B",
    city: "New York",
    state: "NY",
    zip: "10002",
    email: undefined,
    phone: "2125550199",
    ...overrides,
  });
}

export function buildUkReceiver(overrides: Partial<In<typeof Address>> = {}): In<typeof Address> {
  return buildAddress({
    name: "Harriet Cole",
    company: "Cole & Daughters Ltd",
    address1: "14 Bedford Row",
    address2: "",
    city: "London",
    state: "",
    zip: "WC1R 4ED",
    country: "GB",
    phone: "2079460321",
    email: undefined,
    ...overrides,
  });
}

export function buildPiece(overrides: Partial<In<typeof Piece>> = {}): In<typeof Piece> {
  return {
    weight: "2.5",
    length: "12",
    width: "9",
    height: "4",
    insuranceAmount: "150.00",
    declaredValue: null,
    lineItems: [
      { sku: "CNDL-LAV-8", productName: "Lavender candle 8oz", quantity: 2 },
      { sku: "", productName: "Gift wrap", quantity: 1 },
    ],
    ...overrides,
  };
}

export function buildCommercialInvoice(overrides: Partial<In<typeof CommercialInvoice>> = {}): In<typeof CommercialInvoice> {
  return {
    sendElectronically: true,
    ftrNumber: "30.37(a)",
    itnNumber: null,
    aesNumber: null,
    termsOfTrade: "DAP",
    receiverTaxId: "GB123456789",
    senderVatTaxId: "94-1234567",
    senderTaxIdNumberType: "ein",
    packageMarks: "NWC order #1042",
    consignee: {
      name: "Harriet Cole",
      address1: "14 Bedford Row",
      city: "London",
      zip: "WC1R 4ED",
      country: "GB",
    },
    importerOfRecord: null,
    carrierTaxIds: [{ number: "GB123456789000", type: "EOR", issuerCountry: "GB" }],
    items: [
      {
        description: "Soy wax candle, lavender",
        quantity: 2,
        unitValue: "24.50",
        weight: "1.1",
        htsNumber: "3406.00.0000",
        countryOfOrigin: "US",
      },
      {
        description: "Gift wrap paper",
        quantity: 1,
        unitValue: 3,
        htsNumber: "",
        countryOfOrigin: "US",
      },
    ],
    ...overrides,
  };
}

/** A domestic US shipment for Batch Quote (no declared value, no commercial invoice). */
export function buildQuoteShipment(overrides: Partial<In<typeof BatchQuoteShipment>> = {}): In<typeof BatchQuoteShipment> {
  return {
    shipmentDate: "2026-11-23",
    shipmentReference: "#1042",
    contentDescription: "Candles",
    sender: buildAddress(),
    receiver: buildDomesticReceiver(),
    residential: true,
    signatureOptionCode: null,
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    pieces: [buildPiece()],
    billing: { party: "sender", account: null, country: null, zip: null },
    providerAccountId: null,
    ...overrides,
  };
}

/** A domestic ground Book Shipment of one parcel on the service's own catalog (Brownline Parcel), no insurance. */
export function buildDomesticBooking(overrides: Partial<In<typeof BookShipmentRequest>> = {}): In<typeof BookShipmentRequest> {
  return {
    carrierCode: "BLP",
    serviceCode: "BLP_GROUND",
    packageTypeCode: "BLP_PACKAGE",
    shipmentDate: "2026-11-23",
    shipmentReference: "INV-1042",
    sender: buildQuoteShipment().sender,
    receiver: buildDomesticReceiver(),
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: null, declaredValue: null }],
    ...overrides,
  };
}

/**
 * A return label as a shop books one for its customer: the postal carrier's Ground Return (inbound), sender = the
 * customer in New York, receiver = the shop's return address in San Francisco, scan-based (charged when first
 * scanned). Override `scanBasedReturnLabel: false` for a label charged when booked.
 */
export function buildReturnBooking(overrides: Partial<In<typeof BookShipmentRequest>> = {}): In<typeof BookShipmentRequest> {
  return buildDomesticBooking({
    carrierCode: "NPS",
    serviceCode: "NPS_GROUND_RETURN",
    packageTypeCode: "NPS_PACKAGE",
    shipmentReference: "#1042-R1",
    sender: buildDomesticReceiver(),
    receiver: buildAddress({ name: "Returns desk" }),
    scanBasedReturnLabel: true,
    ...overrides,
  });
}

/** An international (US → GB) Book Shipment with a full commercial invoice. */
export function buildBookShipment(overrides: Partial<In<typeof BookShipmentRequest>> = {}): In<typeof BookShipmentRequest> {
  return {
    carrierCode: "express",
    serviceCode: "express_worldwide",
    packageTypeCode: "custom",
    shipmentDate: "2026-11-23",
    shipmentReference: "INV-1042",
    shipmentReference2: "gid://shopify/Order/1042",
    contentDescription: "Candles",
    contentType: "merchandise",
    orderNumber: "1042",
    sender: buildAddress(),
    receiver: buildUkReceiver(),
    returnTo: { name: "Returns desk", country: "US", state: "CA" },
    residential: false,
    signatureOptionCode: "adult",
    postalExpressAmDelivery: false,
    saturdayDelivery: false,
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    customsCurrency: "GBP",
    labelImageFormat: "PDF",
    pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: "150.00", declaredValue: 52 }],
    approvePrepayRecharge: true,
    scanBasedReturnLabel: false,
    commercialInvoice: buildCommercialInvoice(),
    billing: {
      party: "sender",
      account: "ACC-991",
      country: "US",
      zip: "94105",
      dutiableParty: { dutyPaymentType: "receiver", dutyPaymentAccountNumber: "GB-DUTY-77" },
    },
    providerAccountId: "pa_42",
    postalEndorsement: null,
    ...overrides,
  };
}

export function buildQuote(overrides: Partial<In<typeof Quote>> = {}): In<typeof Quote> {
  return {
    quoteId: 9001,
    carrierCode: "parcel",
    serviceCode: "ground",
    serviceDescription: "Parcel Ground",
    packageTypeCode: "custom",
    currency: "USD",
    totalAmount: "14.75",
    baseAmount: "12.50",
    zone: "8",
    quotedWeight: "3",
    quotedWeightType: "Dimensional",
    surcharges: [{ description: "Residential delivery", amount: "2.25" }],
    ...overrides,
  };
}

export function buildBatch(overrides: Partial<In<typeof Batch>> = {}): In<typeof Batch> {
  return {
    batchId: 17,
    name: "Monday pickups",
    status: "open",
    quoteCount: 2,
    bookedCount: 0,
    errorCount: 0,
    createdAt: "2026-11-21 09:12:00",
    updatedAt: "2026-11-21 09:15:42",
    processedAt: null,
    ...overrides,
  };
}

export function buildBatchQuoteEntry(overrides: Partial<In<typeof BatchQuoteEntry>> = {}): In<typeof BatchQuoteEntry> {
  return {
    quoteId: 9001,
    carrierCode: "parcel",
    serviceCode: "ground",
    packageTypeCode: "custom",
    totalAmount: "14.75",
    currency: "USD",
    status: "active",
    bookNumber: null,
    trackingNumber: null,
    bookingError: null,
    createdAt: "2026-11-21 09:10:00",
    expiresAt: "2026-12-21 09:10:00",
    ...overrides,
  };
}

/** A search result as the service sends it, with the `shipperReference` spelling. */
export function buildBookedShipment(overrides: Partial<In<typeof BookedShipment>> = {}): In<typeof BookedShipment> {
  return {
    bookNumber: "BK-000123",
    trackingNumber: "1Z999AA10123456784",
    trackingNumbers: ["1Z999AA10123456784"],
    voided: false,
    carrierCode: "parcel",
    serviceCode: "ground",
    packageTypeCode: "custom",
    shipmentDate: "2026-11-23",
    shipperReference: "#1042",
    shipperReference2: "",
    contentDescription: "Candles",
    sender: {
      name: "Ada Moreno",
      company: "Northwind Candles",
      address1: "500 Market St",
      address2: "",
      city: "San Francisco",
      state: "CA",
      zip: "94105",
      country: "US",
    },
    receiver: { name: "Jordan Blake", company: "", address1: "88 Orchard St", address2: "Apt 3B", city: "New York", state: "NY", zip: "10002", country: "US" },
    residential: true,
    signatureOptionCode: null,
    weightUnit: "lb",
    dimUnit: "in",
    currency: "USD",
    pieces: [{ weight: "2.5", length: "12", width: "9", height: "4", insuranceAmount: null, declaredValue: null }],
    fulfillment: {
      orderId: "1042",
      integrationId: "shopify",
      items: [{ productId: "p-8", sku: "CNDL-LAV-8", lineId: "li-1", quantity: 2 }],
    },
    totalShippingCost: "14.75",
    orderIds: ["1042"],
    ...overrides,
  };
}

export function buildPackageType(overrides: Partial<In<typeof PackageType>> = {}): In<typeof PackageType> {
  return {
    packageTypeCode: "custom",
    packageTypeLabel: "Your packaging",
    multipieceSupported: true,
    weightUnit: "lb",
    maxWeightPerPiece: "150.00",
    dimType: "custom",
    dimUnit: null,
    presetLength: null,
    presetWidth: null,
    presetHeight: null,
    ...overrides,
  };
}

export function buildService(overrides: Partial<In<typeof Service>> = {}): In<typeof Service> {
  return {
    carrierCode: "parcel",
    carrierLabel: "Parcel Co",
    serviceCode: "ground",
    serviceLabel: "Ground",
    inbound: false,
    supportedCountries: ["US"],
    unsupportedCountries: null,
    signatureOptions: [{ signatureOptionCode: "adult", signatureOptionLabel: "Adult signature" }],
    supportedDangerousGoodsCodes: null,
    packageTypes: [
      buildPackageType(),
      buildPackageType({
        packageTypeCode: "flat_rate_box",
        packageTypeLabel: "Flat rate box",
        multipieceSupported: false,
        maxWeightPerPiece: "70.00",
        dimType: "preset",
        dimUnit: "in",
        presetLength: "11.25",
        presetWidth: 8.75,
        presetHeight: "6",
      }),
    ],
    ...overrides,
  };
}

export function buildTrackingEvent(overrides: Partial<In<typeof TrackingEvent>> = {}): In<typeof TrackingEvent> {
  return {
    trackingNumber: "1Z999AA10123456784",
    carrier: "parcel",
    event: "Arrived at facility",
    eventStatus: "In Transit",
    eventTime: "2026-11-24 06:41:10",
    serviceArea: "Secaucus NJ",
    serviceAreaCountry: "US",
    ancillaryReasonDescription: null,
    ancillaryActionDescription: null,
    ...overrides,
  };
}

export function buildCustomerAddress(overrides: Partial<In<typeof CustomerAddress>> = {}): In<typeof CustomerAddress> {
  const { email: _email, zip, ...address } = buildAddress();
  return { ...address, zip: zip ?? "", ...overrides };
}

export function buildCreateCustomer(overrides: Partial<In<typeof CreateCustomerRequest>> = {}): In<typeof CreateCustomerRequest> {
  return {
    profileCode: "Default",
    email: "owner@northwind-candles.test",
    password: "correct horse battery staple",
    franchiseId: "SF1",
    mailingAddress: buildCustomerAddress(),
    billingAddress: buildCustomerAddress({ address2: "Accounts payable" }),
    prepaySettings: { minimumBalance: "50.00", rechargeAmount: 200 },
    salesRep: "",
    industry: "home_kitchen",
    utm: { source: "shopify", medium: "app_store", campaign: "launch" },
    monthlyVolume: "100-500",
    ...overrides,
  };
}
