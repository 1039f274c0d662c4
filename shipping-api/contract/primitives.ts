import { z } from "zod";

/**
 * Scalar building blocks of the Shipping API contract: decimals, numeric strings,
 * dates, timestamps, country codes and path parameters.
 */

const DECIMAL_PARTS = /^(-?)(\d+)(?:\.(\d+))?$/;
const POSITIVE_NUMERIC_PATTERN = /^\d+(\.\d+)?$/;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Longest decimal string taken: far beyond any amount or measure, short enough to cost nothing to check. */
export const MAX_DECIMAL_LENGTH = 40;

/** A decimal that must travel as a JSON string (`"12.50"`), never as a number. */
export const DecimalString = z
  .string()
  .max(MAX_DECIMAL_LENGTH, `must be at most ${MAX_DECIMAL_LENGTH} characters`)
  .regex(DECIMAL_PARTS, 'must be a decimal string like "12.50"');

/**
 * A decimal as the spec allows it on the wire: a JSON string (`"12.50"`) or a finite number (`12.5`).
 *
 * Parsed output is always one canonical form, a decimal string, so consumers never juggle
 * both: numbers are written out in plain notation (`1e-7` becomes `"0.0000001"`), strings are
 * kept as sent (trailing zeros included, `"12.50"` stays `"12.50"`). Convert with `Number()` or
 * a decimal library at the point of arithmetic. The service emits money as strings with two
 * decimals (see {@link formatMoney}).
 */
export const Decimal = z.union([DecimalString, z.number()], { error: "must be a decimal (JSON string or finite number)" }).transform(toDecimalString);

/**
 * An amount of money that cannot be negative (insured and declared values, unit values, prepay settings):
 * a {@link Decimal} without a minus sign, so `-0.0001` is refused even though it rounds to zero cents.
 */
export const Money = Decimal.refine((value) => !value.startsWith("-"), "must not be negative");

/** Writes a finite number or decimal string as a plain decimal string (no exponent). */
export function toDecimalString(value: string | number): string {
  if (typeof value === "string") return value;
  return value.toLocaleString("en-US", { useGrouping: false, maximumFractionDigits: 20 });
}

/**
 * Money as the service emits it: a string with exactly two decimals, e.g. `"12.50"`. Rounds
 * half away from zero on the decimal digits (`1.005` → `"1.01"`), not on the binary double.
 */
export function formatMoney(value: string | number): string {
  const match = DECIMAL_PARTS.exec(toDecimalString(value));
  if (!match) throw new RangeError(`not a decimal: ${String(value)}`);
  const [, sign, whole = "0", fraction = ""] = match;
  const roundUp = Number(fraction[2] ?? "0") >= 5 ? 1n : 0n;
  const cents = BigInt(whole + fraction.padEnd(2, "0").slice(0, 2)) + roundUp;
  const digits = cents.toString().padStart(3, "0");
  const amount = `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  return sign === "-" && cents !== 0n ? `-${amount}` : amount;
}

const positiveNumericString = (what: string) =>
  z
    .string()
    .max(MAX_DECIMAL_LENGTH, `must be at most ${MAX_DECIMAL_LENGTH} characters`)
    .regex(POSITIVE_NUMERIC_PATTERN, `must be a positive ${what} written as a numeric string`)
    .refine((value) => Number(value) > 0, `must be a positive ${what} written as a numeric string`);

/** Weight of a piece or item, a positive numeric JSON string such as `"2.5"`. */
export const Weight = positiveNumericString("weight");
/** Length, width or height, a positive numeric JSON string such as `"10"`. */
export const Dimension = positiveNumericString("dimension");

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A real calendar date `YYYY-MM-DD` (`2026-02-30` is refused). */
export const IsoDate = z.string().refine((value) => {
  const match = DATE_PATTERN.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}, "must be a real date YYYY-MM-DD");

/** A timestamp `YYYY-MM-DD HH:MM:SS` with a real date and a valid time of day. */
export const Timestamp = z.string().refine((value) => {
  const match = TIMESTAMP_PATTERN.exec(value);
  return (
    match !== null &&
    isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) &&
    Number(match[4]) < 24 &&
    Number(match[5]) < 60 &&
    Number(match[6]) < 60
  );
}, "must be a timestamp YYYY-MM-DD HH:MM:SS");

/** ISO 3166-1 alpha-2 country code, two uppercase letters. */
export const CountryCode = z.string().regex(/^[A-Z]{2}$/, "must be a two-letter uppercase country code");

/** Countries whose `state` must be a two-letter code. */
export const COUNTRIES_WITH_STATE_CODES: readonly string[] = ["US", "CA"];
const STATE_CODE_PATTERN = /^[A-Z]{2}$/;

/** Issue raised on `state` when a US or CA address does not carry a two-letter code. */
export function checkStateCode(address: { country?: string | null; state?: string | null }, ctx: z.RefinementCtx): void {
  if (address.country == null || !COUNTRIES_WITH_STATE_CODES.includes(address.country)) return;
  if (address.state == null || !STATE_CODE_PATTERN.test(address.state)) {
    ctx.addIssue({ code: "custom", path: ["state"], message: "must be a two-letter code for US and CA" });
  }
}

/** Identifier assigned by the service (quoteId, batchId): a positive safe integer (zod's `int()` is safe-only). */
export const Id = z.number().int("must be a positive integer").positive("must be a positive integer");

/**
 * A positive integer path parameter: a number, or a string of digits as it arrives in a URL
 * (`"42"`); output is a number. Stricter than `z.coerce` (refuses `"0x10"`, `"1e3"`, `" 7"`), and
 * digits beyond the safe-integer range are refused rather than rounded to another id.
 */
export const IdParam = z
  .union([Id, z.string().regex(/^[1-9]\d*$/, "must be a positive integer")], { error: "must be a positive integer" })
  .transform(Number)
  .pipe(Id);

/**
 * Longest text a request may carry in one field (names, address lines, codes, references, SKUs, passwords):
 * Shopify's own limit for these. With {@link MAX_DESCRIPTION_LENGTH} and the array limits it bounds what one
 * request can cost the service.
 */
export const MAX_TEXT_LENGTH = 255;
/** Longest free-text description (content description, invoice item description, package marks). */
export const MAX_DESCRIPTION_LENGTH = 1000;

/** Text of at most {@link MAX_TEXT_LENGTH} characters. */
export const Text = z.string().max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);
/** Free text of at most {@link MAX_DESCRIPTION_LENGTH} characters. */
export const Description = z.string().max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

/** A required non-empty string of at most {@link MAX_TEXT_LENGTH} characters, e.g. `customerId`, `bookNumber`. */
export const NonEmptyString = Text.min(1, "must not be empty");

/** An email address of at most 254 characters (RFC 5321's limit). */
export const Email = z.email().max(254, "must be at most 254 characters");
