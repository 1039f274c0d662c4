import type { Context } from "../context";
import { loadSettings } from "../settings/account.server";
import type { RateRule } from "../settings/settings";
import { observedTransitLookup } from "../tracking/tracking-views.server";
import { paidShippingByOrder } from "./customer-choice.server";
import type { RulesInputs } from "./shipping-rules";
import { loadOrderFacts, loadShippingRules } from "./shipping-rules.server";
import { loadServiceNames } from "./service-names.server";

/**
 * What the shop's rules read besides the rates, loaded once for the orders a run, a re-quote or Apply rule
 * settles: its shipping rules and each order's facts, observed transit times (Fastest), the shipping each
 * customer paid for (Match), and the carrier names reasons use. Returns each order's inputs.
 */
export async function loadRuleInputs(ctx: Context, rule: RateRule, orderIds: readonly string[]): Promise<(orderId: string) => RulesInputs> {
  const rules = await loadShippingRules(ctx);
  const kinds = new Set([rule.kind, ...rules.map((entry) => entry.actions.rate.kind)]);
  const [observed, paid, names, facts] = await Promise.all([
    kinds.has("fastest") ? observedTransitLookup(ctx) : undefined,
    kinds.has("match") ? paidShippingByOrder(ctx, orderIds) : undefined,
    loadServiceNames(ctx),
    rules.length > 0 ? loadSettings(ctx).then((settings) => loadOrderFacts(ctx, settings, orderIds)) : undefined,
  ]);
  return (orderId) => ({ observed, paid: paid?.get(orderId) ?? null, names, rules, facts: facts?.get(orderId) ?? null });
}
