import type { Context } from "../context";
import { loadSettings } from "../settings/account.server";
import type { RateCandidate } from "../quoting/rate-rule";
import { loadRuleInputs } from "../quoting/rule-inputs.server";
import { pickRateByRules, type RulePick } from "../quoting/shipping-rules";

/**
 * Automation's one way to pick a rate by the shop's rules (issue 25): for one order's shipment and its rates
 * (quoted with the rules' box, signature, insurance and residential already applied, as a quote run maps
 * them), the rate the shop's shipping rules pick, the shop-wide rule of Settings last, with its reason
 * ("Rule 'Heavy to EU' (over 5 lb, to Germany): MRX Express, cheapest of 2 rates"). Null when there is no rate.
 * Quote runs, re-quotes and Apply rule pick the same way (app/quoting/rate-choice.ts, rate-pick.server.ts).
 */
export async function pickByRules(ctx: Context, orderId: string, rates: readonly RateCandidate[]): Promise<RulePick | null> {
  const { rateRule } = await loadSettings(ctx);
  const inputs = (await loadRuleInputs(ctx, rateRule, [orderId]))(orderId);
  return pickRateByRules(rates, inputs.rules ?? [], inputs.facts ?? null, rateRule, inputs);
}
