/**
 * Countries and provinces by name, for pages that are not an address: "United States" for "US", "Tokyo" for
 * "JP-13". Countries come from the runtime's own ISO 3166 names (Intl.DisplayNames, in English as the app's
 * pages are); provinces from the name Shopify gives the address (MailingAddress.province), else its code.
 */

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** "United States" for "US"; the text itself when it is not a two-letter country code the runtime knows. */
export function countryName(code: string | null | undefined): string {
  if (!code) return "";
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return code;
  try {
    return regions.of(upper) ?? code;
  } catch {
    return code;
  }
}

/** The province's name as Shopify gave it, else its code ("NY"), for an order read before names were kept. */
export function provinceName(province: { name?: string | null; code?: string | null }): string {
  return province.name?.trim() || province.code?.trim() || "";
}

/** "Brooklyn, New York, United States": a place in a list, each part named, the empty ones left out. */
export function placeName(place: { city?: string | null; province?: string | null; provinceCode?: string | null; countryCode?: string | null }): string {
  return [place.city?.trim(), provinceName({ name: place.province, code: place.provinceCode }), countryName(place.countryCode)]
    .filter((part): part is string => Boolean(part))
    .join(", ");
}
