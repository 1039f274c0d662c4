import type { DimType, LabelImageFormat, RecordWeightUnit } from "../shipping-api/contract";

/**
 * The service's carrier catalog: four invented but plausible carriers, one of each kind the interface
 * names (postal, parcel, express, consolidator/e-commerce), with their services, package types,
 * signature options and the pricing and transit tables rating uses. Data only; rules live in rating.ts.
 */
export type CarrierKind = "postal" | "parcel" | "express" | "consolidator";

export interface Carrier {
  carrierCode: string;
  carrierLabel: string;
  kind: CarrierKind;
  /** Provider code of the customer's provider account for this carrier, and its account field names. */
  providerCode: string;
  providerFields: readonly string[];
  fuelBasisPoints: number;
  residentialCents: number;
  /** Per 100 (or part of 100) of insured value, in USD. */
  insurancePer100Cents: number;
  remoteAreaCents: number;
  /** Null: no Saturday pickup surcharge (the carrier works Saturdays at no extra cost). */
  saturdayPickupCents: number | null;
  labelFormats: readonly LabelImageFormat[];
  /** FedEx-kind carriers report ancillary reason/action details on tracking exceptions. */
  trackingAncillary: boolean;
}

export interface PackageType {
  packageTypeCode: string;
  packageTypeLabel: string;
  multipieceSupported: boolean;
  weightUnit: RecordWeightUnit;
  maxWeightPerPiece: number;
  dimType: DimType;
  /** Only for preset package types. */
  preset: { unit: "in" | "cm"; length: number; width: number; height: number } | null;
}

export interface SignatureOption {
  signatureOptionCode: string;
  signatureOptionLabel: string;
  feeCents: number;
}

export interface Service {
  carrierCode: string;
  serviceCode: string;
  serviceLabel: string;
  inbound: boolean;
  /** International services cross the home-country border; domestic ones stay inside it. */
  international: boolean;
  supportedCountries: readonly string[] | null;
  unsupportedCountries: readonly string[] | null;
  signatureOptions: readonly SignatureOption[];
  supportedDangerousGoodsCodes: string | null;
  packageTypes: readonly PackageType[];
  /** Price of the first billable weight unit and of each further unit, in USD cents, before zone factor. */
  firstUnitCents: number;
  additionalUnitCents: number;
  /** Transit business days per zone (domestic "1".."8", international "A".."D"). */
  transitDays: Readonly<Record<string, number>>;
  saturdayDelivery: boolean;
  amDelivery: boolean;
  scanBasedReturn: boolean;
  /** Postal multi-piece shipments get a tracking number and cost per piece in Book Shipment. */
  perPieceTracking: boolean;
}

export const HOME_COUNTRY = "US";

/** Countries no carrier here serves (embargoed), plus the home country for international services. */
const EMBARGOED = ["CU", "IR", "KP", "SY"] as const;
const INTERNATIONAL_UNSUPPORTED = [HOME_COUNTRY, ...EMBARGOED];

export const CARRIERS: readonly Carrier[] = [
  {
    carrierCode: "NPS",
    carrierLabel: "National Postal Service",
    kind: "postal",
    providerCode: "nps",
    providerFields: ["accountNumber", "mailerId", "apiKey"],
    fuelBasisPoints: 0,
    residentialCents: 0,
    insurancePer100Cents: 285,
    remoteAreaCents: 0,
    saturdayPickupCents: null,
    labelFormats: ["PDF", "ZPL"],
    trackingAncillary: false,
  },
  {
    carrierCode: "BLP",
    carrierLabel: "Brownline Parcel",
    kind: "parcel",
    providerCode: "brownline",
    providerFields: ["accountNumber", "userId", "password", "accessLicenceNumber"],
    fuelBasisPoints: 1450,
    residentialCents: 545,
    insurancePer100Cents: 135,
    remoteAreaCents: 1250,
    saturdayPickupCents: 1600,
    labelFormats: ["PDF", "ZPL", "EPL2"],
    trackingAncillary: false,
  },
  {
    carrierCode: "MRX",
    carrierLabel: "Meridian Express",
    kind: "express",
    providerCode: "meridian",
    providerFields: ["accountNumber", "key", "password", "meterNumber"],
    fuelBasisPoints: 1625,
    residentialCents: 580,
    insurancePer100Cents: 140,
    remoteAreaCents: 1400,
    saturdayPickupCents: 1800,
    labelFormats: ["PDF", "ZPL"],
    trackingAncillary: true,
  },
  {
    carrierCode: "GPC",
    carrierLabel: "Globe Parcel Consolidators",
    kind: "consolidator",
    providerCode: "globeparcel",
    providerFields: ["accountNumber", "clientId", "clientSecret"],
    fuelBasisPoints: 800,
    residentialCents: 0,
    insurancePer100Cents: 100,
    remoteAreaCents: 500,
    saturdayPickupCents: null,
    labelFormats: ["PDF", "PNG"],
    trackingAncillary: false,
  },
];

