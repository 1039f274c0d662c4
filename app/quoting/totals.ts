import { groupedBy } from "../grouped";
import { sumAmounts } from "../shipping/money";

/** What the picked rates add up to, per carrier: how many shipments and the sum in each currency. */
export interface CarrierTotal {
  carrierCode: string;
  count: number;
  amounts: CurrencyTotal[];
}

/** The sum of some rates in one currency. */
export interface CurrencyTotal {
  currency: string;
  total: string;
}

type Priced = { currency: string; totalAmount: string };

/** `items` grouped by `key`, each group in the items' order, the groups sorted by key. */
function sortedGroups<T>(items: readonly T[], key: (item: T) => string): Array<[string, T[]]> {
  return [...groupedBy(items, key).entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The rates summed per currency, currencies in order. */
export function currencyTotals(rates: readonly Priced[]): CurrencyTotal[] {
  return sortedGroups(rates, (rate) => rate.currency).map(([currency, group]) => ({ currency, total: sumAmounts(group.map((rate) => rate.totalAmount)) }));
}

export function carrierTotals(picked: ReadonlyArray<Priced & { carrierCode: string }>): CarrierTotal[] {
  return sortedGroups(picked, (rate) => rate.carrierCode).map(([carrierCode, rates]) => ({ carrierCode, count: rates.length, amounts: currencyTotals(rates) }));
}
