import { Currency } from "../shipping-api/contract";

/**
 * Money is integer cents inside the service; decimals exist only on the wire. Currency conversion uses a
 * fixed table so that quotes are reproducible (a local reference service must not drift with markets).
 */

/** Units of each currency per 1 USD, in parts per million (fixed; documented in service/README.md). */
const PPM_PER_USD: Record<Currency, number> = {
  USD: 1_000_000,
  GBP: 790_000,
  CAD: 1_360_000,
  EUR: 920_000,
};

export function isCurrency(value: string): value is Currency {
  return Currency.safeParse(value).success;
}

/** Converts cents between currencies, rounding half away from zero to a whole cent. */
export function convertCents(cents: number, from: Currency, to: Currency): number {
  if (from === to) return cents;
  return roundHalfAwayFromZero((cents * PPM_PER_USD[to]) / PPM_PER_USD[from]);
}

export function roundHalfAwayFromZero(value: number): number {
  // The epsilon absorbs binary noise such as 1.005 * 100 = 100.49999999999999.
  return Math.sign(value) * Math.round(Math.abs(value) + 1e-9);
}

/** "12.3" / 12.3 / "12" → 1230. Null for anything that is not a finite decimal. */
export function parseCents(value: string | number): number | null {
  const number = typeof value === "number" ? value : decimalPattern.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(number)) return null;
  return roundHalfAwayFromZero(number * 100);
}

const decimalPattern = /^-?\d+(\.\d+)?$/;

/**
 * An amount that cannot be negative, in cents: null for anything that is not a finite decimal or that is
 * negative at all, including `-0.0001`, which rounds to zero cents but is no amount the world has.
 */
export function parseNonNegativeCents(value: string | number): number | null {
  const negative = typeof value === "number" ? value < 0 || Object.is(value, -0) : value.trim().startsWith("-");
  return negative ? null : parseCents(value);
}

/** 1230 → "12.30"; -5 → "-0.05". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  return `${sign}${whole}.${fraction}`;
}
