import { z } from "zod";
import { WeightUnit } from "../../shipping-api/contract";
import { countryName, subdivisionName } from "../locale/places";
import type { MirroredOrder } from "../orders/order-node";
import type { OrderForShipping } from "../orders/types";
import { fulfillmentOrderIssue, goodsValue, goodsWeight, shipsInParcel, type MappingSettings } from "../orders/shipment-mapping";
import { formatWeight, toNanograms } from "../orders/weights";
import { plural } from "../plural";
import { PositiveDecimal, ServiceKey, type RateRule } from "../settings/settings";
import { compareAmounts, formatMoney } from "../shipping/money";
import { carrierName, NO_NAMES } from "../shipping/service-names";
import { pickRate, speedClass, type RateCandidate, type RatePick, type RuleInputs } from "./rate-rule";

/**
 * Shipping rules with conditions (issue 25): an ordered list the shop keeps besides its shop-wide rate rule.
 * Each rule has conditions, all of which must hold for an order, and actions. Pure: what an order is (its
 * facts), whether a rule's conditions hold for it and in which words, what the rules change before quoting
 * (box, signature, insurance, residential) and which rate they pick after.
 *
 * - Before quoting, each of box, signature, insurance and residential is set by the first rule whose
 *   conditions hold and that sets it; what no rule sets stays as Settings say.
 * - After quoting, the first rule whose conditions hold and that picks a rate decides; when its action cannot
 *   be met (no such service quoted, all over its ceiling, no shipping line to match) the next one is tried,
 *   and the shop-wide rule is the last, catch-all rule.
 */

/** The speed classes a shipping line may promise, fastest first, as rate-rule.ts reads them from names. */
export const SPEED_LABELS = ["overnight", "express", "3-day", "priority", "ground"] as const;

const Text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const OptionalDecimal = z.union([z.literal("").transform(() => null), PositiveDecimal]).nullable();
const OptionalCount = z
  .union([
    z.literal("").transform(() => null),
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, "must be a whole number, like 3"),
    z.number().int().min(0).max(99_999),
  ])
  .nullable()
  .transform((value) => (value === null || value === undefined ? null : Number(value)));
const CountryCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, "must be two-letter country codes, like DE or FR"));
/** A US or Canadian state or province: "US-NY", "CA-ON". */
const StateCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(
    z
      .string()
      .regex(/^(US|CA)-[A-Z]{2}$/, "must be US or Canadian states written like US-NY or CA-ON")
      .refine((code) => subdivisionName(code.slice(0, 2), code.slice(3)) !== null, "must be US or Canadian states written like US-NY or CA-ON"),
  );

/** A range's two ends, each optional; the lower must not be above the upper. */
function checkRange(range: { min: string | number | null; max: string | number | null }, ctx: z.RefinementCtx) {
  if (range.min !== null && range.max !== null && Number(range.min) > Number(range.max)) {
    ctx.addIssue({ code: "custom", path: ["max"], message: "must not be less than the minimum" });
  }
}

export const RuleConditions = z.object({
  destination: z.enum(["anywhere", "domestic", "international"]).default("anywhere"),
  /** Any of these countries (empty: any). */
  countries: z.array(CountryCode).max(250, "may list at most 250 countries").default([]),
  /** Any of these US or Canadian states (empty: any). */
  states: z.array(StateCode).max(100, "may list at most 100 states").default([]),
  /** The order's weight with packaging, both ends included. */
  weight: z
    .object({ min: OptionalDecimal.default(null), max: OptionalDecimal.default(null), unit: WeightUnit.default("lb") })
    .superRefine(checkRange)
    .default({ min: null, max: null, unit: "lb" }),
  /** The goods' value in the order's currency, both ends included. */
  value: z
    .object({ min: OptionalDecimal.default(null), max: OptionalDecimal.default(null) })
    .superRefine(checkRange)
    .default({ min: null, max: null }),
  /** Items (units) in the order, both ends included. */
  items: z
    .object({ min: OptionalCount.default(null), max: OptionalCount.default(null) })
    .superRefine(checkRange)
    .default({ min: null, max: null }),
  /** Any of these order tags (empty: any). */
  tags: z.array(Text(255).min(1, "may not be empty")).max(50, "may list at most 50 tags").default([]),
  /** Any of these products in the order, by SKU or product name (empty: any). */
  products: z.array(Text(255).min(1, "may not be empty")).max(100, "may list at most 100 products").default([]),
  /** The customer's shipping line: its title contains this (empty: any) … */
  shippingTitle: Text(255).default(""),
  /** … and it promises this speed class (empty: any). */
  shippingSpeed: z.union([z.literal(""), z.enum(SPEED_LABELS)]).default(""),
});
export type RuleConditions = z.infer<typeof RuleConditions>;

