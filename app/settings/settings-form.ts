import { z } from "zod";
import { Address, DimUnit, LabelImageFormat, TermsOfTrade, WeightUnit, type ProviderAccount, type Service } from "../../shipping-api/contract";
import { AddressInput, addressFieldLabel, addressInput, EMPTY_ADDRESS, toAddress } from "./addresses";
import { serviceKey } from "./catalog";
import type { Outcome } from "../outcome";
import { describeFieldErrors, fieldErrors, inMerchantWords, mergeFieldErrors, type FieldErrors, type FieldNamer } from "../field-errors";
import { PackingSlipSize, ServiceKey, ShippingSettings, type RateRule, type ReturnRule } from "./settings";

/**
 * The Settings page's form: what the page posts (every value as the merchant typed it) and its conversion to
 * `ShippingSettings`. Problems are keyed by field path, the same paths the settings have, so each one is shown
 * next to its field and nothing the merchant typed is lost; each names its field by the page's label.
 */

const BoxInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("custom"), name: z.string(), length: z.string(), width: z.string(), height: z.string(), dimUnit: DimUnit }),
  z.object({ kind: z.literal("preset"), name: z.string(), carrierCode: z.string(), packageTypeCode: z.string() }),
]);
export type BoxInput = z.infer<typeof BoxInput>;

export const SettingsForm = z.object({
  senderLocationId: z.string().nullable(),
  /** Null until the merchant picks a location or types an address. */
  sender: AddressInput.nullable(),
  returnToSender: z.boolean(),
  /** Kept while returns go to the sender, so switching back does not lose it. */
  returnAddress: AddressInput,
  boxes: z.array(BoxInput),
  defaultBox: z.string(),
  packagingWeight: z.object({ value: z.string().trim(), unit: WeightUnit }),
  /** True: every outbound service, including ones the account gains later. */
  quoteAllServices: z.boolean(),
  enabledServices: z.array(ServiceKey),
  providerAccountId: z.string().nullable(),
  labelFormat: LabelImageFormat,
  notifyCustomer: z.boolean(),
  /** Every rule's inputs are kept, so switching rules does not lose the preferred carrier. */
  rateRule: z.object({ kind: z.enum(["cheapest", "fastest", "preferred", "match"]), carrierCode: z.string(), maxAmount: z.string().trim() }),
  /** The return rule, its preferred carrier kept while another rule is chosen. */
  returnRule: z.object({ kind: z.enum(["cheapest", "preferred", "scan-based"]), carrierCode: z.string() }),
  returnLabelInBox: z.boolean(),
  signatureOptionCode: z.string().nullable(),
  insure: z.boolean(),
  residential: z.enum(["auto", "residential", "commercial"]),
  termsOfTrade: TermsOfTrade,
  senderVatTaxId: z.string().trim(),
  packingSlipSize: PackingSlipSize,
  /** Tags on Shopify orders; `enabled` is saved off when the merchant declined Consign editing orders. */
  orderTags: z.object({ enabled: z.boolean(), labelBought: z.string(), delivered: z.string(), exception: z.string() }),
});
export type SettingsFormValues = z.infer<typeof SettingsForm>;

/** The form as the page opens it for stored settings. */
export function settingsFormValues(settings: ShippingSettings): SettingsFormValues {
  return {
    senderLocationId: settings.senderLocationId,
    sender: settings.sender ? addressInput(settings.sender) : null,
    returnToSender: settings.returnAddress === null,
    returnAddress: settings.returnAddress ? addressInput(settings.returnAddress) : EMPTY_ADDRESS,
    boxes: settings.boxes,
    defaultBox: settings.defaultBox,
    packagingWeight: { value: String(settings.packagingWeight.value), unit: settings.packagingWeight.unit },
    quoteAllServices: settings.enabledServices.length === 0,
    enabledServices: settings.enabledServices,
    providerAccountId: settings.providerAccountId,
    labelFormat: settings.labelFormat,
    notifyCustomer: settings.notifyCustomer,
    rateRule:
      settings.rateRule.kind === "preferred"
        ? settings.rateRule
        : settings.rateRule.kind === "match"
          ? { ...settings.rateRule, carrierCode: "" }
          : { kind: settings.rateRule.kind, carrierCode: "", maxAmount: "" },
    returnRule: settings.returnRule.kind === "preferred" ? settings.returnRule : { kind: settings.returnRule.kind, carrierCode: "" },
    returnLabelInBox: settings.returnLabelInBox,
    signatureOptionCode: settings.signatureOptionCode,
    insure: settings.insure,
    residential: settings.residential,
    termsOfTrade: settings.termsOfTrade,
    senderVatTaxId: settings.senderVatTaxId,
    packingSlipSize: settings.packingSlipSize,
    orderTags: settings.orderTags,
  };
}

const NUMBER = /^\d+(\.\d+)?$/;

