import type { ShipmentQuoteOutcome } from "../../shipping-api/client";
import type { Quote } from "../../shipping-api/contract";
import type { Outcome } from "../outcome";
import { isServiceEnabled, type ShippingSettings } from "../settings/settings";
import { clientFailure, describeQuoteFailure } from "../shipping/quote-failure";
import { sameServiceRate } from "./rate-rule";
import { pickRateByRules, type RulesInputs } from "./shipping-rules";
import { carrierName, NO_NAMES } from "../shipping/service-names";

/**
 * One shipment's quote outcome → what the app keeps: the rates of the services the merchant enabled and
 * the preselected one with its reason, or why there is nothing to pick, in words. Pure; the caller stores it.
 */

export type SelectedBy = "RULE" | "MERCHANT";

/** The rate chosen before a re-quote: kept when its carrier and service are still offered. */
export interface PreviousChoice {
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string;
  selectedBy: SelectedBy;
}

export type RateChoice = Outcome<{ quotes: Quote[]; pick: { quoteId: number; reason: string; selectedBy: SelectedBy } }>;

const MAX_LISTED = 3;

function listed(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED).join("; ");
  return names.length > MAX_LISTED ? `${shown}; and ${names.length - MAX_LISTED} more` : shown;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** `inputs`: what the shop's rules read besides the rates (its shipping rules and the order's facts, observed transit times, the customer's choice, names). */
export function chooseRate(
  outcome: ShipmentQuoteOutcome,
  settings: ShippingSettings,
  previous: PreviousChoice | null = null,
  inputs: RulesInputs = {},
): RateChoice {
  const names = inputs.names ?? NO_NAMES;
  const service = (rate: { carrierCode: string; serviceDescription: string }) => `${carrierName(names, rate.carrierCode)} ${rate.serviceDescription}`;
  if (outcome.status === "failed") return { ok: false, message: describeQuoteFailure(clientFailure(outcome.error)) };
  if (outcome.status === "error") return { ok: false, message: describeQuoteFailure({ category: outcome.errorCategory, message: outcome.error }) };

  const quotes = outcome.quotes.filter((quote) => isServiceEnabled(settings, quote));
  if (quotes.length === 0 && outcome.quotes.length > 0) {
    const offered = outcome.quotes.map(service);
    return { ok: false, message: `Only services you have not enabled can ship this (${listed(offered)}). Enable one in Settings, then choose Re-quote.` };
  }
  if (quotes.length === 0) {
    const first = outcome.quoteErrors[0];
    const reasons = outcome.quoteErrors.map((failure) => `${service(failure)}: ${failure.error}`);
    return { ok: false, message: describeQuoteFailure({ category: first?.errorCategory ?? "", message: listed(reasons) || "no service answered" }) };
  }

  const kept = previous && sameServiceRate(quotes, previous);
  if (previous && kept) {
    return {
      ok: true,
      quotes,
      pick: { quoteId: kept.quoteId, reason: `Same service as before (${service(previous)}), re-quoted`, selectedBy: previous.selectedBy },
    };
  }
  const pick = pickRateByRules(quotes, inputs.rules ?? [], inputs.facts ?? null, settings.rateRule, inputs)!;
  const reason = previous ? `${service(previous)} is no longer offered: ${lowerFirst(pick.reason)}` : pick.reason;
  return { ok: true, quotes, pick: { quoteId: pick.quoteId, reason, selectedBy: "RULE" } };
}
