import { z } from "zod";
import { Address, DimUnit, LabelImageFormat, TermsOfTrade, WeightUnit, type ProviderAccount, type Service } from "../../shipping-api/contract";
import { AddressInput, addressInput, EMPTY_ADDRESS, toAddress } from "./addresses";
import { serviceKey } from "./catalog";
import type { Outcome } from "../outcome";
import { fieldErrors, inMerchantWords, listFieldErrors, mergeFieldErrors, type FieldErrors } from "../field-errors";
import { PackingSlipSize, ServiceKey, ShippingSettings, type RateRule } from "./settings";

/**
 * The Settings page's form: what the page posts (every value as the merchant typed it) and its conversion to
 * `ShippingSettings`. Messages are keyed by field path, the same paths the settings have, so each one is shown
 * next to its field and nothing the merchant typed is lost.
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
  signatureOptionCode: z.string().nullable(),
  insure: z.boolean(),
  residential: z.enum(["auto", "residential", "commercial"]),
  termsOfTrade: TermsOfTrade,
  senderVatTaxId: z.string().trim(),
  packingSlipSize: PackingSlipSize,
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
    signatureOptionCode: settings.signatureOptionCode,
    insure: settings.insure,
    residential: settings.residential,
    termsOfTrade: settings.termsOfTrade,
    senderVatTaxId: settings.senderVatTaxId,
    packingSlipSize: settings.packingSlipSize,
  };
}

const NUMBER = /^\d+(\.\d+)?$/;

function rateRule(input: SettingsFormValues["rateRule"]): RateRule {
  if (input.kind === "preferred") return { kind: "preferred", carrierCode: input.carrierCode, maxAmount: input.maxAmount };
  if (input.kind === "match") return { kind: "match", maxAmount: input.maxAmount };
  return { kind: input.kind };
}

export type SettingsFormResult = Outcome<{ settings: ShippingSettings }, { fieldErrors: FieldErrors }>;

/** Settings refused for these problems: each on its field, and all of them in the message. */
export function settingsRefused(errors: FieldErrors): { ok: false; message: string; fieldErrors: FieldErrors } {
  const count = Object.keys(errors).length;
  return {
    ok: false,
    message: `Nothing was saved: ${count} setting${count === 1 ? " needs" : "s need"} attention (${listFieldErrors(errors)}). Correct ${count === 1 ? "it" : "them"} and save again.`,
    fieldErrors: errors,
  };
}

/** Parses what the page posted into settings, or every problem found, keyed by field. */
export function parseSettingsForm(body: unknown): SettingsFormResult {
  const form = SettingsForm.safeParse(body, { error: inMerchantWords });
  if (!form.success) return settingsRefused(fieldErrors(form.error.issues));
  const values = form.data;
  const errors: FieldErrors = {};

  const weight = values.packagingWeight.value;
  if (!NUMBER.test(weight)) errors["packagingWeight.value"] = "must be a number, 0 or more";
  if (values.sender && values.sender.phone === "") errors["sender.phone"] = "carriers print it on the label: enter a phone number";
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
    signatureOptionCode: values.signatureOptionCode,
    insure: values.insure,
    residential: values.residential,
    termsOfTrade: values.termsOfTrade,
    senderVatTaxId: values.senderVatTaxId,
    packingSlipSize: values.packingSlipSize,
  };
  const settings = ShippingSettings.safeParse(candidate, { error: inMerchantWords });
  if (!settings.success) mergeFieldErrors(errors, fieldErrors(settings.error.issues));
  if (!settings.success || Object.keys(errors).length > 0) return settingsRefused(errors);
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
  if (missing.length > 0) {
    errors.enabledServices = `not offered for orders by your account: ${missing.map(serviceKey).join(", ")}`;
  }
  settings.boxes.forEach((box, index) => {
    if (box.kind !== "preset") return;
    const found = outbound.some(
      (service) =>
        service.carrierCode === box.carrierCode &&
        service.packageTypes.some((type) => type.packageTypeCode === box.packageTypeCode && type.dimType === "preset"),
    );
    if (!found) errors[`boxes[${index}].packageTypeCode`] = `${box.carrierCode} has no preset package ${box.packageTypeCode}`;
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
  return errors;
}
