import { SUBDIVISIONS } from "./subdivisions";

/**
 * Countries and provinces by name, for pages that are not an address: "United States" for "US", "Tokyo" for
 * "JP-13". Countries come from the runtime's own ISO 3166 names (Intl.DisplayNames, in English as the app's
 * pages are); provinces from the name Shopify gives the address (MailingAddress.province), else from ISO
 * 3166-2's names (./subdivisions), else its code. Carriers' scan places go through carrierPlaceName.
 */

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** "United States" for "US"; the text itself when it is not a two-letter country code the runtime knows. */
export function countryName(code: string | null | undefined): string {
  if (!code) return "";
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return code;
  // At most 26 × 26 two-letter codes; Intl.DisplayNames takes tens of microseconds a call, and a quote run
  // checks thousands of addresses.
  let name = countryNames.get(upper);
  if (name === undefined) {
    try {
      name = regions.of(upper) ?? null;
    } catch {
      name = null;
    }
    countryNames.set(upper, name);
  }
  return name ?? code;
}

/** Each code's name as the runtime gives it, or null where it refused the code. */
const countryNames = new Map<string, string | null>();

const isCountryCode = (text: string) => /^[A-Z]{2}$/.test(text) && countryName(text) !== text;

/**
 * "New York" for the country "US" and "NY" or "US-NY"; "Tokyo" for "JP" and "JP-13"; null when the code is not
 * one of the country's subdivisions this app knows.
 */
export function subdivisionName(countryCode: string | null | undefined, code: string | null | undefined): string | null {
  const country = countryCode?.trim().toUpperCase() ?? "";
  const upper = code?.trim().toUpperCase() ?? "";
  const local = upper.startsWith(`${country}-`) ? upper.slice(country.length + 1) : upper;
  return SUBDIVISIONS[country]?.[local] ?? null;
}

/**
 * The province's name as Shopify gave it, else its name from its code in `countryCode`, else its code ("NY"),
 * for an order read before names were kept.
 */
export function provinceName(province: { name?: string | null; code?: string | null }, countryCode?: string | null): string {
  return province.name?.trim() || subdivisionName(countryCode, province.code) || province.code?.trim() || "";
}

/** "Brooklyn, New York, United States": a place in a list, each part named, the empty ones left out. */
export function placeName(place: { city?: string | null; province?: string | null; provinceCode?: string | null; countryCode?: string | null }): string {
  return [place.city?.trim(), provinceName({ name: place.province, code: place.provinceCode }, place.countryCode), countryName(place.countryCode)]
    .filter((part): part is string => Boolean(part))
    .join(", ");
}

/** One part of a carrier's place, in words: a subdivision code ("US-NY", or "TN" in `country`) by its name. */
function carrierPart(part: string, country: string): string {
  const iso = /^([A-Z]{2})-[A-Z0-9]{1,3}$/.exec(part);
  if (iso) return subdivisionName(iso[1], part) ?? part;
  return /^[A-Z0-9]{1,3}$/.test(part) ? (subdivisionName(country, part) ?? part) : part;
}

/**
 * Where a carrier scanned a parcel, in words: "MEMPHIS, Tennessee, United States" for the area "MEMPHIS, TN" in
 * "US", "New York, United States" for "US-NY", "Germany" for "DE". The carrier's own words (its city, a place
 * already named) are kept as written. `area` may end with the country's code, as a shipment's kept latest place
 * does ("MEMPHIS, TN, US"); `countryCode` is the event's country when known apart. Empty for no place.
 */
export function carrierPlaceName(area: string | null | undefined, countryCode?: string | null): string {
  const parts = (area ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  let country = countryCode?.trim().toUpperCase() ?? "";
  const last = parts.at(-1)?.toUpperCase() ?? "";
  if (isCountryCode(last) && (!country || last === country)) {
    country = last;
    parts.pop();
  }
  const named: string[] = [];
  for (const part of parts) {
    const upper = part.toUpperCase();
    if (upper === country) continue;
    const iso = /^([A-Z]{2})-/.exec(upper);
    if (!country && iso && isCountryCode(iso[1]!)) country = iso[1]!;
    const words = carrierPart(part, country);
    if (!named.some((seen) => seen.toLowerCase() === words.toLowerCase())) named.push(words);
  }
  const nation = countryName(country);
  if (nation && !named.some((seen) => seen.toLowerCase() === nation.toLowerCase())) named.push(nation);
  return named.join(", ");
}
