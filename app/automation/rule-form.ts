import { z } from "zod";
import { WeightUnit } from "../../shipping-api/contract";
import { describeFieldErrors, fieldErrors, inMerchantWords, type FieldErrors } from "../field-errors";
import type { Outcome } from "../outcome";
import { ShippingRuleSchema, SPEED_LABELS, type ShippingRuleData } from "../quoting/shipping-rules";
import { serviceKey } from "../settings/catalog";

/**
 * The rules page's form for one rule: every value as the merchant typed it (lists as text, "DE, FR"), and its
 * conversion to a rule, refused on its field in the page's words. Pure.
 */

const Typed = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const RuleForm = z.object({
  name: Typed(200),
  destination: z.enum(["anywhere", "domestic", "international"]),
  countries: Typed(2000),
  states: Typed(2000),
  weightMin: Typed(40),
  weightMax: Typed(40),
  weightUnit: WeightUnit,
  valueMin: Typed(40),
  valueMax: Typed(40),
  itemsMin: Typed(40),
  itemsMax: Typed(40),
  tags: Typed(5000),
  products: Typed(10000),
  shippingTitle: Typed(255),
  shippingSpeed: z.union([z.literal(""), z.enum(SPEED_LABELS)]),
  rateKind: z.enum(["none", "service", "cheapest", "fastest", "match"]),
  /** "CARRIER/SERVICE" (serviceKey) for a given service. */
  service: Typed(200),
  /** Carrier codes, for the cheapest or fastest of some carriers (none: of all). */
  carriers: z.array(Typed(100)).max(50),
  maxAmount: Typed(40),
  /** A Settings box by name; empty: unchanged. */
  box: Typed(255),
  /** A signature option's code; empty: unchanged. */
  signatureOptionCode: Typed(100),
  insure: z.enum(["", "yes", "no"]),
  residential: z.enum(["", "residential", "commercial"]),
});
export type RuleFormValues = z.infer<typeof RuleForm>;

export const EMPTY_RULE_FORM: RuleFormValues = {
  name: "",
  destination: "anywhere",
  countries: "",
  states: "",
  weightMin: "",
  weightMax: "",
  weightUnit: "lb",
  valueMin: "",
  valueMax: "",
  itemsMin: "",
  itemsMax: "",
  tags: "",
  products: "",
  shippingTitle: "",
  shippingSpeed: "",
  rateKind: "cheapest",
  service: "",
  carriers: [],
  maxAmount: "",
  box: "",
  signatureOptionCode: "",
  insure: "",
  residential: "",
};

/** What each field is called on the page. */
export const RULE_FIELD_LABELS: Record<keyof RuleFormValues, string> = {
  name: "Rule name",
  destination: "Destination",
  countries: "Countries",
  states: "US or Canadian states",
  weightMin: "Weight from",
  weightMax: "Weight up to",
  weightUnit: "Weight unit",
  valueMin: "Order value from",
  valueMax: "Order value up to",
  itemsMin: "Items from",
  itemsMax: "Items up to",
  tags: "Order tags",
  products: "Products or SKUs",
  shippingTitle: "Customer's shipping contains",
  shippingSpeed: "Customer's shipping speed",
  rateKind: "Pick the rate",
  service: "Service",
  carriers: "Carriers",
  maxAmount: "Price ceiling",
  box: "Box",
  signatureOptionCode: "Signature",
  insure: "Insurance",
  residential: "Residential or commercial",
};

const list = (text: string) =>
  text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
const joined = (values: readonly string[]) => values.join(", ");
const optional = (value: string | number | null) => (value === null ? "" : String(value));

/** The form as the page opens it for a kept rule. */
export function ruleFormValues(rule: ShippingRuleData): RuleFormValues {
  const { conditions, actions } = rule;
  const rate = actions.rate;
  return {
    name: rule.name,
    destination: conditions.destination,
    countries: joined(conditions.countries),
    states: joined(conditions.states),
    weightMin: optional(conditions.weight.min),
    weightMax: optional(conditions.weight.max),
    weightUnit: conditions.weight.unit,
    valueMin: optional(conditions.value.min),
    valueMax: optional(conditions.value.max),
    itemsMin: optional(conditions.items.min),
    itemsMax: optional(conditions.items.max),
    tags: joined(conditions.tags),
    products: joined(conditions.products),
    shippingTitle: conditions.shippingTitle,
    shippingSpeed: conditions.shippingSpeed,
    rateKind: rate.kind,
    service: rate.kind === "service" ? serviceKey(rate.service) : "",
    carriers: rate.kind === "cheapest" || rate.kind === "fastest" ? rate.carriers : [],
    maxAmount: rate.kind === "none" ? "" : optional(rate.maxAmount),
    box: actions.box ?? "",
    signatureOptionCode: actions.signatureOptionCode ?? "",
    insure: actions.insure === null ? "" : actions.insure ? "yes" : "no",
    residential: actions.residential ?? "",
  };
}