function rateRule(input: SettingsFormValues["rateRule"]): RateRule {
  if (input.kind === "preferred") return { kind: "preferred", carrierCode: input.carrierCode, maxAmount: input.maxAmount };
  if (input.kind === "match") return { kind: "match", maxAmount: input.maxAmount };
  return { kind: input.kind };
}

function returnRule(input: SettingsFormValues["returnRule"]): ReturnRule {
  return input.kind === "preferred" ? { kind: "preferred", carrierCode: input.carrierCode } : { kind: input.kind };
}

export type SettingsFormResult = Outcome<{ settings: ShippingSettings }, { fieldErrors: FieldErrors }>;

/** The Settings page's labels for the settings that are not an address or a box. */
const SETTING_LABELS: Record<string, string> = {
  senderLocationId: "Ship from",
  sender: "Sender address",
  returnToSender: "Returns go to the sender address",
  returnAddress: "Return address",
  boxes: "Boxes",
  defaultBox: "Default box",
  packagingWeight: "Packaging weight",
  quoteAllServices: "Quote with",
  enabledServices: "Services to quote with",
  providerAccountId: "Provider account",
  labelFormat: "Label format",
  notifyCustomer: "Notify the customer",
  rateRule: "Preselect for each order",
  returnRule: "Return labels",
  returnLabelInBox: "Put a return label in the box",
  signatureOptionCode: "Signature",
  insure: "Insurance",
  residential: "Delivery addresses are",
  termsOfTrade: "Terms of trade",
  senderVatTaxId: "Sender VAT or tax id",
  packingSlipSize: "Packing slip paper",
  orderTags: "Order tags",
};

const TAG_LABELS: Record<string, string> = {
  enabled: "Tag orders in Shopify",
  labelBought: "Tag when the label is bought",
  delivered: "Tag when delivered",
  exception: "Tag while delivery needs attention",
};

const BOX_LABELS: Record<string, string> = {
  name: "name",
  length: "length",
  width: "width",
  height: "height",
  dimUnit: "unit",
  carrierCode: "carrier package",
  packageTypeCode: "carrier package",
};

const RETURN_RULE_LABELS: Record<string, string> = { kind: "Return labels", carrierCode: "Preferred carrier for returns" };

const RULE_LABELS: Record<string, string> = { kind: "Preselect for each order", carrierCode: "Preferred carrier", maxAmount: "Price ceiling" };

/**
 * The Settings page's names for a setting's path: "Sender address" and its field's label, a box by its name
 * (`boxes`, as the form posted them) or number, the rule's fields by theirs.
 */
export function settingsFieldNames(boxes: ReadonlyArray<{ name: string }>): FieldNamer {
  return (path) => {
    const [head, second, third] = path;
    if (head === "sender" || head === "returnAddress") return { subject: SETTING_LABELS[head], label: addressFieldLabel(second) };
    if (head === "boxes" && typeof second === "number") {
      const name = boxes[second]?.name.trim();
      return { subject: name ? `Box “${name}”` : `Box ${second + 1}`, label: typeof third === "string" ? BOX_LABELS[third] : undefined };
    }
    if (head === "rateRule" && typeof second === "string") return { label: RULE_LABELS[second] };
    if (head === "orderTags" && typeof second === "string") return { label: TAG_LABELS[second] };
    if (head === "returnRule" && typeof second === "string") return { label: RETURN_RULE_LABELS[second] };
    return { label: typeof head === "string" ? SETTING_LABELS[head] : undefined };
  };
}

/**
 * Settings refused for these problems (keyed by field, as found): each on its field and all of them in the
 * message, in words naming each field by its label; `boxes` name the boxes' problems.
 */
export function settingsRefused(errors: FieldErrors, boxes: ReadonlyArray<{ name: string }>): { ok: false; message: string; fieldErrors: FieldErrors } {
  const count = Object.keys(errors).length;
  const said = describeFieldErrors(errors, settingsFieldNames(boxes));
  return {
    ok: false,
    // The page's banner says how many need attention; the message says which, and what is wrong with each.
    message: `Nothing was saved. ${said.message}. Correct ${count === 1 ? "it" : "them"} and save again.`,
    fieldErrors: said.fieldErrors,
  };
}

/** The boxes' names of a post that is not the form, as far as it has them, to name its boxes' problems. */
function postedBoxes(body: unknown): Array<{ name: string }> {
  const boxes = z.object({ boxes: z.array(z.object({ name: z.string() }).catch({ name: "" })) }).safeParse(body);
  return boxes.success ? boxes.data.boxes : [];
}