const Ceiling = { maxAmount: OptionalDecimal.default(null) };
export const RateAction = z.discriminatedUnion("kind", [
  /** The rule picks no rate: it only changes the quote request (box, signature, insurance, residential). */
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("service"), service: ServiceKey, ...Ceiling }),
  /** The cheapest of these carriers' and services' rates (both empty: of all). */
  z.object({
    kind: z.literal("cheapest"),
    carriers: z.array(z.string().min(1)).max(50).default([]),
    services: z.array(ServiceKey).max(200).default([]),
    ...Ceiling,
  }),
  z.object({ kind: z.literal("fastest"), carriers: z.array(z.string().min(1)).max(50).default([]), ...Ceiling }),
  z.object({ kind: z.literal("match"), ...Ceiling }),
]);
export type RateAction = z.infer<typeof RateAction>;

export const RuleActions = z.object({
  rate: RateAction.default({ kind: "none" }),
  /** A Settings box (custom or a carrier's package) by name; null: unchanged. */
  box: z.string().trim().min(1).max(255).nullable().default(null),
  /** A signature option of the Shipping API; null: unchanged. */
  signatureOptionCode: z.string().trim().min(1).max(100).nullable().default(null),
  /** True: insure for the goods' value; false: do not insure; null: unchanged. */
  insure: z.boolean().nullable().default(null),
  residential: z.enum(["residential", "commercial"]).nullable().default(null),
});
export type RuleActions = z.infer<typeof RuleActions>;

export const ShippingRuleSchema = z
  .object({
    name: Text(80).min(1, "is required"),
    conditions: RuleConditions.default(RuleConditions.parse({})),
    actions: RuleActions,
  })
  .superRefine((rule, ctx) => {
    const { rate, box, signatureOptionCode, insure, residential } = rule.actions;
    if (rate.kind === "none" && box === null && signatureOptionCode === null && insure === null && residential === null) {
      ctx.addIssue({
        code: "custom",
        path: ["actions", "rate"],
        message: "choose what the rule does: how it picks the rate, or a box, signature, insurance or residential",
      });
    }
  });
export type ShippingRuleData = z.infer<typeof ShippingRuleSchema>;
/** A rule as the shop keeps it: its data, its id and its place in the list. */
export type ShippingRule = ShippingRuleData & { id: string };

/** What the conditions read of an order: its shippable lines (every fulfillment order still to ship), where it goes and what the customer chose. */
export interface OrderFacts {
  country: string;
  /** "US-NY"; empty without one. */
  state: string;
  domestic: boolean;
  /** Goods and the shop's packaging, in nanograms. */
  weight: bigint;
  /** The goods' value (decimal string) in `currency`. */
  value: string;
  currency: string;
  items: number;
  tags: readonly string[];
  /** SKUs and product names of the lines, lower case. */
  products: readonly string[];
  shippingLine: { title: string } | null;
}

/** The facts of a mirrored order shipped from `senderCountry`, packaging added once per order. */
export function orderFacts(
  order: Pick<OrderForShipping, "currencyCode" | "shippingAddress" | "fulfillmentOrders"> & Pick<MirroredOrder, "tags" | "shippingLine">,
  { senderCountry, packagingWeight }: { senderCountry: string; packagingWeight: { value: number; unit: WeightUnit } },
): OrderFacts {
  const lines = order.fulfillmentOrders.filter((fo) => fulfillmentOrderIssue(fo) === null).flatMap((fo) => fo.lines.filter(shipsInParcel));
  const country = order.shippingAddress?.countryCode?.toUpperCase() ?? "";
  const province = order.shippingAddress?.provinceCode?.toUpperCase() ?? "";
  return {
    country,
    state: province && country ? `${country}-${province.replace(`${country}-`, "")}` : "",
    domestic: country === senderCountry.toUpperCase(),
    weight: goodsWeight(lines) + toNanograms(packagingWeight.value, packagingWeight.unit),
    value: goodsValue(lines),
    currency: order.currencyCode,
    items: lines.reduce((sum, line) => sum + line.remainingQuantity, 0),
    tags: order.tags,
    products: [...new Set(lines.flatMap((line) => [line.sku ?? "", line.productTitle].map((name) => name.trim().toLowerCase()).filter(Boolean)))],
    shippingLine: order.shippingLine ? { title: order.shippingLine.title } : null,
  };
}