function custom(code: string, label: string, unit: RecordWeightUnit, max: number, multipiece: boolean): PackageType {
  return {
    packageTypeCode: code,
    packageTypeLabel: label,
    multipieceSupported: multipiece,
    weightUnit: unit,
    maxWeightPerPiece: max,
    dimType: "custom",
    preset: null,
  };
}
function envelope(code: string, label: string, unit: RecordWeightUnit, max: number): PackageType {
  return {
    packageTypeCode: code,
    packageTypeLabel: label,
    multipieceSupported: false,
    weightUnit: unit,
    maxWeightPerPiece: max,
    dimType: "envelope",
    preset: null,
  };
}
function preset(code: string, label: string, max: number, length: number, width: number, height: number): PackageType {
  return {
    packageTypeCode: code,
    packageTypeLabel: label,
    multipieceSupported: false,
    weightUnit: "lb",
    maxWeightPerPiece: max,
    dimType: "preset",
    preset: { unit: "in", length, width, height },
  };
}

const NPS_PACKAGE = custom("NPS_PACKAGE", "Package", "lb", 70, true);
const NPS_ENVELOPE = envelope("NPS_FLAT_RATE_ENVELOPE", "Flat Rate Envelope", "lb", 4);
const NPS_BOX_SMALL = preset("NPS_FLAT_RATE_BOX_SMALL", "Small Flat Rate Box", 70, 8.625, 5.375, 1.625);
const NPS_BOX_MEDIUM = preset("NPS_FLAT_RATE_BOX_MEDIUM", "Medium Flat Rate Box", 70, 11, 8.5, 5.5);
const BLP_PACKAGE = custom("BLP_PACKAGE", "Your Packaging", "lb", 150, true);
const BLP_LETTER = envelope("BLP_LETTER", "Express Letter", "lb", 1);
const BLP_BOX = preset("BLP_EXPRESS_BOX", "Express Box", 30, 18, 13, 3);
const MRX_PACKAGE = custom("MRX_PACKAGE", "Your Packaging", "lb", 150, true);
const MRX_ENVELOPE = envelope("MRX_ENVELOPE", "Meridian Envelope", "lb", 1);
const MRX_BOX_SMALL = preset("MRX_BOX_SMALL", "Meridian Small Box", 20, 12.375, 10.875, 1.5);
const MRX_BOX_MEDIUM = preset("MRX_BOX_MEDIUM", "Meridian Medium Box", 20, 13.25, 11.5, 2.375);
const GPC_PARCEL = custom("GPC_PARCEL", "Parcel", "lb", 25, false);
const GPC_POLY = envelope("GPC_POLY_MAILER", "Poly Mailer", "lb", 1);
const GPC_INTL_PARCEL = custom("GPC_INTL_PARCEL", "International Parcel", "kg", 20, false);

