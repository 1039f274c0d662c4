import type {
  Address,
  BatchQuoteShipment,
  CommercialInvoice,
  CommercialInvoiceItem,
  DimUnit,
  LineItem,
  Service,
  TermsOfTrade,
  WeightUnit,
} from "../../shipping-api/contract";
import { COUNTRIES_WITH_STATE_CODES, Currency } from "../../shipping-api/contract";
import type { Outcome } from "../outcome";
import type { FulfillmentOrderForShipping, FulfillmentOrderLine, OrderAddress, OrderForShipping } from "./types";
import { formatWeight, toNanograms, weightIn } from "./weights";
import { addressProblems } from "./address-checks";
import { countryName } from "../locale/places";
import { presetOf, withPresetCustoms, type PresetBox, type PresetLookup } from "./product-presets";

/**
 * Order → quote request, pure (no I/O, table-tested). One shipment per shippable fulfillment order (a
 * fulfillment can only cover fulfillment orders of one location), or the reasons the order cannot be
 * quoted, found before any call to the Shipping API.
 */

export type BoxPreset =
  | { kind: "custom"; name: string; length: string; width: string; height: string; dimUnit: DimUnit }
  | { kind: "preset"; name: string; carrierCode: string; packageTypeCode: string };

export interface MappingSettings {
  sender: Address;
  /** Added to every package: the box, fill and tape. */
  packagingWeight: { value: number; unit: WeightUnit };
  box: BoxPreset;
  /** The unit shipments are quoted in (the shop's unit, normally). */
  weightUnit: WeightUnit;
  termsOfTrade: TermsOfTrade;
  /** `auto`: residential unless the address has a company. */
  residential: "auto" | "residential" | "commercial";
  signatureOptionCode: string | null;
  /** Insure each package for the value of its goods. */
  insure: boolean;
  senderVatTaxId: string;
  /** Services the merchant quotes with (from List Services, already filtered by the merchant's choice). */
  enabledServices: readonly Service[];
  /** YYYY-MM-DD */
  shipmentDate: string;
  /** Every Settings box, for product presets that name one (`box` is the default among them). */
  boxes?: readonly BoxPreset[];
  /** Product presets: a box used over `box`, customs details used where Shopify has none. */
  presets?: PresetLookup;
  /** What shipping rules changed in this order's request, said on its shipments; `boxByRule`: a rule chose `box`, presets choose none. */
  rulesNote?: string | null;
  boxByRule?: boolean;
}

export type MappingIssueCode =
  | "NO_SHIPPING_ADDRESS"
  | "INCOMPLETE_ADDRESS"
  | "INVALID_ADDRESS"
  | "NOTHING_TO_SHIP"
  | "ON_HOLD"
  | "FULFILLMENT_SERVICE"
  | "NOT_SHIPPED"
  | "ZERO_WEIGHT"
  | "MISSING_HS_CODE"
  | "MISSING_ORIGIN"
  | "UNSUPPORTED_CURRENCY"
  | "NO_SERVICE_FOR_DESTINATION"
  | "OVER_MAX_WEIGHT";

export interface MappingIssue {
  code: MappingIssueCode;
  /** In words a merchant understands, with what to do next. */
  message: string;
}

export interface MappedShipment {
  orderId: string;
  fulfillmentOrderId: string;
  /** Lines and quantities this shipment covers: what fulfillmentCreate will send. */
  lines: Array<{ fulfillmentOrderLineItemId: string; quantity: number }>;
  shipment: BatchQuoteShipment;
  /** How it was packed when not simply as Settings say (a preset's or a rule's box, what rules changed), or null. */
  packingNote: string | null;
}

/** Refused with every issue found (each says what to fix) and, as the message, all of them in a row. */
export type MappingResult = Outcome<{ shipments: MappedShipment[] }, { issues: MappingIssue[] }>;

function blocked(issues: MappingIssue[]): MappingResult {
  return { ok: false, message: issues.map((issue) => issue.message).join(" "), issues };
}

/** A request's `shipmentDate` (YYYY-MM-DD) for shipping on the day of `now`. */
export function shipmentDateOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

const NOT_SHIPPED_METHODS = new Set(["PICK_UP", "LOCAL", "RETAIL", "NONE", "PICKUP_POINT"]);

