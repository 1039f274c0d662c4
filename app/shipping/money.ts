/**
 * Exact arithmetic on the Shipping API's decimal strings ("12.50", "7", "-1.25"): rates are compared and
 * totalled as scaled integers, never as floats, so "Cheapest" and carrier totals are right to the cent.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

interface Scaled {
  units: bigint;
  decimals: number;
}

function parse(amount: string): Scaled {
  const match = DECIMAL.exec(amount.trim());
  if (!match) throw new RangeError(`not a decimal amount: ${JSON.stringify(amount)}`);
  const [, sign, whole = "0", fraction = ""] = match;
  const units = BigInt(whole + fraction);
  return { units: sign ? -units : units, decimals: fraction.length };
}

function rescale(value: Scaled, decimals: number): bigint {
  return value.units * 10n ** BigInt(decimals - value.decimals);
}

/** Negative when a < b, 0 when equal, positive when a > b. */
export function compareAmounts(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  const decimals = Math.max(left.decimals, right.decimals);
  const difference = rescale(left, decimals) - rescale(right, decimals);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/** The exact sum, written with at least two decimals ("0.00" for none). */
export function sumAmounts(amounts: readonly string[]): string {
  const parsed = amounts.map(parse);
  const decimals = Math.max(2, ...parsed.map((value) => value.decimals));
  const total = parsed.reduce((sum, value) => sum + rescale(value, decimals), 0n);
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(decimals + 1, "0");
  return `${negative ? "-" : ""}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** For people: "$25.00", "£7.10", "CA$12.00". Display only; comparisons use the exact functions above. */
export function formatMoney(amount: string, currency: string): string {
  return currencyFormat(currency).format(Number(amount));
}

/** One formatter per currency: making an Intl.NumberFormat costs about as much as formatting a hundred amounts with it. */
const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = currencyFormats.get(currency);
  if (!format) currencyFormats.set(currency, (format = new Intl.NumberFormat("en-US", { style: "currency", currency })));
  return format;
}
