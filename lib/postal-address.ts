import { formatAddress } from "localized-address-format";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";

/**
 * A postal address as every printed document writes it: in the destination country's own order (Google's
 * address data for each country, `localized-address-format`), so Germany and France put the postcode before
 * the city, Japan starts at the postcode and prefecture, and the United States ends with "City, ST ZIP".
 * The country's name is the last line, in English, for the carriers that carry it there. Phone numbers are
 * written in international form (`libphonenumber-js`): "+49 30 1234567".
 */
export interface PostalAddress {
  name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  /** Province or state: a code ("CA") or a name. */
  state: string;
  zip: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** Chinese, Japanese and Korean: such an address is written big to small, in its own script's order. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });

/** "Germany" for DE; the code itself when it is not a region the runtime knows. */
export function countryName(code: string): string {
  try {
    return countryNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

export function postalLines(address: PostalAddress): string[] {
  const local = CJK.test(Object.values(address).join(""));
  const country = address.country.toUpperCase();
  const format = (addressLines: string[]) =>
    formatAddress(
      {
        postalCountry: country,
        administrativeArea: address.state,
        locality: address.city,
        postalCode: address.zip,
        organization: address.company,
        name: address.name,
        addressLines,
      },
      local ? "local" : "latin",
    );
  const street = [address.address1, address.address2].filter((line) => line.trim().length > 0);
  let lines = format(street);
  // Some countries' formats (Japan's among them) have no place for the city: it belongs in the street lines,
  // first when written big to small, else after the street.
  if (address.city.trim() && !lines.some((line) => line.includes(address.city))) {
    const [first = "", ...rest] = street;
    lines = format([local ? `${address.city}${first}` : [first, address.city].filter(Boolean).join(", "), ...rest]);
  }
  return [...lines.filter((line) => line.trim().length > 0), countryName(country)];
}

/** A phone number in international form for the address's country ("+81 3-1234-5678"); as typed when it is not one. */
export function internationalPhone(phone: string, country: string): string {
  const trimmed = phone.trim();
  if (!trimmed) return "";
  const parsed = parsePhoneNumberFromString(trimmed, country.toUpperCase() as CountryCode);
  return parsed?.isPossible() ? parsed.formatInternational() : trimmed;
}
