import { z } from "zod";

/**
 * The one way Consign writes a date or a time for people: in the shop's time zone (Shopify's
 * `shop.ianaTimezone`, kept with the shop's profile), as "Nov 27, 2026, 9:10 AM", or "Nov 27, 2026" for a
 * day. Server and browser format with the same zone, so a page hydrates with the text it was served with.
 * Files for machines (the CSV, file names) use the shop's day as "2026-11-27".
 */

/** A time zone the runtime can format in ("America/New_York"); anything else is refused. */
export const TimeZone = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: "must be an IANA time zone" },
);

/** Until Shopify's answer is known: UTC, said as such. */
export const FALLBACK_TIME_ZONE = "UTC";

const formats = new Map<string, Intl.DateTimeFormat>();
function format(kind: "dateTime" | "date" | "day", timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let found = formats.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions =
      kind === "day"
        ? { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }
        : kind === "date"
          ? { timeZone, year: "numeric", month: "short", day: "numeric" }
          : { timeZone, year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" };
    found = new Intl.DateTimeFormat(kind === "day" ? "en-CA" : "en-US", options);
    formats.set(key, found);
  }
  return found;
}

const asDate = (value: string | Date): Date | null => {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "Nov 27, 2026, 9:10 AM" in the zone; "—" for no time. */
export function formatDateTime(value: string | Date | null | undefined, timeZone: string): string {
  const date = value == null ? null : asDate(value);
  // Intl writes a narrow no-break space before AM/PM; a plain one reads and searches the same everywhere.
  return date
    ? format("dateTime", timeZone)
        .format(date)
        .replace(/\u202f/g, " ")
    : "—";
}

/** "Nov 27, 2026" in the zone; "—" for no date. */
export function formatDate(value: string | Date | null | undefined, timeZone: string): string {
  const date = value == null ? null : asDate(value);
  return date ? format("date", timeZone).format(date) : "—";
}

/** The shop's day of `value` as "2026-11-27", for file names and CSV cells. */
export function dayInZone(value: string | Date, timeZone: string): string {
  const date = asDate(value);
  return date ? format("day", timeZone).format(date) : "";
}