const NO_SIGNATURE: readonly SignatureOption[] = [];
const NPS_SIGNATURES: readonly SignatureOption[] = [
  { signatureOptionCode: "SIGNATURE", signatureOptionLabel: "Signature Confirmation", feeCents: 365 },
  { signatureOptionCode: "ADULT_SIGNATURE", signatureOptionLabel: "Adult Signature Required", feeCents: 905 },
];
const BLP_SIGNATURES: readonly SignatureOption[] = [
  { signatureOptionCode: "SIGNATURE_REQUIRED", signatureOptionLabel: "Delivery Confirmation Signature Required", feeCents: 620 },
  { signatureOptionCode: "ADULT_SIGNATURE_REQUIRED", signatureOptionLabel: "Delivery Confirmation Adult Signature Required", feeCents: 750 },
];
const MRX_SIGNATURES: readonly SignatureOption[] = [
  { signatureOptionCode: "INDIRECT", signatureOptionLabel: "Indirect Signature Required", feeCents: 660 },
  { signatureOptionCode: "DIRECT", signatureOptionLabel: "Direct Signature Required", feeCents: 760 },
  { signatureOptionCode: "ADULT", signatureOptionLabel: "Adult Signature Required", feeCents: 900 },
];
const GPC_SIGNATURES: readonly SignatureOption[] = [{ signatureOptionCode: "SIGNATURE", signatureOptionLabel: "Signature on Delivery", feeCents: 300 }];