function listed(names: readonly string[], noun: string): string {
  if (names.length <= 3) return names.join(names.length === 2 ? " or " : ", ");
  return plural(names.length, noun);
}

function rangeWords(range: { min: string | number | null; max: string | number | null }, say: (value: string | number) => string): string | null {
  if (range.min !== null && range.max !== null) return `${say(range.min)}–${say(range.max)}`;
  if (range.min !== null) return `from ${say(range.min)}`;
  if (range.max !== null) return `up to ${say(range.max)}`;
  return null;
}

/** The conditions in a few words, for reasons and the rules list: "over 5 lb, to Germany or France". Empty: "every order". */
export function describeConditions(conditions: RuleConditions, currency = "USD"): string {
  const words = [
    conditions.destination === "domestic" ? "domestic" : conditions.destination === "international" ? "international" : null,
    conditions.countries.length > 0 ? `to ${listed(conditions.countries.map(countryName), "countries")}` : null,
    conditions.states.length > 0
      ? `to ${listed(
          conditions.states.map((code) => subdivisionName(code.slice(0, 2), code.slice(3)) ?? code),
          "states",
        )}`
      : null,
    rangeWords(conditions.weight, (value) => `${value} ${conditions.weight.unit}`),
    rangeWords(conditions.value, (value) => formatMoney(String(value), currency)),
    rangeWords(conditions.items, (value) => plural(Number(value), "item")),
    conditions.tags.length > 0 ? `tagged ${listed(conditions.tags, "tags")}` : null,
    conditions.products.length > 0 ? `with ${listed(conditions.products, "products")}` : null,
    conditions.shippingTitle ? `customer chose “${conditions.shippingTitle}”` : null,
    conditions.shippingSpeed ? `customer chose ${conditions.shippingSpeed}` : null,
  ].filter((word): word is string => word !== null);
  return words.length > 0 ? words.join(", ") : "every order";
}

/** One condition checked: whether it holds and, when not, why, in the merchant's words. */
interface Check {
  holds: boolean;
  why: string;
}

function inRange(value: number | bigint, range: { min: number | bigint | null; max: number | bigint | null }): boolean {
  return (range.min === null || value >= range.min) && (range.max === null || value <= range.max);
}

/** Every condition of the rule checked against the order: each one's outcome, in order, for "Test on an order". */
export function checkConditions(conditions: RuleConditions, facts: OrderFacts): Check[] {
  const checks: Check[] = [];
  const check = (holds: boolean, why: string) => checks.push({ holds, why });
  const place = countryName(facts.country) || "no country";
  if (conditions.destination !== "anywhere") {
    const wanted = conditions.destination === "domestic";
    check(facts.domestic === wanted, `goes to ${place} (${facts.domestic ? "domestic" : "international"})`);
  }
  if (conditions.countries.length > 0) check(conditions.countries.includes(facts.country), `goes to ${place}`);
  if (conditions.states.length > 0) {
    const state = facts.state ? (subdivisionName(facts.state.slice(0, 2), facts.state.slice(3)) ?? facts.state) : "no state";
    check(conditions.states.includes(facts.state), `goes to ${state}`);
  }
  const { weight } = conditions;
  if (weight.min !== null || weight.max !== null) {
    const bound = (value: string | null) => (value === null ? null : toNanograms(Number(value), weight.unit));
    check(inRange(facts.weight, { min: bound(weight.min), max: bound(weight.max) }), `weighs ${formatWeight(facts.weight, weight.unit)} ${weight.unit}`);
  }
  const { value } = conditions;
  if (value.min !== null || value.max !== null) {
    const holds = (value.min === null || compareAmounts(facts.value, value.min) >= 0) && (value.max === null || compareAmounts(facts.value, value.max) <= 0);
    check(holds, `is worth ${formatMoney(facts.value, facts.currency)}`);
  }
  if (conditions.items.min !== null || conditions.items.max !== null) check(inRange(facts.items, conditions.items), `has ${plural(facts.items, "item")}`);
  if (conditions.tags.length > 0) {
    const tags = new Set(facts.tags.map((tag) => tag.trim().toLowerCase()));
    check(
      conditions.tags.some((tag) => tags.has(tag.toLowerCase())),
      facts.tags.length > 0 ? `is tagged ${facts.tags.join(", ")}` : "has no tags",
    );
  }
  if (conditions.products.length > 0) {
    const hit = conditions.products.find((product) => facts.products.includes(product.toLowerCase()));
    check(hit !== undefined, hit ? `has ${hit}` : `has none of ${listed(conditions.products, "products")}`);
  }
  if (conditions.shippingTitle || conditions.shippingSpeed) {
    const title = facts.shippingLine?.title ?? null;
    const speed = title === null ? null : speedClass({ serviceCode: "", serviceDescription: title }).label;
    const holds =
      title !== null &&
      (!conditions.shippingTitle || title.toLowerCase().includes(conditions.shippingTitle.toLowerCase())) &&
      (!conditions.shippingSpeed || speed === conditions.shippingSpeed);
    check(holds, title === null ? "has no shipping line" : `customer chose ${title} (${speed})`);
  }
  return checks;
}

