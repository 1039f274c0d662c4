import { createContext, useContext, useMemo, type ReactNode } from "react";
import { FALLBACK_TIME_ZONE, formatDate, formatDateTime } from "../locale/shop-time";

/**
 * The shop's time zone for every page under the app's layout (app/routes/app.tsx reads it once per document):
 * components write dates and times through useShopTime, never with toLocaleString, so every page uses one
 * format in one zone, on the server and in the browser alike.
 */
const ShopTimeZone = createContext<string>(FALLBACK_TIME_ZONE);

export function ShopTimeProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ShopTimeZone.Provider value={timeZone}>{children}</ShopTimeZone.Provider>;
}

export interface ShopTime {
  timeZone: string;
  /** "Nov 27, 2026, 9:10 AM" in the shop's time zone ("—" for none). */
  dateTime: (value: string | Date | null | undefined) => string;
  /** "Nov 27, 2026" in the shop's time zone ("—" for none). */
  date: (value: string | Date | null | undefined) => string;
}

export function useShopTime(): ShopTime {
  const timeZone = useContext(ShopTimeZone);
  return useMemo(
    () => ({
      timeZone,
      dateTime: (value: string | Date | null | undefined) => formatDateTime(value, timeZone),
      date: (value: string | Date | null | undefined) => formatDate(value, timeZone),
    }),
    [timeZone],
  );
}

/** A time as the shop reads it, in a <time> element a test (and a screen reader) can find by its instant. */
export function ShopDateTime({ value, dateOnly = false }: { value: string | Date | null | undefined; dateOnly?: boolean }) {
  const time = useShopTime();
  if (value == null) return <>—</>;
  const iso = value instanceof Date ? value.toISOString() : value;
  return (
    <time dateTime={iso} data-shop-time={dateOnly ? "date" : "date-time"}>
      {dateOnly ? time.date(value) : time.dateTime(value)}
    </time>
  );
}
