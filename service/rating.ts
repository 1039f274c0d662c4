import { type Carrier, type Catalog, HOME_COUNTRY, type PackageType, type Service, ZONE_FACTORS_PERCENT, serviceAcceptsCountry } from "./catalog";
import type { ErrorCategoryName } from "./errors";
import { COUNTRIES_WITH_STATE_CODES, type Currency, IsoDate } from "../shipping-api/contract";
import { convertCents, isCurrency, parseNonNegativeCents, roundHalfAwayFromZero } from "./money";
import { domesticZone, internationalZone, isRemoteArea } from "./zones";

/**
 * Rating: deterministic and explainable (the rules are restated in service/README.md).
 *
 * Every amount is computed in USD cents, then each component (base and each surcharge) is converted
 * to the requested currency on its own, so `total = base + Σ surcharges` holds exactly after conversion.
 */

export interface AddressInput {
  name?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country: string;
  phone?: string | null;
  email?: string | null;
}

export interface PieceInput {
  weight: string | number;
  length?: string | number | null;
  width?: string | number | null;
  height?: string | number | null;
  insuranceAmount?: string | number | null;
  declaredValue?: string | number | null;
}

export interface InvoiceInput {
  ftrNumber?: string | null;
  itnNumber?: string | null;
  aesNumber?: string | null;
  items?: readonly { weight?: string | number | null }[] | null;
}

export interface RatingRequest {
  carrierCode?: string | null;
  serviceCode?: string | null;
  packageTypeCode?: string | null;
  shipmentDate: string;
  sender: AddressInput;
  receiver: AddressInput;
  residential?: boolean | null;
  signatureOptionCode?: string | null;
  weightUnit: string;
  dimUnit?: string | null;
  currency: string;
  pieces: readonly PieceInput[];
  commercialInvoice?: InvoiceInput | null;
  /** Book Shipment extras. */
  saturdayDelivery?: boolean | null;
  postalExpressAmDelivery?: boolean | null;
}

export interface Surcharge {
  description: string;
  amountCents: number;
}

export interface RatedQuote {
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string;
  packageTypeCode: string;
  currency: Currency;
  baseCents: number;
  surcharges: Surcharge[];
  totalCents: number;
  zone: string;
  quotedWeight: string;
  quotedWeightType: "Actual" | "Dimensional";
  transitDays: number;
}

export interface QuoteFailure {
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string;
  packageTypeCode: string;
  error: string;
  errorCategory: ErrorCategoryName;
}

export type RatingResult =
  { status: "success"; quotes: RatedQuote[]; quoteErrors: QuoteFailure[] } | { status: "error"; error: string; errorCategory: ErrorCategoryName };

export interface RatingOptions {
  /** Restricts quoting to one carrier (a provider account was named in the request). */
  onlyCarrierCode?: string;
}

const GRAMS_PER: Record<string, number> = { lb: 453.59237, oz: 28.349523125, kg: 1000, g: 1 };
const CM_PER: Record<string, number> = { in: 2.54, cm: 1 };
/** Dimensional divisors: 139 in³ per lb, 5000 cm³ per kg. */
const DIM_DIVISOR_IN3_PER_LB = 139;
const DIM_DIVISOR_CM3_PER_KG = 5000;
/** Postal carriers only bill dimensional weight above one cubic foot. */
const POSTAL_DIM_THRESHOLD_IN3 = 1728;
const SATURDAY_DELIVERY_CENTS = 2000;
const AM_DELIVERY_CENTS = 500;
/** Float noise tolerance when rounding weights up (16 oz must be exactly 1 lb). */
const EPSILON = 1e-9;
/** Longest side any carrier here takes (about 118 in); also keeps every price a safe integer of cents. */
export const MAX_SIDE_CM = 300;
/** Largest insured or declared value per piece, in the request's currency. */
export const MAX_VALUE_CENTS = 100_000_000;

interface ParsedPiece {
  grams: number;
  /** Centimetres, or null when the piece has no dimensions (preset or envelope packaging). */
  dimsCm: readonly [number, number, number] | null;
  insuranceCents: number;
}