export function conditionsHold(conditions: RuleConditions, facts: OrderFacts): boolean {
  return checkConditions(conditions, facts).every((check) => check.holds);
}

/** What the rules change in an order's quote request, each with the rule that set it; absent: as Settings say. */
export interface QuoteChanges {
  box?: { name: string; rule: string };
  signatureOptionCode?: { code: string; rule: string };
  insure?: { insure: boolean; rule: string };
  residential?: { residential: "residential" | "commercial"; rule: string };
}

/** Each change from the first rule whose conditions hold and that sets it. */
export function quoteChanges(rules: readonly ShippingRuleData[], facts: OrderFacts): QuoteChanges {
  const changes: QuoteChanges = {};
  for (const rule of rules) {
    const { box, signatureOptionCode, insure, residential } = rule.actions;
    if (box === null && signatureOptionCode === null && insure === null && residential === null) continue;
    if (!conditionsHold(rule.conditions, facts)) continue;
    if (box !== null) changes.box ??= { name: box, rule: rule.name };
    if (signatureOptionCode !== null) changes.signatureOptionCode ??= { code: signatureOptionCode, rule: rule.name };
    if (insure !== null) changes.insure ??= { insure, rule: rule.name };
    if (residential !== null) changes.residential ??= { residential, rule: rule.name };
  }
  return changes;
}

/** The changes in one line for the shipment's packing note: "Rule 'Fragile': box Large box, signature; rule 'Worth it': insured". */
export function describeQuoteChanges(changes: QuoteChanges): string | null {
  const byRule = new Map<string, string[]>();
  const add = (rule: string, word: string) => byRule.set(rule, [...(byRule.get(rule) ?? []), word]);
  if (changes.box) add(changes.box.rule, `box ${changes.box.name}`);
  if (changes.signatureOptionCode) add(changes.signatureOptionCode.rule, "signature required");
  if (changes.insure) add(changes.insure.rule, changes.insure.insure ? "insured" : "not insured");
  if (changes.residential) add(changes.residential.rule, changes.residential.residential);
  if (byRule.size === 0) return null;
  return [...byRule].map(([rule, words], index) => `${index === 0 ? "Rule" : "rule"} '${rule}': ${words.join(", ")}`).join("; ");
}

/** The mapping settings for one order with what the rules change: a rule's box (when Settings still have it) is used over product presets. */
export function withQuoteChanges(mapping: MappingSettings, changes: QuoteChanges): MappingSettings {
  const box = changes.box && (mapping.boxes ?? [mapping.box]).find((candidate) => candidate.name === changes.box!.name);
  return {
    ...mapping,
    ...(box ? { box, boxByRule: true } : {}),
    ...(changes.signatureOptionCode ? { signatureOptionCode: changes.signatureOptionCode.code } : {}),
    ...(changes.insure ? { insure: changes.insure.insure } : {}),
    ...(changes.residential ? { residential: changes.residential.residential } : {}),
    rulesNote: describeQuoteChanges(changes),
  };
}

