import type { OrderShippingLine } from "../orders/types";
import { formatMoney } from "../shipping/money";
import { speedClass, type SpeedClass } from "./rate-rule";

/**
 * The shipping the customer paid for (the order's shipping line: "USPS Priority Mail · 9.85 USD") beside the
 * rate Consign picked, and whether the pick falls short of it: a slower speed class than the line's title
 * promises. A pick that costs less than the customer paid is no shortfall (the merchant keeps the difference),
 * so it is not flagged. Pure; speed classes are the rate rule's, so the flag and the "match the customer's
 * choice" rule judge speed the same way.
 */

/** The order's shipping line: its title as the customer saw it at checkout, and what they paid. */
export type PaidShipping = OrderShippingLine;

/** The speed class a shipping line promises, read from its title as service names are read. */
export function paidSpeed(paid: PaidShipping): SpeedClass {
  return speedClass({ serviceCode: "", serviceDescription: paid.title });
}

/** "USPS Priority Mail · $9.85" */
export function describePaid(paid: PaidShipping): string {
  return `${paid.title} · ${formatMoney(paid.amount, paid.currency)}`;
}

export interface ChoiceComparison {
  /** The picked service is in a slower speed class than the customer's choice. */
  slower: boolean;
  /** What the merchant reads beside the pick, or null when it matches the customer's choice. */
  flag: string | null;
}

/** Nothing to flag: no shipping line, or nothing picked yet. */
export const NO_FLAGS: ChoiceComparison = { slower: false, flag: null };

export function compareWithPaid(
  rate: { serviceCode: string; serviceDescription: string; totalAmount: string; currency: string },
  paid: PaidShipping | null,
): ChoiceComparison {
  if (!paid) return NO_FLAGS;
  const promised = paidSpeed(paid);
  const picked = speedClass(rate);
  const slower = picked.rank > promised.rank;
  return { slower, flag: slower ? `Picked service is slower (${picked.label}) than the customer's ${paid.title} (${promised.label})` : null };
}
