import type { WeightUnit } from "../../shipping-api/contract";

/**
 * Exact weight arithmetic. Shopify reports weights as floats in GRAMS, KILOGRAMS, OUNCES or POUNDS; the
 * Shipping API takes numeric strings in g, kg, oz or lb. Sums are kept in integer nanograms (1 oz =
 * 28,349,523,125 ng and 1 lb = 453,592,370,000 ng exactly), so no unit conversion loses or invents weight,
 * and the result is rounded *up* at the last printed decimal: a 0.3 oz item never ships as 0 lb, and a
 * carrier never finds a package heavier than declared.
 */
export type ShopifyWeightUnit = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";

const NANOGRAMS: Record<ShopifyWeightUnit | WeightUnit, bigint> = {
  GRAMS: 1_000_000_000n,
  g: 1_000_000_000n,
  KILOGRAMS: 1_000_000_000_000n,
  kg: 1_000_000_000_000n,
  OUNCES: 28_349_523_125n,
  oz: 28_349_523_125n,
  POUNDS: 453_592_370_000n,
  lb: 453_592_370_000n,
};

/** Decimals printed per unit: fine enough for a postage scale, coarse enough to read. */
const PRINTED_DECIMALS: Record<WeightUnit, number> = { g: 0, kg: 3, oz: 2, lb: 3 };

/** Shopify's weight unit in the Shipping API's vocabulary. */
export const API_WEIGHT_UNIT: Record<ShopifyWeightUnit, WeightUnit> = { GRAMS: "g", KILOGRAMS: "kg", OUNCES: "oz", POUNDS: "lb" };

/** A weight in nanograms. Values carry at most 9 decimals (Shopify sends doubles such as 0.1). */
export function toNanograms(value: number, unit: ShopifyWeightUnit | WeightUnit): bigint {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`weight must be a non-negative number, got ${value}`);
  const [whole = "0", fraction = ""] = value.toFixed(9).split(".");
  const scaled = BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
  // scaled is value × 10^9; multiply by the unit's nanograms and divide back, rounding up.
  return ceilDiv(scaled * NANOGRAMS[unit], 1_000_000_000n);
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/**
 * Nanograms as a numeric string in `unit`, rounded up (or down, for weights that must not exceed a
 * total, such as invoice lines) at the unit's printed decimals.
 */
export function formatWeight(nanograms: bigint, unit: WeightUnit, rounding: "up" | "down" = "up"): string {
  const decimals = PRINTED_DECIMALS[unit];
  const scale = 10n ** BigInt(decimals);
  const numerator = nanograms * scale;
  const units = rounding === "up" ? ceilDiv(numerator, NANOGRAMS[unit]) : numerator / NANOGRAMS[unit];
  if (decimals === 0) return units.toString();
  const text = units.toString().padStart(decimals + 1, "0");
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** Nanograms → a float in `unit`, for comparisons against limits (not for the wire). */
export function weightIn(nanograms: bigint, unit: WeightUnit): number {
  return Number(nanograms) / Number(NANOGRAMS[unit]);
}