/** Transit tables. Domestic zones 1–8 (distance); international country groups A–D. */
const GROUND_DAYS = { "1": 1, "2": 2, "3": 3, "4": 3, "5": 4, "6": 4, "7": 5, "8": 5 };
const ECONOMY_GROUND_DAYS = { "1": 3, "2": 3, "3": 4, "4": 5, "5": 5, "6": 6, "7": 6, "8": 7 };
const PRIORITY_DAYS = { "1": 1, "2": 1, "3": 2, "4": 2, "5": 2, "6": 3, "7": 3, "8": 3 };
const OVERNIGHT_DAYS = { "1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 2 };
const TWO_DAY_DAYS = { "1": 2, "2": 2, "3": 2, "4": 2, "5": 2, "6": 2, "7": 2, "8": 2 };
const THREE_DAY_DAYS = { "1": 3, "2": 3, "3": 3, "4": 3, "5": 3, "6": 3, "7": 3, "8": 3 };
const INTL_EXPRESS_DAYS = { A: 2, B: 3, C: 3, D: 5 };
const INTL_EXPEDITED_DAYS = { A: 4, B: 5, C: 6, D: 8 };
const INTL_ECONOMY_DAYS = { A: 6, B: 8, C: 10, D: 14 };

/** Countries the parcel carrier's worldwide service reaches (a complete list, unlike the others). */
const BLP_WORLDWIDE_COUNTRIES = ["AU", "BE", "CA", "CH", "DE", "DK", "ES", "FR", "GB", "IE", "IT", "JP", "MX", "NL", "NZ", "SE"];

type ServiceDraft = Omit<
  Service,
  "saturdayDelivery" | "amDelivery" | "scanBasedReturn" | "perPieceTracking" | "supportedDangerousGoodsCodes" | "signatureOptions"
> &
  Partial<Pick<Service, "saturdayDelivery" | "amDelivery" | "scanBasedReturn" | "perPieceTracking" | "supportedDangerousGoodsCodes" | "signatureOptions">>;

function service(draft: ServiceDraft): Service {
  return {
    saturdayDelivery: false,
    amDelivery: false,
    scanBasedReturn: false,
    perPieceTracking: false,
    supportedDangerousGoodsCodes: null,
    signatureOptions: NO_SIGNATURE,
    ...draft,
  };
}

const DOMESTIC = { international: false, supportedCountries: [HOME_COUNTRY], unsupportedCountries: null } as const;
const INTERNATIONAL = { international: true, supportedCountries: null, unsupportedCountries: INTERNATIONAL_UNSUPPORTED } as const;

export const SERVICES: readonly Service[] = [
  service({
    carrierCode: "NPS",
    serviceCode: "NPS_GROUND_ADVANTAGE",
    serviceLabel: "Ground Advantage",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: NPS_SIGNATURES,
    packageTypes: [NPS_PACKAGE],
    firstUnitCents: 560,
    additionalUnitCents: 95,
    transitDays: GROUND_DAYS,
    perPieceTracking: true,
  }),
  service({
    carrierCode: "NPS",
    serviceCode: "NPS_PRIORITY",
    serviceLabel: "Priority Mail",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: NPS_SIGNATURES,
    packageTypes: [NPS_PACKAGE, NPS_ENVELOPE, NPS_BOX_SMALL, NPS_BOX_MEDIUM],
    firstUnitCents: 895,
    additionalUnitCents: 140,
    transitDays: PRIORITY_DAYS,
    perPieceTracking: true,
  }),
  service({
    carrierCode: "NPS",
    serviceCode: "NPS_PRIORITY_EXPRESS",
    serviceLabel: "Priority Mail Express",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: NPS_SIGNATURES,
    packageTypes: [NPS_PACKAGE, NPS_ENVELOPE],
    firstUnitCents: 2850,
    additionalUnitCents: 310,
    transitDays: OVERNIGHT_DAYS,
    amDelivery: true,
    perPieceTracking: true,
  }),
  service({
    carrierCode: "NPS",
    serviceCode: "NPS_PRIORITY_INTL",
    serviceLabel: "Priority Mail International",
    inbound: false,
    ...INTERNATIONAL,
    packageTypes: [NPS_PACKAGE, NPS_ENVELOPE],
    firstUnitCents: 3150,
    additionalUnitCents: 390,
    transitDays: INTL_EXPEDITED_DAYS,
  }),
  service({
    carrierCode: "NPS",
    serviceCode: "NPS_GROUND_RETURN",
    serviceLabel: "Ground Return",
    inbound: true,
    ...DOMESTIC,
    packageTypes: [NPS_PACKAGE],
    firstUnitCents: 610,
    additionalUnitCents: 95,
    transitDays: GROUND_DAYS,
    scanBasedReturn: true,
  }),
  service({
    carrierCode: "BLP",
    serviceCode: "BLP_GROUND",
    serviceLabel: "Ground",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: BLP_SIGNATURES,
    packageTypes: [BLP_PACKAGE],
    firstUnitCents: 1025,
    additionalUnitCents: 115,
    transitDays: GROUND_DAYS,
  }),
  service({
    carrierCode: "BLP",
    serviceCode: "BLP_3_DAY_SELECT",
    serviceLabel: "3 Day Select",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: BLP_SIGNATURES,
    packageTypes: [BLP_PACKAGE, BLP_BOX],
    firstUnitCents: 1890,
    additionalUnitCents: 205,
    transitDays: THREE_DAY_DAYS,
  }),
  service({
    carrierCode: "BLP",
    serviceCode: "BLP_NEXT_DAY_AIR",
    serviceLabel: "Next Day Air",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: BLP_SIGNATURES,
    packageTypes: [BLP_PACKAGE, BLP_LETTER, BLP_BOX],
    firstUnitCents: 3640,
    additionalUnitCents: 420,
    transitDays: OVERNIGHT_DAYS,
    saturdayDelivery: true,
  }),
  service({
    carrierCode: "BLP",
    serviceCode: "BLP_WORLDWIDE_EXPEDITED",
    serviceLabel: "Worldwide Expedited",
    inbound: false,
    international: true,
    supportedCountries: BLP_WORLDWIDE_COUNTRIES,
    unsupportedCountries: null,
    signatureOptions: BLP_SIGNATURES,
    packageTypes: [BLP_PACKAGE, BLP_LETTER],
    firstUnitCents: 5200,
    additionalUnitCents: 560,
    transitDays: INTL_EXPEDITED_DAYS,
  }),
  service({
    carrierCode: "BLP",
    serviceCode: "BLP_GROUND_RETURN",
    serviceLabel: "Ground Return Service",
    inbound: true,
    ...DOMESTIC,
    packageTypes: [BLP_PACKAGE],
    firstUnitCents: 1095,
    additionalUnitCents: 115,
    transitDays: GROUND_DAYS,
  }),
  service({
    carrierCode: "MRX",
    serviceCode: "MRX_PRIORITY_OVERNIGHT",
    serviceLabel: "Priority Overnight",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: MRX_SIGNATURES,
    packageTypes: [MRX_PACKAGE, MRX_ENVELOPE, MRX_BOX_SMALL, MRX_BOX_MEDIUM],
    firstUnitCents: 3980,
    additionalUnitCents: 450,
    transitDays: OVERNIGHT_DAYS,
    saturdayDelivery: true,
  }),
  service({
    carrierCode: "MRX",
    serviceCode: "MRX_2DAY",
    serviceLabel: "2Day",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: MRX_SIGNATURES,
    packageTypes: [MRX_PACKAGE, MRX_ENVELOPE, MRX_BOX_SMALL, MRX_BOX_MEDIUM],
    firstUnitCents: 2210,
    additionalUnitCents: 260,
    transitDays: TWO_DAY_DAYS,
  }),
  service({
    carrierCode: "MRX",
    serviceCode: "MRX_INTERNATIONAL_PRIORITY",
    serviceLabel: "International Priority",
    inbound: false,
    ...INTERNATIONAL,
    signatureOptions: MRX_SIGNATURES,
    packageTypes: [MRX_PACKAGE, MRX_ENVELOPE, MRX_BOX_SMALL],
    firstUnitCents: 6450,
    additionalUnitCents: 720,
    transitDays: INTL_EXPRESS_DAYS,
    saturdayDelivery: true,
  }),
  service({
    carrierCode: "MRX",
    serviceCode: "MRX_INTERNATIONAL_IMPORT",
    serviceLabel: "International Priority Import",
    inbound: true,
    ...INTERNATIONAL,
    signatureOptions: MRX_SIGNATURES,
    packageTypes: [MRX_PACKAGE, MRX_ENVELOPE],
    firstUnitCents: 6890,
    additionalUnitCents: 760,
    transitDays: INTL_EXPRESS_DAYS,
  }),
  service({
    carrierCode: "GPC",
    serviceCode: "GPC_ECOM_GROUND",
    serviceLabel: "eCommerce Ground",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: GPC_SIGNATURES,
    supportedDangerousGoodsCodes: "ORMD,LTD_QTY,UN3481",
    packageTypes: [GPC_PARCEL, GPC_POLY],
    firstUnitCents: 455,
    additionalUnitCents: 70,
    transitDays: ECONOMY_GROUND_DAYS,
  }),
  service({
    carrierCode: "GPC",
    serviceCode: "GPC_ECOM_EXPEDITED",
    serviceLabel: "eCommerce Expedited",
    inbound: false,
    ...DOMESTIC,
    signatureOptions: GPC_SIGNATURES,
    supportedDangerousGoodsCodes: "LTD_QTY",
    packageTypes: [GPC_PARCEL, GPC_POLY],
    firstUnitCents: 640,
    additionalUnitCents: 90,
    transitDays: PRIORITY_DAYS,
  }),
  service({
    carrierCode: "GPC",
    serviceCode: "GPC_INTL_ECONOMY",
    serviceLabel: "International Economy (DDU)",
    inbound: false,
    ...INTERNATIONAL,
    packageTypes: [GPC_INTL_PARCEL],
    firstUnitCents: 1290,
    additionalUnitCents: 410,
    transitDays: INTL_ECONOMY_DAYS,
  }),
];

/** Percent applied to the weight price per zone. */
export const ZONE_FACTORS_PERCENT: Readonly<Record<string, number>> = {
  "1": 100,
  "2": 105,
  "3": 112,
  "4": 125,
  "5": 140,
  "6": 160,
  "7": 180,
  "8": 200,
  A: 100,
  B: 140,
  C: 165,
  D: 190,
};

/** Indexed look-ups, built once: rating runs thousands of times per request. */
export interface Catalog {
  carriers: readonly Carrier[];
  services: readonly Service[];
  carrier(code: string): Carrier | undefined;
  service(code: string): Service | undefined;
  packageTypeKnown(code: string): boolean;
}

export function createCatalog(carriers: readonly Carrier[] = CARRIERS, services: readonly Service[] = SERVICES): Catalog {
  const carrierByCode = new Map(carriers.map((carrier) => [carrier.carrierCode, carrier]));
  const serviceByCode = new Map(services.map((entry) => [entry.serviceCode, entry]));
  const packageCodes = new Set(services.flatMap((entry) => entry.packageTypes.map((type) => type.packageTypeCode)));
  return {
    carriers,
    services,
    carrier: (code) => carrierByCode.get(code),
    service: (code) => serviceByCode.get(code),
    packageTypeKnown: (code) => packageCodes.has(code),
  };
}

/** The country rule of List Services: exactly one of the two lists, inverted meaning for inbound. */
export function serviceAcceptsCountry(entry: Service, country: string): boolean {
  if (entry.supportedCountries) return entry.supportedCountries.includes(country);
  return !(entry.unsupportedCountries ?? []).includes(country);
}
