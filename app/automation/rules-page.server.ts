import { z } from "zod";
import type { Context } from "../context";
import { loadOrdersWithCustoms } from "../orders/customs.server";
import { checkConditions, describeConditions, orderFacts, type RateAction, type ShippingRule, type ShippingRuleData } from "../quoting/shipping-rules";
import { deleteShippingRule, loadShippingRules, reorderShippingRules, saveShippingRule } from "../quoting/shipping-rules.server";
import { describeRule } from "../quoting/rate-rule";
import { loadSettings } from "../settings/account.server";
import { buildCatalog, type Catalog } from "../settings/catalog";
import { readAccountCatalog } from "../settings/settings-page.server";
import type { ShippingSettings } from "../settings/settings";
import { formatMoney } from "../shipping/money";
import { carrierName, serviceNamesOf, NO_NAMES, type ServiceNames } from "../shipping/service-names";
import { plural } from "../plural";
import type { Outcome } from "../outcome";
import type { FieldErrors } from "../field-errors";
import { parseRuleForm, ruleFormValues, ruleRefused, type RuleFormValues } from "./rule-form";
import { latestRatesCurrency } from "../shipping/stored-rates.server";

/**
 * The shipping rules page (issue 25 §1): the shop's rules in their order, each with what it does and how many
 * of the open orders it would match; adding, editing, deleting and reordering them; and testing a rule on one
 * order before it is saved.
 */

/** Open orders the preview counts: the mirror's latest this many (enough to judge a rule, quick to read). */
export const PREVIEW_ORDERS = 500;
/** Orders offered for "Test on an order". */
const TEST_ORDERS = 50;

export interface RuleRow {
  id: string;
  name: string;
  /** "to Germany or France, from 5 lb" */
  when: string;
  /** "cheapest of Meridian Express; box Large box" */
  does: string;
  /** Open orders (of the previewed ones) whose conditions hold. */
  matches: number;
  values: RuleFormValues;
}

export interface RulesPage {
  rules: RuleRow[];
  /** How many open orders the preview read. */
  previewed: number;
  /** Recent open orders to test a rule on. */
  orders: Array<{ id: string; name: string }>;
  boxes: string[];
  catalog: Catalog | null;
  /** The shop-wide rule in words: the catch-all, last. */
  shopRule: string;
  currency: string;
}

const ceilingWords = (action: RateAction, currency: string) =>
  action.kind !== "none" && action.maxAmount !== null ? ` up to ${formatMoney(action.maxAmount, currency)}` : "";

/** What a rule does, in a few words: "Cheapest of MRX up to $20.00; box Large box; insured". */
export function describeActions(rule: ShippingRuleData, names: ServiceNames, currency: string): string {
  const { rate, box, signatureOptionCode, insure, residential } = rule.actions;
  const carriers = (codes: readonly string[]) => (codes.length > 0 ? ` of ${codes.map((code) => carrierName(names, code)).join(", ")}` : "");
  const picks =
    rate.kind === "none"
      ? null
      : rate.kind === "service"
        ? `${carrierName(names, rate.service.carrierCode)} ${names.services[`${rate.service.carrierCode}/${rate.service.serviceCode}`] ?? rate.service.serviceCode}`
        : rate.kind === "cheapest"
          ? `Cheapest${carriers(rate.carriers)}`
          : rate.kind === "fastest"
            ? `Fastest${carriers(rate.carriers)}`
            : "Match the customer's choice";
  const words = [
    picks && `${picks}${ceilingWords(rate, currency)}`,
    box && `box ${box}`,
    signatureOptionCode && "signature required",
    insure !== null && (insure ? "insured" : "not insured"),
    residential,
  ].filter(Boolean);
  const said = words.join("; ");
  return said.charAt(0).toUpperCase() + said.slice(1);
}

async function openOrders(ctx: Context, take: number) {
  const { db, shop } = ctx;
  const rows = await db.mirrorOrder.findMany({ where: { shop, cancelledAt: null }, orderBy: { orderCreatedAt: "desc" }, take, select: { id: true } });
  return loadOrdersWithCustoms(
    ctx,
    rows.map((row) => row.id),
  );
}

const factsOf = (settings: ShippingSettings) => ({ senderCountry: settings.sender?.country ?? "", packagingWeight: settings.packagingWeight });

export async function loadRulesPage(ctx: Context): Promise<RulesPage> {
  const [settings, rules, orders, catalog, ratesCurrency] = await Promise.all([
    loadSettings(ctx),
    loadShippingRules(ctx),
    openOrders(ctx, PREVIEW_ORDERS),
    readAccountCatalog(ctx),
    latestRatesCurrency(ctx),
  ]);
  const names = catalog.ok ? serviceNamesOf(catalog.services) : NO_NAMES;
  const currency = ratesCurrency ?? orders[0]?.currencyCode ?? "USD";
  const facts = orders.map((order) => orderFacts(order, factsOf(settings)));
  return {
    rules: rules.map((rule) => ({
      id: rule.id,
      name: rule.name,
      when: describeConditions(rule.conditions, currency),
      does: describeActions(rule, names, currency),
      matches: facts.filter((fact) => checkConditions(rule.conditions, fact).every((check) => check.holds)).length,
      values: ruleFormValues(rule),
    })),
    previewed: orders.length,
    orders: orders.slice(0, TEST_ORDERS).map((order) => ({ id: order.id, name: order.name })),
    boxes: settings.boxes.map((box) => box.name),
    catalog: catalog.ok ? buildCatalog(catalog.services, catalog.providerAccounts) : null,
    shopRule: describeRule(settings.rateRule, { names, currency }),
    currency,
  };
}

