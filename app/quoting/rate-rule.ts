import type { RateRule } from "../settings/settings";
import { describeTransit, type ObservedTransit } from "../tracking/transit-times";
import { compareAmounts, formatMoney } from "../shipping/money";
import { keptAnswers } from "../kept";
import { carrierName, NO_NAMES, type ServiceNames } from "../shipping/service-names";
// The shipping the customer paid for (customer-choice.ts names it PaidShipping; that module builds on this one).
import type { OrderShippingLine as PaidShipping } from "../orders/types";

/**
 * The shop's rate rule (Settings): one rate per shipment, with a one-line reason the merchant can read on
 * the rates page. Pure; every rate of one shipment is in that shipment's currency.
 */

export interface RateCandidate {
  quoteId: number;
  carrierCode: string;
  serviceCode: string;
  serviceDescription: string;
  totalAmount: string;
  currency: string;
  zone?: string | null;
}

export interface RatePick {
  quoteId: number;
  reason: string;
}

/**
 * What the rule reads besides the rates, all optional: the shop's observed transit times (the Fastest rule
 * prefers them to service names), the shipping the customer paid for (the Match rule follows it) and the
 * carrier names its reasons use (codes without them).
 */
export interface RuleInputs {
  observed?: ObservedTransit;
  paid?: PaidShipping | null;
  names?: ServiceNames;
}

/**
 * Speed classes, fastest first. The Shipping API gives no transit times, so speed is a heuristic read from
 * the service's code and description: overnight / next day > express / 2-day > 3-day > priority /
 * expedited > ground / economy. A service whose name says none of these ranks with ground. The first class
 * that matches wins, so "Priority Overnight" is overnight and "Priority Mail Express" is express.
 */
const SPEED_CLASSES = [
  { label: "overnight", pattern: /\b(overnight|next day|same day)\b/ },
  { label: "express", pattern: /\b(express|2 ?day|2nd ?day|two day|second day)\b/ },
  { label: "3-day", pattern: /\b(3 ?day|three day)\b/ },
  { label: "priority", pattern: /\b(priority|expedited)\b/ },
] as const;
const SLOWEST = { label: "ground", rank: SPEED_CLASSES.length };

export interface SpeedClass {
  /** 0 is fastest. */
  rank: number;
  label: string;
}

export function speedClass(rate: Pick<RateCandidate, "serviceCode" | "serviceDescription">): SpeedClass {
  return speedClassOf(`${rate.serviceCode} ${rate.serviceDescription}`);
}

/** Services whose speed classes are kept at most: a run compares thousands of rates among a shop's few services. */
const SPEED_CLASSES_KEPT = 2_000;
const speedClassOf = keptAnswers(
  SPEED_CLASSES_KEPT,
  (name: string) => name,
  (name: string): SpeedClass => {
    const words = name.toLowerCase().replace(/[_-]+/g, " ");
    const rank = SPEED_CLASSES.findIndex((speed) => speed.pattern.test(words));
    return rank === -1 ? SLOWEST : { rank, label: SPEED_CLASSES[rank]!.label };
  },
);

const byPrice = (a: RateCandidate, b: RateCandidate) => compareAmounts(a.totalAmount, b.totalAmount);
const bySpeed = (a: RateCandidate, b: RateCandidate) => speedClass(a).rank - speedClass(b).rank;
/** Last tie-break, so the same rates always give the same pick. */
const byService = (a: RateCandidate, b: RateCandidate) =>
  a.carrierCode.localeCompare(b.carrierCode) || a.serviceCode.localeCompare(b.serviceCode) || a.quoteId - b.quoteId;

/** The rate that comes first by `orders` (each breaking the previous one's ties), the earliest of equals: one pass, no sort. */
function first(rates: readonly RateCandidate[], ...orders: Array<(a: RateCandidate, b: RateCandidate) => number>): RateCandidate {
  const before = (a: RateCandidate, b: RateCandidate) => {
    for (const order of orders) {
      const result = order(a, b);
      if (result !== 0) return result < 0;
    }
    return false;
  };
  let best = rates[0]!;
  for (const rate of rates) if (before(rate, best)) best = rate;
  return best;
}

/** The cheapest of the rates (then the fastest, then by service), with its reason: what the Cheapest rule picks. */
export function cheapest(rates: readonly RateCandidate[]): RatePick {
  const pick = first(rates, byPrice, bySpeed, byService);
  return { quoteId: pick.quoteId, reason: rates.length === 1 ? "The only rate offered" : `Cheapest of ${rates.length} rates` };
}

/** Days a speed class usually takes, to compare a service judged by its name with one the shop has observed. */
const NOMINAL_DAYS = [1, 2, 3, 3, 5] as const;

/**
 * Fastest by observed transit times where the shop has them (median days, from its own deliveries), the name
 * heuristic's nominal days otherwise; ties go to the cheaper rate.
 */
function fastestObserved(rates: readonly RateCandidate[], observed: ObservedTransit): RatePick | null {
  const stats = new Map(rates.map((rate) => [rate.quoteId, observed(rate)]));
  if (![...stats.values()].some(Boolean)) return null;
  const days = (rate: RateCandidate) => stats.get(rate.quoteId)?.medianDays ?? NOMINAL_DAYS[speedClass(rate).rank]!;
  const pick = first(rates, (a, b) => days(a) - days(b), byPrice, byService);
  const seen = stats.get(pick.quoteId);
  const why = seen ? `: ${describeTransit(seen)}` : ` (${speedClass(pick).label}, judged by its name)`;
  return { quoteId: pick.quoteId, reason: `Fastest of ${rates.length} rates${why}` };
}

