import type { Context } from "../context";
import type { RateRule } from "../settings/settings";
import { observedTransitLookup } from "../tracking/tracking-views.server";
import { paidShippingByOrder } from "./customer-choice.server";
import type { RuleInputs } from "./rate-rule";
import { loadServiceNames } from "./service-names.server";

/**
 * What the shop's rate rule reads besides the rates, loaded once for the orders a run, a re-quote or Apply
 * rule settles: observed transit times (Fastest), the shipping each customer paid for (Match), and the
 * carrier names its reasons use. Returns each order's inputs.
 */
export async function loadRuleInputs(ctx: Context, rule: RateRule, orderIds: readonly string[]): Promise<(orderId: string) => RuleInputs> {
  const [observed, paid, names] = await Promise.all([
    rule.kind === "fastest" ? observedTransitLookup(ctx) : undefined,
    rule.kind === "match" ? paidShippingByOrder(ctx, orderIds) : undefined,
    loadServiceNames(ctx),
  ]);
  return (orderId) => ({ observed, paid: paid?.get(orderId) ?? null, names });
}