/** The rule the form describes, checked against what the shop has; refused on its fields. */
async function parsedRule(ctx: Context, values: unknown) {
  const [settings, catalog] = await Promise.all([loadSettings(ctx), readAccountCatalog(ctx)]);
  return parseRuleForm(values, {
    boxes: settings.boxes.map((box) => box.name),
    services: catalog.ok ? catalog.services.filter((service) => !service.inbound) : null,
    signatures: catalog.ok ? buildCatalog(catalog.services, catalog.providerAccounts).signatureOptions.map((option) => option.code) : null,
  });
}

export type RuleSaved = Outcome<{ message: string }, { fieldErrors: FieldErrors }>;

/** Saves the form as rule `id` (null: a new rule, last before the shop-wide rule). */
export async function saveRuleForm(ctx: Context, id: string | null, values: unknown): Promise<RuleSaved> {
  const parsed = await parsedRule(ctx, values);
  if (!parsed.ok) return parsed;
  const saved = await saveShippingRule(ctx, id, parsed.rule);
  if (!saved) return ruleRefused({ name: "this rule no longer exists; reload the page" });
  return { ok: true, message: `Rule '${parsed.rule.name}' saved` };
}

export async function deleteRule(ctx: Context, id: string): Promise<RuleSaved> {
  if (!(await deleteShippingRule(ctx, id))) return { ok: false, message: "This rule no longer exists. Reload the page.", fieldErrors: {} };
  return { ok: true, message: "Rule deleted" };
}

/** Moves rule `id` one place up or down, or to `position` (0 first) when dragged. */
export async function moveRule(ctx: Context, id: string, to: "up" | "down" | number): Promise<RuleSaved> {
  const ids = (await loadShippingRules(ctx)).map((rule) => rule.id);
  const from = ids.indexOf(id);
  if (from === -1) return { ok: false, message: "This rule no longer exists. Reload the page.", fieldErrors: {} };
  const target = to === "up" ? from - 1 : to === "down" ? from + 1 : to;
  const place = Math.max(0, Math.min(ids.length - 1, target));
  ids.splice(from, 1);
  ids.splice(place, 0, id);
  if (!(await reorderShippingRules(ctx, ids))) return { ok: false, message: "The rules changed meanwhile. Reload the page.", fieldErrors: {} };
  return { ok: true, message: "Rules reordered" };
}

export interface RuleTest {
  orderName: string;
  /** Every rule in order (the tested one in its place, unsaved), with each condition's outcome. */
  rules: Array<{ name: string; tested: boolean; holds: boolean; checks: Array<{ holds: boolean; why: string }> }>;
  /** Which rule would pick the rate, in words (the rates are known only once quoted). */
  verdict: string;
}

export const RuleTestInput = z.object({ orderId: z.string().min(1, "choose an order").max(200), ruleId: z.string().max(100).nullable() });

/** The rule the form describes, unsaved, tested on one open order among the shop's rules. */
export async function testRuleOnOrder(
  ctx: Context,
  { orderId, ruleId }: z.infer<typeof RuleTestInput>,
  values: unknown,
): Promise<Outcome<{ test: RuleTest }, { fieldErrors: FieldErrors }>> {
  const parsed = await parsedRule(ctx, values);
  if (!parsed.ok) return parsed;
  const [settings, kept, [order]] = await Promise.all([loadSettings(ctx), loadShippingRules(ctx), loadOrdersWithCustoms(ctx, [orderId])]);
  if (!order)
    return { ok: false, message: "That order is not among the open orders any more. Choose another.", fieldErrors: { orderId: "choose another order" } };
  const tested: ShippingRule = { id: ruleId ?? "", ...parsed.rule };
  const rules = ruleId && kept.some((rule) => rule.id === ruleId) ? kept.map((rule) => (rule.id === ruleId ? tested : rule)) : [...kept, tested];
  const facts = orderFacts(order, factsOf(settings));
  const rows = rules.map((rule) => {
    const checks = checkConditions(rule.conditions, facts);
    return { name: rule.name, tested: rule === tested, holds: checks.every((check) => check.holds), checks };
  });
  const picker = rows.find((row, index) => row.holds && rules[index]!.actions.rate.kind !== "none");
  const verdict = picker
    ? `${order.name}: rule '${picker.name}' would pick the rate${picker.tested ? " (this rule)" : ""}, unless its action cannot be met by the rates quoted; then the next matching rule.`
    : `${order.name}: no rule picks a rate for it; the shop-wide rule would.`;
  const changed = rows.filter((row, index) => row.holds && rules[index]!.actions.rate.kind === "none").map((row) => `'${row.name}'`);
  const also = changed.length > 0 ? ` Before quoting, ${changed.join(", ")} also ${changed.length === 1 ? "applies" : "apply"}.` : "";
  return { ok: true, test: { orderName: order.name, rules: rows, verdict: `${verdict}${also}` } };
}

/** "3 of 120 open orders" */
export function previewWords(matches: number, previewed: number): string {
  return `${matches} of ${plural(previewed, "open order")}`;
}