/** The form field a rule's problem belongs on: "conditions.weight.max" → weightMax, "conditions.countries.2" → countries. */
function formField(path: ReadonlyArray<PropertyKey>): keyof RuleFormValues {
  const [head, second, third] = path.map(String);
  if (head === "name") return "name";
  if (head === "conditions") {
    if (second === "weight" || second === "value" || second === "items") {
      if (third === "unit") return "weightUnit";
      return `${second}${third === "max" ? "Max" : "Min"}` as keyof RuleFormValues;
    }
    return (second ?? "name") as keyof RuleFormValues;
  }
  if (second === "rate") {
    if (third === "maxAmount") return "maxAmount";
    if (third === "service") return "service";
    if (third === "carriers") return "carriers";
    return "rateKind";
  }
  return (second ?? "rateKind") as keyof RuleFormValues;
}

/** A refusal: every problem on its field, and all of them in the message, naming each field by its label. */
export function ruleRefused(errors: FieldErrors): { ok: false; message: string; fieldErrors: FieldErrors } {
  const said = describeFieldErrors(errors, (path) => ({ label: RULE_FIELD_LABELS[String(path[0]) as keyof RuleFormValues] }));
  return { ok: false, message: `The rule was not saved. ${said.message}.`, fieldErrors: said.fieldErrors };
}

export type ParsedRule = Outcome<{ rule: ShippingRuleData }, { fieldErrors: FieldErrors }>;

/**
 * The rule the form describes, checked, or refused on its fields. `choices` are what the shop has: its Settings
 * boxes' names and, when the Shipping API answered, the services and signature options of its account.
 */
export function parseRuleForm(
  input: unknown,
  choices: { boxes: readonly string[]; services: ReadonlyArray<{ carrierCode: string; serviceCode: string }> | null; signatures: readonly string[] | null },
): ParsedRule {
  const form = RuleForm.safeParse(input, { error: inMerchantWords });
  if (!form.success) {
    return ruleRefused(fieldErrors(form.error.issues));
  }
  const values = form.data;
  const ceiling = { maxAmount: values.maxAmount.trim() || null };
  const [carrierCode = "", serviceCode = ""] = values.service.split("/");
  const rate =
    values.rateKind === "none"
      ? { kind: "none" }
      : values.rateKind === "service"
        ? { kind: "service", service: { carrierCode, serviceCode }, ...ceiling }
        : values.rateKind === "cheapest" || values.rateKind === "fastest"
          ? { kind: values.rateKind, carriers: values.carriers, ...ceiling }
          : { kind: "match", ...ceiling };
  const candidate = {
    name: values.name,
    conditions: {
      destination: values.destination,
      countries: list(values.countries),
      states: list(values.states),
      weight: { min: values.weightMin.trim() || null, max: values.weightMax.trim() || null, unit: values.weightUnit },
      value: { min: values.valueMin.trim() || null, max: values.valueMax.trim() || null },
      items: { min: values.itemsMin.trim() || null, max: values.itemsMax.trim() || null },
      tags: list(values.tags),
      products: list(values.products),
      shippingTitle: values.shippingTitle,
      shippingSpeed: values.shippingSpeed,
    },
    actions: {
      rate,
      box: values.box || null,
      signatureOptionCode: values.signatureOptionCode || null,
      insure: values.insure === "" ? null : values.insure === "yes",
      residential: values.residential || null,
    },
  };
  const errors: FieldErrors = {};
  const parsed = ShippingRuleSchema.safeParse(candidate, { error: inMerchantWords });
  if (!parsed.success) for (const issue of parsed.error.issues) errors[formField(issue.path)] ??= issue.message;
  if (values.rateKind === "service" && !serviceCode) errors.service ??= "choose a service";
  else if (values.rateKind === "service" && choices.services && !choices.services.some((service) => serviceKey(service) === values.service)) {
    errors.service ??= "is not a service of your account; choose another";
  }
  if (values.box && !choices.boxes.includes(values.box)) errors.box ??= "is not one of your boxes in Settings; choose another";
  if (values.signatureOptionCode && choices.signatures && !choices.signatures.includes(values.signatureOptionCode)) {
    errors.signatureOptionCode ??= "is not a signature option of your account; choose another";
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return ruleRefused(errors);
  return { ok: true, rule: parsed.data };
}