interface ParsedShipment {
  pieces: ParsedPiece[];
  currency: Currency;
  international: boolean;
  insuranceCents: number;
  saturday: boolean;
}

class ShipmentInvalid extends Error {}

function positiveNumber(value: string | number | null | undefined, field: string): number {
  const number = typeof value === "number" ? value : typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number) || number <= 0) throw new ShipmentInvalid(`${field} must be a positive number, got ${JSON.stringify(value ?? null)}`);
  return number;
}

function money(value: string | number | null | undefined, field: string): number {
  if (value === null || value === undefined) return 0;
  const cents = parseNonNegativeCents(value);
  if (cents === null || cents > MAX_VALUE_CENTS) {
    throw new ShipmentInvalid(`${field} must be a decimal from 0 to ${MAX_VALUE_CENTS / 100}, got ${JSON.stringify(value)}`);
  }
  return cents;
}

function checkAddress(address: AddressInput, role: string): void {
  const country = address.country;
  if (!/^[A-Z]{2}$/.test(country)) throw new ShipmentInvalid(`${role}.country must be an ISO two-letter code, got ${JSON.stringify(country)}`);
  if (COUNTRIES_WITH_STATE_CODES.includes(country) && !/^[A-Z]{2}$/.test((address.state ?? "").toUpperCase())) {
    throw new ShipmentInvalid(`${role}.state must be a two-character code for ${country} addresses`);
  }
  const zip = (address.zip ?? "").trim();
  if (country === "US" && !/^\d{5}(-?\d{4})?$/.test(zip))
    throw new ShipmentInvalid(`${role}.zip must be a 5- or 9-digit US ZIP code, got ${JSON.stringify(address.zip ?? null)}`);
  if (country === "CA" && !/^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i.test(zip))
    throw new ShipmentInvalid(`${role}.zip must be a Canadian postal code (A1A 1A1), got ${JSON.stringify(address.zip ?? null)}`);
}

/** Shipment-level checks and unit normalisation, done once per shipment before any service is priced. */
function parseShipment(request: RatingRequest): ParsedShipment {
  if (!IsoDate.safeParse(request.shipmentDate).success)
    throw new ShipmentInvalid(`shipmentDate must be a date YYYY-MM-DD, got ${JSON.stringify(request.shipmentDate)}`);
  checkAddress(request.sender, "sender");
  checkAddress(request.receiver, "receiver");
  const gramsPerUnit = GRAMS_PER[request.weightUnit];
  if (!gramsPerUnit) throw new ShipmentInvalid(`weightUnit must be one of lb, oz, kg, g, got ${JSON.stringify(request.weightUnit)}`);
  if (!isCurrency(request.currency)) throw new ShipmentInvalid(`currency must be one of USD, GBP, CAD, EUR, got ${JSON.stringify(request.currency)}`);
  if (request.sender.country === "US" && request.currency !== "USD") throw new ShipmentInvalid(`currency must be USD for US shippers, got ${request.currency}`);
  if (request.pieces.length === 0) throw new ShipmentInvalid("pieces must contain at least one piece");
  const international = request.sender.country !== request.receiver.country;
  const cmPerUnit = request.dimUnit ? CM_PER[request.dimUnit] : undefined;
  if (request.dimUnit && !cmPerUnit) throw new ShipmentInvalid(`dimUnit must be in, cm or null, got ${JSON.stringify(request.dimUnit)}`);

  const pieces = request.pieces.map((piece, index): ParsedPiece => {
    const at = `pieces[${index}]`;
    const grams = positiveNumber(piece.weight, `${at}.weight`) * gramsPerUnit;
    const dims = [piece.length, piece.width, piece.height];
    const given = dims.filter((value) => value !== null && value !== undefined).length;
    if (given !== 0 && given !== 3) throw new ShipmentInvalid(`${at}: length, width and height must all be given or all be null`);
    let dimsCm: ParsedPiece["dimsCm"] = null;
    if (given === 3) {
      if (!cmPerUnit) throw new ShipmentInvalid(`dimUnit is required when ${at} has dimensions`);
      const [length, width, height] = dims.map((value, axis) => {
        const field = `${at}.${["length", "width", "height"][axis]}`;
        const cm = positiveNumber(value, field) * cmPerUnit;
        if (cm > MAX_SIDE_CM + EPSILON)
          throw new ShipmentInvalid(`${field} is ${value} ${request.dimUnit}, above the ${MAX_SIDE_CM} cm (118 in) longest side any carrier takes`);
        return cm;
      }) as [number, number, number];
      dimsCm = [length, width, height];
    }
    if (!international && piece.declaredValue !== null && piece.declaredValue !== undefined) {
      throw new ShipmentInvalid(`${at}.declaredValue must be null for domestic shipments`);
    }
    money(piece.declaredValue, `${at}.declaredValue`);
    return { grams, dimsCm, insuranceCents: money(piece.insuranceAmount, `${at}.insuranceAmount`) };
  });

  const invoice = request.commercialInvoice;
  if (invoice) {
    if (invoice.aesNumber !== null && invoice.aesNumber !== undefined) throw new ShipmentInvalid("commercialInvoice.aesNumber must currently be null");
    if (invoice.ftrNumber && invoice.itnNumber) throw new ShipmentInvalid("commercialInvoice.ftrNumber must be null when itnNumber is present");
    // Rule 3 of Batch Quote: the invoice's item weights cannot exceed what is in the packages.
    const itemGrams = (invoice.items ?? []).reduce((sum, item, index) => {
      if (item.weight === null || item.weight === undefined || item.weight === "") return sum;
      return sum + positiveNumber(item.weight, `commercialInvoice.items[${index}].weight`) * gramsPerUnit;
    }, 0);
    const packageGrams = pieces.reduce((sum, piece) => sum + piece.grams, 0);
    if (itemGrams > packageGrams + EPSILON) {
      throw new ShipmentInvalid(
        `commercialInvoice item weights total ${formatWeight(itemGrams / gramsPerUnit)} ${request.weightUnit}, more than the package weight ${formatWeight(packageGrams / gramsPerUnit)} ${request.weightUnit}`,
      );
    }
  }
  const saturday = new Date(`${request.shipmentDate}T00:00:00Z`).getUTCDay() === 6;
  return { pieces, currency: request.currency, international, insuranceCents: pieces.reduce((sum, piece) => sum + piece.insuranceCents, 0), saturday };
}