function fastest(rates: readonly RateCandidate[], observed?: ObservedTransit): RatePick {
  if (rates.length > 1 && observed) {
    const pick = fastestObserved(rates, observed);
    if (pick) return pick;
  }
  const pick = first(rates, bySpeed, byPrice, byService);
  if (rates.length === 1) return { quoteId: pick.quoteId, reason: "The only rate offered" };
  const speed = speedClass(pick);
  const tied = rates.filter((rate) => speedClass(rate).rank === speed.rank).length;
  const tie = tied > 1 ? `; cheapest of ${tied} ${speed.label}` : "";
  return { quoteId: pick.quoteId, reason: `Fastest of ${rates.length} rates (${speed.label}${tie})` };
}

function preferred(rates: readonly RateCandidate[], rule: Extract<RateRule, { kind: "preferred" }>, names: ServiceNames): RatePick {
  const carrier = carrierName(names, rule.carrierCode);
  const offered = rates.filter((rate) => rate.carrierCode === rule.carrierCode);
  const fallback = cheapest(rates);
  if (offered.length === 0) {
    return { quoteId: fallback.quoteId, reason: `Preferred carrier ${carrier} has no rate for this shipment: cheapest instead` };
  }
  const pick = first(offered, byPrice, bySpeed, byService);
  const ceiling = formatMoney(rule.maxAmount, pick.currency);
  if (compareAmounts(pick.totalAmount, rule.maxAmount) > 0) {
    return { quoteId: fallback.quoteId, reason: `Preferred carrier ${carrier} is over your ${ceiling} ceiling: cheapest instead` };
  }
  const among = offered.length > 1 ? `, cheapest of its ${offered.length} rates` : "";
  return { quoteId: pick.quoteId, reason: `Preferred carrier ${carrier}${among}, within your ${ceiling} ceiling` };
}

/**
 * The service nearest the customer's choice (the order's shipping line) by speed class, within the ceiling:
 * the slowest class that is still at least as fast as the one they paid for, cheapest within it; if no
 * service within the ceiling is that fast, the fastest within it. No shipping line, or nothing within the
 * ceiling: the cheapest, saying why.
 */
function match(rates: readonly RateCandidate[], rule: Extract<RateRule, { kind: "match" }>, paid: PaidShipping | null | undefined): RatePick {
  const fallback = cheapest(rates);
  if (!paid) return { quoteId: fallback.quoteId, reason: "The order has no shipping line to match: cheapest instead" };
  const promised = speedClass({ serviceCode: "", serviceDescription: paid.title });
  const ceiling = formatMoney(rule.maxAmount, rates[0]!.currency);
  const within = rates.filter((rate) => compareAmounts(rate.totalAmount, rule.maxAmount) <= 0);
  if (within.length === 0) {
    return { quoteId: fallback.quoteId, reason: `Every rate is over your ${ceiling} ceiling: cheapest instead` };
  }
  const asFast = within.filter((rate) => speedClass(rate).rank <= promised.rank);
  if (asFast.length === 0) {
    const pick = first(within, bySpeed, byPrice, byService);
    return {
      quoteId: pick.quoteId,
      reason: `Nothing as fast as the customer's ${paid.title} (${promised.label}) within your ${ceiling} ceiling: fastest within it (${speedClass(pick).label})`,
    };
  }
  const nearest = Math.max(...asFast.map((rate) => speedClass(rate).rank));
  const candidates = asFast.filter((rate) => speedClass(rate).rank === nearest);
  const pick = first(candidates, byPrice, byService);
  const label = speedClass(pick).label;
  const among = candidates.length > 1 ? `, cheapest of ${candidates.length} ${label} rates` : "";
  return { quoteId: pick.quoteId, reason: `Matches the customer's ${paid.title} (${promised.label}): ${label}${among}, within your ${ceiling} ceiling` };
}

/** The rule's rate for one shipment, or null when there is no rate to pick from. */
export function pickRate(rates: readonly RateCandidate[], rule: RateRule, inputs: RuleInputs = {}): RatePick | null {
  if (rates.length === 0) return null;
  switch (rule.kind) {
    case "cheapest":
      return cheapest(rates);
    case "fastest":
      return fastest(rates, inputs.observed);
    case "preferred":
      return preferred(rates, rule, inputs.names ?? NO_NAMES);
    case "match":
      return match(rates, rule, inputs.paid);
  }
}

/** The cheapest rate of the same carrier and service, if the service is still offered (for re-quotes). */
export function sameServiceRate(rates: readonly RateCandidate[], service: { carrierCode: string; serviceCode: string }): RateCandidate | null {
  const same = rates.filter((rate) => rate.carrierCode === service.carrierCode && rate.serviceCode === service.serviceCode);
  return same.length === 0 ? null : first(same, byPrice, byService);
}

/**
 * The rule in a few words, for the rates page ("Rule: cheapest rate"), the carrier by name and the ceiling
 * in the currency the rates are quoted in.
 */
export function describeRule(rule: RateRule, { names = NO_NAMES, currency }: { names?: ServiceNames; currency: string }): string {
  switch (rule.kind) {
    case "cheapest":
      return "cheapest rate";
    case "fastest":
      return "fastest service (by observed delivery times where there are enough, else judged by its name)";
    case "preferred":
      return `${carrierName(names, rule.carrierCode)} while it costs at most ${formatMoney(rule.maxAmount, currency)}, else the cheapest`;
    case "match":
      return `the service nearest the customer's choice at checkout, up to ${formatMoney(rule.maxAmount, currency)}, else the cheapest`;
  }
}