/** Why a fulfillment order is not the merchant's to ship with a label now, or null when it is. */
export function fulfillmentOrderIssue(fo: FulfillmentOrderForShipping): MappingIssue | null {
  if (fo.assignedToFulfillmentService || fo.requestStatus !== "UNSUBMITTED") {
    return { code: "FULFILLMENT_SERVICE", message: "A fulfillment service ships this order; there is nothing to label here." };
  }
  if (fo.deliveryMethod && NOT_SHIPPED_METHODS.has(fo.deliveryMethod)) {
    const how = fo.deliveryMethod === "PICK_UP" ? "picked up in store" : fo.deliveryMethod === "LOCAL" ? "delivered locally" : "handed over in store";
    return { code: "NOT_SHIPPED", message: `The customer chose to have this order ${how}; it needs no shipping label.` };
  }
  if (fo.status === "ON_HOLD" || fo.holds.length > 0) {
    const reasons = fo.holds.map((hold) => hold.reasonNotes || hold.reason.toLowerCase().replace(/_/g, " ")).join("; ");
    return { code: "ON_HOLD", message: `On hold${reasons ? ` (${reasons})` : ""}. Release the hold in Shopify to ship it.` };
  }
  if (!fo.supportedActions.includes("CREATE_FULFILLMENT") || !["OPEN", "IN_PROGRESS"].includes(fo.status)) {
    return { code: "NOTHING_TO_SHIP", message: `Nothing left to ship (fulfillment status ${fo.status.toLowerCase().replace(/_/g, " ")}).` };
  }
  if (!fo.lines.some((line) => line.remainingQuantity > 0)) {
    return { code: "NOTHING_TO_SHIP", message: "Every item has already been fulfilled." };
  }
  if (!fo.lines.some(shipsInParcel)) {
    return { code: "NOTHING_TO_SHIP", message: "Nothing left needs shipping (gift cards and digital products are not shipped)." };
  }
  return null;
}

/** A line still to fulfil that goes in the parcel: gift cards and digital products (requiresShipping false) do not. */
export function shipsInParcel(line: FulfillmentOrderLine): boolean {
  return line.remainingQuantity > 0 && line.requiresShipping !== false;
}

/** What the lines weigh, each line's unit weight times its quantity still to fulfil; lines without a weight add nothing. */
export function goodsWeight(lines: readonly FulfillmentOrderLine[]): bigint {
  return lines.reduce((sum, line) => sum + (line.weight ? toNanograms(line.weight.value, line.weight.unit) * BigInt(line.remainingQuantity) : 0n), 0n);
}

/** Digits only; a leading country code 1 dropped for US and CA, which leaves the 10 digits carriers expect. */
export function normalisePhone(phone: string | null, country: string): string {
  const digits = (phone ?? "").replace(/\D/g, "");
  if ((country === "US" || country === "CA") && digits.length === 11 && digits.startsWith("1")) return digits.slice(1);
  return digits;
}

export function receiverAddress(address: OrderAddress, email: string | null): { address: Address } | { issue: MappingIssue } {
  const country = address.countryCode?.toUpperCase() ?? "";
  const name = address.name?.trim() || [address.firstName, address.lastName].filter(Boolean).join(" ").trim();
  const state = (address.provinceCode ?? "").toUpperCase();
  const missing = [
    !name && "name",
    !address.address1?.trim() && "street",
    !address.city?.trim() && "city",
    !/^[A-Z]{2}$/.test(country) && "country",
    COUNTRIES_WITH_STATE_CODES.includes(country) && !/^[A-Z]{2}$/.test(state) && "state/province",
  ].filter((field): field is string => Boolean(field));
  if (missing.length > 0) {
    return {
      issue: { code: "INCOMPLETE_ADDRESS", message: `The shipping address has no ${missing.join(", ")}. Edit the order's address in Shopify.` },
    };
  }
  const problems = addressProblems({ countryCode: country, provinceCode: state || null, zip: address.zip, phone: address.phone });
  if (problems.length > 0) {
    const sentence = problems.join("; ");
    return {
      issue: {
        code: "INVALID_ADDRESS",
        message: `Carriers would refuse this address: ${sentence}. Correct the order's shipping address in Shopify, then quote it again.`,
      },
    };
  }
  return {
    address: {
      name,
      company: address.company?.trim() ?? "",
      address1: address.address1!.trim(),
      address2: address.address2?.trim() ?? "",
      city: address.city!.trim(),
      state,
      zip: address.zip?.trim() || null,
      country,
      phone: normalisePhone(address.phone, country),
      ...(email ? { email } : {}),
    },
  };
}

