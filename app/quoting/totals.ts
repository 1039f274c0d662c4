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
function groupedBy<T>(items: readonly T[], key: (item: T) => string): Array<[string, T[]]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The rates summed per currency, currencies in order. */
export function currencyTotals(rates: readonly Priced[]): CurrencyTotal[] {
  return groupedBy(rates, (rate) => rate.currency).map(([currency, group]) => ({ currency, total: sumAmounts(group.map((rate) => rate.totalAmount)) }));
}

export function carrierTotals(picked: ReadonlyArray<Priced & { carrierCode: string }>): CarrierTotal[] {
  return groupedBy(picked, (rate) => rate.carrierCode).map(([carrierCode, rates]) => ({ carrierCode, count: rates.length, amounts: currencyTotals(rates) }));
}
