import { sumAmounts } from "../shipping/money";

/** What the picked rates add up to, per carrier: how many shipments and the sum in each currency. */
export interface CarrierTotal {
  carrierCode: string;
  count: number;
  amounts: Array<{ currency: string; total: string }>;
}

export function carrierTotals(picked: ReadonlyArray<{ carrierCode: string; currency: string; totalAmount: string }>): CarrierTotal[] {
  const byCarrier = new Map<string, Map<string, string[]>>();
  for (const rate of picked) {
    const currencies = byCarrier.get(rate.carrierCode) ?? new Map<string, string[]>();
    currencies.set(rate.currency, [...(currencies.get(rate.currency) ?? []), rate.totalAmount]);
    byCarrier.set(rate.carrierCode, currencies);
  }
  return [...byCarrier.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([carrierCode, currencies]) => ({
      carrierCode,
      count: [...currencies.values()].reduce((sum, amounts) => sum + amounts.length, 0),
      amounts: [...currencies.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amounts]) => ({ currency, total: sumAmounts(amounts) })),
    }));
}