/** A rule's pick, or why its action cannot be met for these rates. */
type ActionOutcome = { ok: true; pick: RatePick } | { ok: false; why: string };

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function applyRateAction(rates: readonly RateCandidate[], action: Exclude<RateAction, { kind: "none" }>, inputs: RuleInputs): ActionOutcome {
  const names = inputs.names ?? NO_NAMES;
  let offered: readonly RateCandidate[] = rates;
  if (action.kind === "service") {
    offered = rates.filter((rate) => rate.carrierCode === action.service.carrierCode && rate.serviceCode === action.service.serviceCode);
    if (offered.length === 0) return { ok: false, why: "its service was not quoted" };
  } else if (action.kind === "cheapest" || action.kind === "fastest") {
    const carriers = action.carriers;
    const services = action.kind === "cheapest" ? action.services : [];
    if (carriers.length > 0 || services.length > 0) {
      offered = rates.filter(
        (rate) =>
          carriers.includes(rate.carrierCode) ||
          services.some((service) => service.carrierCode === rate.carrierCode && service.serviceCode === rate.serviceCode),
      );
      if (offered.length === 0) {
        const who = [
          ...carriers.map((code) => carrierName(names, code)),
          ...services.map((service) => `${carrierName(names, service.carrierCode)} ${service.serviceCode}`),
        ];
        return { ok: false, why: `no rate from ${listed(who, "services")}` };
      }
    }
  }
  const ceiling = action.maxAmount;
  const within = ceiling === null ? offered : offered.filter((rate) => compareAmounts(rate.totalAmount, ceiling) <= 0);
  if (within.length === 0) return { ok: false, why: `every rate is over its ${formatMoney(ceiling!, offered[0]!.currency)} ceiling` };
  switch (action.kind) {
    case "service":
    case "cheapest":
      return { ok: true, pick: pickRate(within, { kind: "cheapest" })! };
    case "fastest":
      return { ok: true, pick: pickRate(within, { kind: "fastest" }, inputs)! };
    case "match": {
      if (!inputs.paid) return { ok: false, why: "the order has no shipping line to match" };
      // The ceiling is applied above; the match rule's own is then the dearest rate left.
      const dearest = within.reduce((top, rate) => (compareAmounts(rate.totalAmount, top) > 0 ? rate.totalAmount : top), within[0]!.totalAmount);
      return { ok: true, pick: pickRate(within, { kind: "match", maxAmount: dearest }, inputs)! };
    }
  }
}

/** What the shop's rules read for one order: the shop-wide rule's inputs, the shipping rules and the order's facts. */
export interface RulesInputs extends RuleInputs {
  rules?: readonly ShippingRule[];
  /** Null when the order is not in the mirror: only the shop-wide rule applies. */
  facts?: OrderFacts | null;
}

/** The rule that picked a shipment's rate, or null for the shop-wide rule. */
export interface RulePick extends RatePick {
  ruleId: string | null;
}

/**
 * The rate the shop's rules pick for one shipment of an order with `facts`: the first rule whose conditions hold
 * and whose rate action can be met, else the shop-wide rule. The reason names the rule, its conditions, the
 * service and why ("Rule 'Heavy to EU' (over 5 lb, to Germany): MRX Express, cheapest of 2 rates"), and the rules
 * passed over because their action could not be met. Null when there is no rate.
 */
export function pickRateByRules(
  rates: readonly RateCandidate[],
  rules: readonly ShippingRule[],
  facts: OrderFacts | null,
  shopRule: RateRule,
  inputs: RuleInputs = {},
): RulePick | null {
  if (rates.length === 0) return null;
  const names = inputs.names ?? NO_NAMES;
  const passed: string[] = [];
  for (const rule of facts ? rules : []) {
    if (rule.actions.rate.kind === "none" || !conditionsHold(rule.conditions, facts!)) continue;
    const outcome = applyRateAction(rates, rule.actions.rate, inputs);
    if (!outcome.ok) {
      passed.push(`rule '${rule.name}' skipped: ${outcome.why}`);
      continue;
    }
    const rate = rates.find((candidate) => candidate.quoteId === outcome.pick.quoteId)!;
    const service = `${carrierName(names, rate.carrierCode)} ${rate.serviceDescription}`;
    const skipped = passed.length > 0 ? ` (${passed.join("; ")})` : "";
    return {
      quoteId: rate.quoteId,
      reason: `Rule '${rule.name}' (${describeConditions(rule.conditions, facts!.currency)}): ${service}, ${lowerFirst(outcome.pick.reason)}${skipped}`,
      ruleId: rule.id,
    };
  }
  const pick = pickRate(rates, shopRule, inputs)!;
  if (rules.length === 0) return { ...pick, ruleId: null };
  const why = passed.length > 0 ? `No rule could pick (${passed.join("; ")})` : "No rule matched";
  return { quoteId: pick.quoteId, reason: `${why}; shop-wide rule: ${lowerFirst(pick.reason)}`, ruleId: null };
}