function formatWeight(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** Rounds a weight up to the carrier's billing step: whole pounds, or half kilograms. */
function billableSteps(weight: number, unit: "lb" | "kg"): number {
  const perStep = unit === "lb" ? 1 : 0.5;
  return Math.max(1, Math.ceil(weight / perStep - EPSILON));
}

interface BilledWeight {
  steps: number;
  type: "Actual" | "Dimensional";
}

function billedWeight(carrier: Carrier, packageType: PackageType, pieces: readonly ParsedPiece[]): BilledWeight {
  const unit = packageType.weightUnit;
  let steps = 0;
  let dimensional = false;
  for (const piece of pieces) {
    const actual = billableSteps(pieceWeightIn(unit, piece), unit);
    let dimSteps = 0;
    const dims =
      packageType.dimType === "preset" && packageType.preset
        ? ([packageType.preset.length, packageType.preset.width, packageType.preset.height].map((value) => value * CM_PER[packageType.preset!.unit]!) as [
            number,
            number,
            number,
          ])
        : packageType.dimType === "custom"
          ? piece.dimsCm
          : null;
    if (dims) {
      const cm3 = dims[0] * dims[1] * dims[2];
      const in3 = cm3 / 2.54 ** 3;
      const applies = carrier.kind !== "postal" || in3 > POSTAL_DIM_THRESHOLD_IN3;
      if (applies) dimSteps = billableSteps(unit === "lb" ? in3 / DIM_DIVISOR_IN3_PER_LB : cm3 / DIM_DIVISOR_CM3_PER_KG, unit);
    }
    if (dimSteps > actual) dimensional = true;
    steps += Math.max(actual, dimSteps);
  }
  return { steps, type: dimensional ? "Dimensional" : "Actual" };
}

function stepsToWeight(steps: number, unit: "lb" | "kg"): string {
  return unit === "lb" ? String(steps) : String(steps / 2);
}

export interface ServiceRoute {
  zone: string;
  transitDays: number;
}

/** Whether the service serves this lane, and its zone; a reason otherwise. */
export function routeFor(
  entry: Service,
  request: Pick<RatingRequest, "sender" | "receiver">,
): ServiceRoute | { unavailable: string; category: ErrorCategoryName } {
  const from = request.sender.country;
  const to = request.receiver.country;
  const home = entry.inbound ? to : from;
  const foreign = entry.inbound ? from : to;
  if (home !== HOME_COUNTRY)
    return { unavailable: `${entry.serviceLabel} ${entry.inbound ? "delivers to" : "ships from"} ${HOME_COUNTRY} only`, category: "COUNTRY_NOT_SUPPORTED" };
  if (!serviceAcceptsCountry(entry, foreign)) {
    return { unavailable: `${entry.serviceLabel} does not ${entry.inbound ? "pick up in" : "deliver to"} ${foreign}`, category: "COUNTRY_NOT_SUPPORTED" };
  }
  if (entry.international !== (from !== to)) {
    return { unavailable: `${entry.serviceLabel} is ${entry.international ? "international" : "domestic"} only`, category: "SERVICE_UNAVAILABLE" };
  }
  const zone = entry.international ? internationalZone(foreign) : domesticZone(request.sender.zip, request.receiver.zip);
  if (!zone) return { unavailable: "sender and receiver ZIP codes are needed for domestic zones", category: "INVALID_REQUEST" };
  return { zone, transitDays: entry.transitDays[zone] ?? Math.max(...Object.values(entry.transitDays)) };
}

/** The package type to quote when the request names none: custom when dimensions are given, else the first envelope/preset that takes the weight. */
function choosePackageType(entry: Service, shipment: ParsedShipment): PackageType | { failure: string } {
  const hasDims = shipment.pieces.every((piece) => piece.dimsCm !== null);
  if (hasDims) {
    const customType = entry.packageTypes.find((type) => type.dimType === "custom");
    if (customType) return customType;
  }
  const fitting = entry.packageTypes.find(
    (type) => type.dimType !== "custom" && fitsWeight(type, shipment.pieces) && (shipment.pieces.length === 1 || type.multipieceSupported),
  );
  if (fitting) return fitting;
  return {
    failure: hasDims
      ? `${entry.serviceLabel} has no packaging for these pieces`
      : `${entry.serviceLabel} needs piece dimensions (length, width, height) for its custom packaging`,
  };
}

function pieceWeightIn(unit: "lb" | "kg", piece: ParsedPiece): number {
  return unit === "lb" ? piece.grams / GRAMS_PER.lb! : piece.grams / 1000;
}

function fitsWeight(type: PackageType, pieces: readonly ParsedPiece[]): boolean {
  return pieces.every((piece) => pieceWeightIn(type.weightUnit, piece) <= type.maxWeightPerPiece + EPSILON);
}

function priceService(
  catalog: Catalog,
  entry: Service,
  packageType: PackageType,
  route: ServiceRoute,
  request: RatingRequest,
  shipment: ParsedShipment,
): RatedQuote | Omit<QuoteFailure, "carrierCode" | "serviceCode" | "serviceDescription" | "packageTypeCode"> {
  const carrier = catalog.carrier(entry.carrierCode)!;
  if (shipment.pieces.length > 1 && !packageType.multipieceSupported) {
    return { error: `${packageType.packageTypeLabel} does not support multi-piece shipments`, errorCategory: "INVALID_REQUEST" };
  }
  const heavy = shipment.pieces.findIndex((piece) => pieceWeightIn(packageType.weightUnit, piece) > packageType.maxWeightPerPiece + EPSILON);
  if (heavy !== -1) {
    const weight = formatWeight(pieceWeightIn(packageType.weightUnit, shipment.pieces[heavy]!));
    return {
      error: `pieces[${heavy}] weighs ${weight} ${packageType.weightUnit}, above the ${packageType.maxWeightPerPiece} ${packageType.weightUnit} maximum per piece for ${packageType.packageTypeLabel}`,
      errorCategory: "WEIGHT_LIMIT_EXCEEDED",
    };
  }
  if (packageType.dimType === "custom" && shipment.pieces.some((piece) => piece.dimsCm === null)) {
    return { error: `${packageType.packageTypeLabel} needs length, width and height for every piece`, errorCategory: "INVALID_REQUEST" };
  }
  const signature = request.signatureOptionCode ? entry.signatureOptions.find((option) => option.signatureOptionCode === request.signatureOptionCode) : null;
  if (request.signatureOptionCode && !signature) {
    return { error: `${entry.serviceLabel} does not offer signature option ${request.signatureOptionCode}`, errorCategory: "INVALID_REQUEST" };
  }
  if (request.saturdayDelivery && !entry.saturdayDelivery)
    return { error: `${entry.serviceLabel} does not deliver on Saturdays`, errorCategory: "INVALID_REQUEST" };
  if (request.postalExpressAmDelivery && !entry.amDelivery)
    return { error: `${entry.serviceLabel} does not offer 10:30 AM delivery`, errorCategory: "INVALID_REQUEST" };

  const weight = billedWeight(carrier, packageType, shipment.pieces);
  const zoneFactor = ZONE_FACTORS_PERCENT[route.zone] ?? 100;
  const baseUsd = roundHalfAwayFromZero(((entry.firstUnitCents + entry.additionalUnitCents * (weight.steps - 1)) * zoneFactor) / 100);

  const usdSurcharges: Surcharge[] = [];
  if (carrier.fuelBasisPoints > 0) {
    usdSurcharges.push({
      description: `Fuel surcharge (${(carrier.fuelBasisPoints / 100).toFixed(2)}%)`,
      amountCents: roundHalfAwayFromZero((baseUsd * carrier.fuelBasisPoints) / 10_000),
    });
  }
  if (request.residential && carrier.residentialCents > 0) usdSurcharges.push({ description: "Residential delivery", amountCents: carrier.residentialCents });
  if (signature) usdSurcharges.push({ description: signature.signatureOptionLabel, amountCents: signature.feeCents });
  if (shipment.insuranceCents > 0) {
    const insuredUsd = convertCents(shipment.insuranceCents, shipment.currency, "USD");
    const hundreds = Math.ceil(insuredUsd / 10_000);
    usdSurcharges.push({ description: `Insurance (${hundreds} × 100 USD declared)`, amountCents: hundreds * carrier.insurancePer100Cents });
  }
  if (shipment.saturday && carrier.saturdayPickupCents !== null)
    usdSurcharges.push({ description: "Saturday pickup", amountCents: carrier.saturdayPickupCents });
  if (request.saturdayDelivery) usdSurcharges.push({ description: "Saturday delivery", amountCents: SATURDAY_DELIVERY_CENTS });
  if (request.postalExpressAmDelivery) usdSurcharges.push({ description: "10:30 AM delivery", amountCents: AM_DELIVERY_CENTS });
  const remoteAddress = entry.inbound ? request.sender : request.receiver;
  if (carrier.remoteAreaCents > 0 && isRemoteArea(remoteAddress.country, remoteAddress.zip)) {
    usdSurcharges.push({ description: "Remote area", amountCents: carrier.remoteAreaCents });
  }

  const currency = shipment.currency;
  const baseCents = convertCents(baseUsd, "USD", currency);
  const surcharges = usdSurcharges.map((charge) => ({ description: charge.description, amountCents: convertCents(charge.amountCents, "USD", currency) }));
  return {
    carrierCode: entry.carrierCode,
    serviceCode: entry.serviceCode,
    serviceDescription: entry.serviceLabel,
    packageTypeCode: packageType.packageTypeCode,
    currency,
    baseCents,
    surcharges,
    totalCents: baseCents + surcharges.reduce((sum, charge) => sum + charge.amountCents, 0),
    zone: route.zone,
    quotedWeight: stepsToWeight(weight.steps, packageType.weightUnit),
    quotedWeightType: weight.type,
    transitDays: route.transitDays,
  };
}

/**
 * Quotes one shipment. With a serviceCode: exactly one quote, or an error naming why. Without: one
 * quote per service that serves the lane, failures in quoteErrors. No quote at all → status error.
 */
export function rateShipment(catalog: Catalog, request: RatingRequest, options: RatingOptions = {}): RatingResult {
  let shipment: ParsedShipment;
  try {
    shipment = parseShipment(request);
  } catch (error) {
    if (error instanceof ShipmentInvalid) return { status: "error", error: error.message, errorCategory: "INVALID_REQUEST" };
    throw error;
  }
  const carrierCode = request.carrierCode || null;
  const serviceCode = request.serviceCode || null;
  const packageTypeCode = request.packageTypeCode || null;
  if (carrierCode && !catalog.carrier(carrierCode)) return { status: "error", error: `Unknown carrierCode ${carrierCode}`, errorCategory: "INVALID_REQUEST" };
  if (options.onlyCarrierCode && carrierCode && carrierCode !== options.onlyCarrierCode) {
    return { status: "error", error: `providerAccountId belongs to carrier ${options.onlyCarrierCode}, not ${carrierCode}`, errorCategory: "INVALID_REQUEST" };
  }
  const named = serviceCode ? catalog.service(serviceCode) : undefined;
  if (serviceCode && !named) return { status: "error", error: `Unknown serviceCode ${serviceCode}`, errorCategory: "INVALID_REQUEST" };
  if (named && carrierCode && named.carrierCode !== carrierCode)
    return { status: "error", error: `Service ${serviceCode} is not a service of carrier ${carrierCode}`, errorCategory: "INVALID_REQUEST" };
  if (packageTypeCode && !catalog.packageTypeKnown(packageTypeCode))
    return { status: "error", error: `Unknown packageTypeCode ${packageTypeCode}`, errorCategory: "INVALID_REQUEST" };

  const onlyCarrier = carrierCode ?? options.onlyCarrierCode ?? null;
  const candidates = named ? [named] : catalog.services.filter((entry) => !onlyCarrier || entry.carrierCode === onlyCarrier);
  const quotes: RatedQuote[] = [];
  const quoteErrors: QuoteFailure[] = [];
  for (const entry of candidates) {
    // A domestic return service serves the same lane as an outbound one; it is only quoted when asked for.
    if (!named && entry.inbound && !entry.international) continue;
    const explicitPackage = packageTypeCode ? entry.packageTypes.find((type) => type.packageTypeCode === packageTypeCode) : undefined;
    if (packageTypeCode && !explicitPackage) {
      if (named) quoteErrors.push(failure(entry, packageTypeCode, `${entry.serviceLabel} does not offer package type ${packageTypeCode}`, "INVALID_REQUEST"));
      continue;
    }
    const route = routeFor(entry, request);
    if ("unavailable" in route) {
      // Services that do not serve the lane are "not available", not failures, unless asked for by name.
      if (named) quoteErrors.push(failure(entry, packageTypeCode ?? "", route.unavailable, route.category));
      continue;
    }
    const packageType = explicitPackage ?? choosePackageType(entry, shipment);
    if ("failure" in packageType) {
      quoteErrors.push(failure(entry, "", packageType.failure, "INVALID_REQUEST"));
      continue;
    }
    const priced = priceService(catalog, entry, packageType, route, request, shipment);
    if ("error" in priced) quoteErrors.push(failure(entry, packageType.packageTypeCode, priced.error, priced.errorCategory));
    else quotes.push(priced);
  }
  if (quotes.length === 0) {
    const first = quoteErrors[0];
    if (!first) {
      return {
        status: "error",
        error: `No service is available from ${request.sender.country} to ${request.receiver.country} for this request`,
        errorCategory: "SERVICE_UNAVAILABLE",
      };
    }
    const reasons = [...new Set(quoteErrors.map((entry) => `${entry.serviceCode}: ${entry.error}`))].join("; ");
    return { status: "error", error: `No service could quote this shipment (${reasons})`, errorCategory: first.errorCategory };
  }
  return { status: "success", quotes, quoteErrors };
}

function failure(entry: Service, packageTypeCode: string, error: string, errorCategory: ErrorCategoryName): QuoteFailure {
  return { carrierCode: entry.carrierCode, serviceCode: entry.serviceCode, serviceDescription: entry.serviceLabel, packageTypeCode, error, errorCategory };
}
