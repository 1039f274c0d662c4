import type { Context } from "../context";
import { databaseOf } from "./db-client.server";

/**
 * Exact sums of money kept as decimal text (a shipment's `shippingCost`), taken by the database so that a busy
 * shop's tens of thousands of labels come back as a few grouped rows. PostgreSQL sums `numeric` exactly. SQLite
 * has no decimal type: each amount is read as a double, scaled to millionths and rounded to an integer, which is
 * exact for any amount under a billion with at most six decimals (money has at most four), and integers sum
 * exactly. Each sum comes with the most decimals among its amounts, so it is written as the app's own
 * `sumAmounts` writes it (at least two).
 */

const SQLITE_SCALE = 6;

/** SQL of the sum of `column` (an expression of decimal text, never null) and of its amounts' most decimals. */
export function decimalSum(ctx: Pick<Context, "db">, column: string): { sum: string; decimals: string } {
  if (databaseOf(ctx) === "sqlite")
    return {
      sum: `CAST(SUM(CAST(ROUND(CAST(${column} AS REAL) * 1${"0".repeat(SQLITE_SCALE)}) AS INTEGER)) AS TEXT)`,
      decimals: `MAX(CASE WHEN instr(${column}, '.') > 0 THEN length(${column}) - instr(${column}, '.') ELSE 0 END)`,
    };
  return {
    sum: `CAST(SUM(CAST(${column} AS numeric)) AS text)`,
    decimals: `MAX(CASE WHEN strpos(${column}, '.') > 0 THEN length(${column}) - strpos(${column}, '.') ELSE 0 END)`,
  };
}

/** The decimal text of a {@link decimalSum}'s two values as the database answered them. */
export function decimalSumText(ctx: Pick<Context, "db">, sum: string, decimals: number | bigint): string {
  const places = Math.max(2, Number(decimals));
  const sqlite = databaseOf(ctx) === "sqlite";
  // SQLite's integer of millionths, written as a decimal; PostgreSQL's numeric is one already.
  const exact = sqlite ? millionths(BigInt(sum)) : sum;
  const negative = exact.startsWith("-");
  const [whole = "0", fraction = ""] = exact.replace("-", "").split(".");
  // Digits past the amounts' own decimals are zeros: cut to them, or padded to two.
  const digits = fraction.padEnd(places, "0").slice(0, places);
  return `${negative && /[1-9]/.test(whole + digits) ? "-" : ""}${whole}.${digits}`;
}

function millionths(units: bigint): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(SQLITE_SCALE + 1, "0");
  return `${negative ? "-" : ""}${text.slice(0, -SQLITE_SCALE)}.${text.slice(-SQLITE_SCALE)}`;
}