/** Parses what the page posted into settings, or every problem found, keyed by field. */
export function parseSettingsForm(body: unknown): SettingsFormResult {
  const form = SettingsForm.safeParse(body, { error: inMerchantWords });
  if (!form.success) return settingsRefused(fieldErrors(form.error.issues), postedBoxes(body));
  const values = form.data;
  const errors: FieldErrors = {};

  const weight = values.packagingWeight.value;
  if (!NUMBER.test(weight)) errors["packagingWeight.value"] = "must be a number, 0 or more";
  if (values.sender && values.sender.phone === "") errors["sender.phone"] = "is needed, as carriers print it on the label";
  if (!values.returnToSender)
    mergeFieldErrors(
      errors,
      fieldErrors(Address.safeParse(toAddress(values.returnAddress), { error: inMerchantWords }).error?.issues ?? [], ["returnAddress"]),
    );
  if (!values.quoteAllServices && values.enabledServices.length === 0) {
    errors.enabledServices = "choose at least one service, or quote with every service";
  }
  const firstIndex = new Map<string, number>();
  values.boxes.forEach((box, index) => {
    const name = box.name.trim();
    if (firstIndex.has(name)) errors[`boxes[${index}].name`] = "another box has this name";
    else firstIndex.set(name, index);
  });

  const candidate: ShippingSettings = {
    senderLocationId: values.senderLocationId,
    sender: values.sender ? toAddress(values.sender) : null,
    returnAddress: values.returnToSender ? null : toAddress(values.returnAddress),
    boxes: values.boxes,
    defaultBox: values.defaultBox,
    packagingWeight: { value: NUMBER.test(weight) ? Number(weight) : 0, unit: values.packagingWeight.unit },
    enabledServices: values.quoteAllServices ? [] : values.enabledServices,
    providerAccountId: values.providerAccountId,
    labelFormat: values.labelFormat,
    notifyCustomer: values.notifyCustomer,
    rateRule: rateRule(values.rateRule),
    returnRule: returnRule(values.returnRule),
    returnLabelInBox: values.returnLabelInBox,
    signatureOptionCode: values.signatureOptionCode,
    insure: values.insure,
    residential: values.residential,
    termsOfTrade: values.termsOfTrade,
    senderVatTaxId: values.senderVatTaxId,
    packingSlipSize: values.packingSlipSize,
    orderTags: values.orderTags,
  };
  const settings = ShippingSettings.safeParse(candidate, { error: inMerchantWords });
  if (!settings.success) mergeFieldErrors(errors, fieldErrors(settings.error.issues));
  if (!settings.success || Object.keys(errors).length > 0) return settingsRefused(errors, values.boxes);
  return { ok: true, settings: settings.data };
}

/**
 * What the saved settings name that the account does not offer: services (or return services, which are
 * never quoted for orders), preset packages, the provider account, the signature option, the preferred carrier.
 */
export function checkAgainstCatalog(
  settings: ShippingSettings,
  catalog: { services: readonly Service[]; providerAccounts: readonly ProviderAccount[] },
): FieldErrors {
  const errors: FieldErrors = {};
  const outbound = catalog.services.filter((service) => !service.inbound);
  const offered = new Set(outbound.map(serviceKey));
  const missing = settings.enabledServices.filter((key) => !offered.has(serviceKey(key)));
  // Named as List Services names them where the account has them (a return service), else by their codes.
  const serviceName = (key: ServiceKey) => {
    const known = catalog.services.find((service) => serviceKey(service) === serviceKey(key));
    return known ? `${known.carrierLabel} ${known.serviceLabel}` : serviceKey(key);
  };
  const carrierName = (code: string) => catalog.services.find((service) => service.carrierCode === code)?.carrierLabel ?? code;
  if (missing.length > 0) {
    errors.enabledServices = `not offered for orders by your account: ${missing.map(serviceName).join(", ")}`;
  }
  settings.boxes.forEach((box, index) => {
    if (box.kind !== "preset") return;
    const found = outbound.some(
      (service) =>
        service.carrierCode === box.carrierCode &&
        service.packageTypes.some((type) => type.packageTypeCode === box.packageTypeCode && type.dimType === "preset"),
    );
    if (!found) errors[`boxes[${index}].packageTypeCode`] = `is not one ${carrierName(box.carrierCode)} offers (“${box.packageTypeCode}”)`;
  });
  if (settings.providerAccountId !== null && !catalog.providerAccounts.some((account) => account.id === settings.providerAccountId)) {
    errors.providerAccountId = "is not one of your account's provider accounts";
  }
  if (
    settings.signatureOptionCode !== null &&
    !outbound.some((service) => service.signatureOptions.some((option) => option.signatureOptionCode === settings.signatureOptionCode))
  ) {
    errors.signatureOptionCode = "no service of your account offers this signature option";
  }
  const rule = settings.rateRule;
  if (rule.kind === "preferred" && !outbound.some((service) => service.carrierCode === rule.carrierCode)) {
    errors["rateRule.carrierCode"] = "is not a carrier of your account";
  }
  const returns = settings.returnRule;
  if (returns.kind === "preferred" && !catalog.services.some((service) => service.inbound && service.carrierCode === returns.carrierCode)) {
    errors["returnRule.carrierCode"] = "has no return service in your account";
  }
  return errors;
}