export function productName(line: FulfillmentOrderLine): string {
  return line.variantTitle && line.variantTitle !== "Default Title" ? `${line.productTitle} - ${line.variantTitle}` : line.productTitle;
}

/** Cents of a decimal string, exactly (Shopify money has at most 2 decimals in USD/GBP/CAD/EUR). */
function toCents(amount: string): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}

function formatCents(cents: bigint): string {
  const text = cents.toString().padStart(3, "0");
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** What the lines' goods are worth (unit price times quantity still to fulfil), exactly, as a decimal string. */
export function goodsValue(lines: readonly FulfillmentOrderLine[]): string {
  return formatCents(lines.reduce((sum, line) => sum + toCents(line.unitPrice) * BigInt(line.remainingQuantity), 0n));
}

function servesDestination(service: Service, country: string): boolean {
  if (service.inbound) return false;
  if (service.supportedCountries) return service.supportedCountries.includes(country);
  return !(service.unsupportedCountries ?? []).includes(country);
}

function mapFulfillmentOrder(
  order: OrderForShipping,
  fo: FulfillmentOrderForShipping,
  receiver: Address,
  currency: Currency,
  settings: MappingSettings,
): { shipment: MappedShipment } | { issues: MappingIssue[] } {
  const issues: MappingIssue[] = [];
  // Lines that need no shipping (gift cards, digital products) are fulfilled with the parcel but are not in it.
  const presets = settings.presets ?? new Map();
  const lines = fo.lines.filter(shipsInParcel).map((line) => withPresetCustoms(line, presetOf(presets, line)));
  const fulfilled = fo.lines.filter((line) => line.remainingQuantity > 0);
  const international = receiver.country !== settings.sender.country;

  const weightless = lines.filter((line) => !line.weight || line.weight.value <= 0);
  if (weightless.length > 0) {
    issues.push({
      code: "ZERO_WEIGHT",
      message: `No weight for ${weightless.map(productName).join(", ")}. Type its weight for this order on the Rates page, or set it on the product in Shopify.`,
    });
  }
  if (international) {
    const noHs = lines.filter((line) => !line.hsCode?.trim());
    if (noHs.length > 0) {
      issues.push({
        code: "MISSING_HS_CODE",
        message: `International shipments need an HS code for ${noHs.map(productName).join(", ")}. Add it to the product in Shopify.`,
      });
    }
    const noOrigin = lines.filter((line) => !line.countryOfOrigin);
    if (noOrigin.length > 0) {
      issues.push({
        code: "MISSING_ORIGIN",
        message: `International shipments need the country of origin of ${noOrigin.map(productName).join(", ")}. Add it to the product in Shopify.`,
      });
    }
  }

  const serving = settings.enabledServices.filter((service) => servesDestination(service, receiver.country));
  if (serving.length === 0) {
    issues.push({
      code: "NO_SERVICE_FOR_DESTINATION",
      message: `None of your enabled services ships to ${countryName(receiver.country)}. Enable one in Settings.`,
    });
  }

  const total = goodsWeight(lines) + toNanograms(settings.packagingWeight.value, settings.packagingWeight.unit);
  const fitsSomeService = serving.some((service) => service.packageTypes.some((type) => weightIn(total, type.weightUnit) <= Number(type.maxWeightPerPiece)));
  if (serving.length > 0 && !fitsSomeService) {
    issues.push({
      code: "OVER_MAX_WEIGHT",
      message: `The package weighs ${formatWeight(total, settings.weightUnit)} ${settings.weightUnit}, more than any enabled service takes. Split the order or enable a freight service.`,
    });
  }
  if (issues.length > 0) return { issues };

  const value = goodsValue(lines);
  const lineItems: LineItem[] = lines.map((line) => ({ sku: line.sku ?? "", productName: productName(line), quantity: line.remainingQuantity }));
  const chosen = settings.boxByRule
    ? { box: settings.box, note: null }
    : chooseBox(lines, presets, { boxes: settings.boxes ?? [settings.box], defaultBox: settings.box });
  const box = chosen.box;
  const packingNote = [settings.rulesNote, chosen.note].filter(Boolean).join(". ") || null;

  const shipment: BatchQuoteShipment = {
    shipmentDate: settings.shipmentDate,
    shipmentReference: order.name,
    contentDescription: summarise(lines),
    sender: settings.sender,
    receiver,
    residential: settings.residential === "auto" ? receiver.company === "" : settings.residential === "residential",
    signatureOptionCode: settings.signatureOptionCode,
    weightUnit: settings.weightUnit,
    dimUnit: box.kind === "custom" ? box.dimUnit : null,
    currency,
    ...(box.kind === "preset" ? { carrierCode: box.carrierCode, packageTypeCode: box.packageTypeCode } : {}),
    pieces: [
      {
        weight: formatWeight(total, settings.weightUnit),
        length: box.kind === "custom" ? box.length : null,
        width: box.kind === "custom" ? box.width : null,
        height: box.kind === "custom" ? box.height : null,
        insuranceAmount: settings.insure ? value : null,
        declaredValue: international ? value : null,
        lineItems,
      },
    ],
    commercialInvoice: international ? commercialInvoice(order, lines, settings) : null,
  };
  return {
    shipment: {
      orderId: order.id,
      fulfillmentOrderId: fo.id,
      lines: fulfilled.map((line) => ({ fulfillmentOrderLineItemId: line.id, quantity: line.remainingQuantity })),
      shipment,
      packingNote,
    },
  };
}

const CM_PER_UNIT: Record<DimUnit, number> = { in: 2.54, cm: 1 };

/** A box's volume in cm³; a carrier's package has no sizes here and counts as 0. */
function volume(box: BoxPreset): number {
  if (box.kind !== "custom") return 0;
  const side = (value: string) => Number(value) * CM_PER_UNIT[box.dimUnit];
  return side(box.length) * side(box.width) * side(box.height);
}

function sizes(box: Extract<BoxPreset, { kind: "custom" }>): string {
  return `${box.length} × ${box.width} × ${box.height} ${box.dimUnit}`;
}

/** What a product's own box is called: "Own box of Floor lamp". */
const OWN_BOX = "Own box of ";

/** A preset's box as a box to quote with; null when it names a Settings box that no longer exists. */
function presetBox(box: PresetBox, product: string, boxes: readonly BoxPreset[]): BoxPreset | null {
  if (box.kind === "own")
    return { kind: "custom", name: `${OWN_BOX}${product}`, length: box.length, width: box.width, height: box.height, dimUnit: box.dimUnit };
  return boxes.find((candidate) => candidate.name === box.name) ?? null;
}

/**
 * The box for a shipment's lines: the shop's default box unless a line's product has a preset box. One box for
 * all: when the lines' boxes differ (a line without a preset box counts as the default box), the largest by
 * volume, saying so. `note` is null when the default box is used as Settings say.
 */
export function chooseBox(
  lines: readonly FulfillmentOrderLine[],
  presets: PresetLookup,
  { boxes, defaultBox }: { boxes: readonly BoxPreset[]; defaultBox: BoxPreset },
): { box: BoxPreset; note: string | null } {
  const perLine = lines.map((line) => {
    const preset = presetOf(presets, line)?.box;
    const box = preset ? presetBox(preset, productName(line), boxes) : null;
    return { line, box: box ?? defaultBox, fromPreset: box !== null };
  });
  if (!perLine.some((entry) => entry.fromPreset)) return { box: defaultBox, note: null };
  const distinct = [...new Map(perLine.map((entry) => [entry.box.name, entry.box])).values()];
  const said = (box: BoxPreset) =>
    box.kind === "custom" && box.name.startsWith(OWN_BOX) ? `the ${box.name.charAt(0).toLowerCase()}${box.name.slice(1)} (${sizes(box)})` : `box '${box.name}'`;
  if (distinct.length === 1) {
    const [box] = distinct as [BoxPreset];
    const products = perLine.filter((entry) => entry.fromPreset).map((entry) => productName(entry.line));
    return { box, note: `Ships in ${said(box)}: the product preset of ${products.join(", ")}` };
  }
  const largest = distinct.reduce((top, box) => (volume(box) > volume(top) ? box : top), distinct[0]!);
  const each = perLine.map((entry) => `${productName(entry.line)}: ${entry.fromPreset ? said(entry.box) : `the default box '${entry.box.name}'`}`);
  return { box: largest, note: `Ships in ${said(largest)}, the largest of the items' boxes (${each.join("; ")})` };
}

function summarise(lines: FulfillmentOrderLine[]): string {
  const first = lines[0] ? productName(lines[0]) : "Goods";
  return (lines.length > 1 ? `${first} and ${lines.length - 1} more` : first).slice(0, 100);
}

function commercialInvoice(order: OrderForShipping, lines: FulfillmentOrderLine[], settings: MappingSettings): CommercialInvoice {
  const items: CommercialInvoiceItem[] = lines.map((line) => {
    // Rounded down so that the items never weigh more than the package (rule 3 of Batch Quote).
    const weight = line.weight
      ? formatWeight(toNanograms(line.weight.value, line.weight.unit) * BigInt(line.remainingQuantity), settings.weightUnit, "down")
      : null;
    return {
      description: line.customsDescription?.trim() || productName(line),
      quantity: line.remainingQuantity,
      unitValue: line.unitPrice,
      ...(weight && Number(weight) > 0 ? { weight } : {}),
      htsNumber: line.hsCode ?? "",
      countryOfOrigin: line.countryOfOrigin ?? "",
    };
  });
  return {
    ftrNumber: null,
    itnNumber: null,
    aesNumber: null,
    termsOfTrade: settings.termsOfTrade,
    receiverTaxId: "",
    senderVatTaxId: settings.senderVatTaxId,
    packageMarks: order.name,
    items,
  };
}

/**
 * Why none of the order's fulfillment orders is the merchant's to ship with a label now (each one's reason, once),
 * or null when one is. Comes before the address: a pickup order has none, and "picked up" is the true reason.
 */
export function unshippableIssues(order: Pick<OrderForShipping, "fulfillmentOrders">): MappingIssue[] | null {
  const issues = order.fulfillmentOrders.map(fulfillmentOrderIssue);
  if (issues.some((issue) => issue === null)) return null;
  const reasons = issues.filter((issue): issue is MappingIssue => issue !== null);
  return reasons.length > 0 ? dedupe(reasons) : [{ code: "NOTHING_TO_SHIP", message: "The order has nothing to ship." }];
}

/** Maps one order; every issue found is reported at once so the merchant can fix them in one go. */
export function orderToShipments(order: OrderForShipping, settings: MappingSettings): MappingResult {
  const unshippable = unshippableIssues(order);
  if (unshippable) return blocked(unshippable);
  if (!order.shippingAddress) {
    return blocked([{ code: "NO_SHIPPING_ADDRESS", message: "The order has no shipping address. Add one in Shopify." }]);
  }
  const receiver = receiverAddress(order.shippingAddress, order.email);
  if ("issue" in receiver) return blocked([receiver.issue]);

  const currency = Currency.safeParse(order.currencyCode);
  if (!currency.success) {
    return blocked([{ code: "UNSUPPORTED_CURRENCY", message: `The Shipping API quotes in USD, GBP, CAD or EUR, not ${order.currencyCode}.` }]);
  }

  const shippable = order.fulfillmentOrders.filter((fo) => fulfillmentOrderIssue(fo) === null);

  const shipments: MappedShipment[] = [];
  const issues: MappingIssue[] = [];
  for (const fo of shippable) {
    const mapped = mapFulfillmentOrder(order, fo, receiver.address, currency.data, settings);
    if ("issues" in mapped) issues.push(...mapped.issues);
    else shipments.push(mapped.shipment);
  }
  return issues.length > 0 ? blocked(dedupe(issues)) : { ok: true, shipments };
}

function dedupe(issues: MappingIssue[]): MappingIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => !seen.has(issue.message) && seen.add(issue.message));
}
