import { isSupportedCountry, isValidPhoneNumber } from "libphonenumber-js";
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";
import { keptAnswers } from "../kept";
import { countryName } from "../locale/places";
import { SUBDIVISIONS } from "../locale/subdivisions";

/**
 * A shipping address checked as carriers will check it, before it is quoted: the postal code in its country's
 * format (the postcode-validator package's patterns, one per country), a phone number that is a real number of
 * its country (libphonenumber-js; a number with its own +country code is judged by that country), and, for the
 * US and Canada, a state or province code that exists. Each problem says what to fix in the merchant's words.
 * Pure; an address without a phone passes (Shopify does not require one), as does a postal code of a country
 * without a known format.
 */

/** The US's states, district, territories and military "states"; Canada's provinces and territories. */
const STATE_CODES: Record<string, ReadonlySet<string>> = {
  US: new Set(Object.keys(SUBDIVISIONS.US!)),
  CA: new Set(Object.keys(SUBDIVISIONS.CA!)),
};

/** What a postal code looks like where a merchant most often mistypes one. */
const POSTAL_EXAMPLES: Record<string, string> = {
  US: "5 digits, like 94107, or ZIP+4, like 94107-1234",
  CA: "letter digit letter digit letter digit, like M5V 3L9",
  GB: "like SW1A 1AA",
  AU: "4 digits, like 2000",
  DE: "5 digits, like 10117",
  FR: "5 digits, like 75001",
  JP: "7 digits, like 100-0005",
  NL: "4 digits and 2 letters, like 1012 AB",
};

/** Countries with a postal code format where addresses still go without a code (Ireland's Eircodes are recent). */
const POSTAL_CODE_OPTIONAL = new Set(["IE"]);

function postalWord(country: string): string {
  return country === "US" ? "ZIP code" : "postal code";
}

export interface AddressToCheck {
  countryCode: string;
  provinceCode: string | null;
  zip: string | null;
  phone: string | null;
}

/**
 * Whether `phone` is a real number of `country` (or of its own +country code), kept per number and country: parsing
 * one costs libphonenumber tens of microseconds, and the same orders are quoted again (a re-quote, the next run of the
 * same day). At most PHONES_KEPT numbers are kept.
 */
const PHONES_KEPT = 20_000;
const validPhone = keptAnswers(
  PHONES_KEPT,
  (phone: string, country: string) => `${country} ${phone}`,
  (phone: string, country: string) => isValidPhoneNumber(phone, isSupportedCountry(country) ? country : undefined),
);

/** Each problem of the address, as "the ZIP code “8020” is not a US ZIP code (…)"; empty when carriers would take it. */
export function addressProblems(address: AddressToCheck): string[] {
  const country = address.countryCode.toUpperCase();
  const name = countryName(country);
  const problems: string[] = [];
  const zip = address.zip?.trim() ?? "";
  const known = postcodeValidatorExistsForCountry(country);
  const example = POSTAL_EXAMPLES[country];
  const format = example ? ` (${example})` : "";
  if (!zip && known && !POSTAL_CODE_OPTIONAL.has(country) && !postcodeValidator("", country)) {
    problems.push(`there is no ${postalWord(country)}; ${name} addresses need one${format}`);
  } else if (zip && known && !postcodeValidator(zip, country)) {
    problems.push(`the ${postalWord(country)} “${zip}” is not a ${name} ${postalWord(country)}${format}`);
  }
  const states = STATE_CODES[country];
  const state = address.provinceCode?.trim().toUpperCase() ?? "";
  if (states && state && !states.has(state)) {
    problems.push(
      `“${state}” is not a ${country === "US" ? "US state" : "Canadian province or territory"} code (two letters, like ${country === "US" ? "NY" : "ON"})`,
    );
  }
  const phone = address.phone?.trim() ?? "";
  if (phone && !validPhone(phone, country)) {
    problems.push(`the phone number “${phone}” is not a complete ${name} number (or one with its own country code, like +44 20 7946 0000)`);
  }
  return problems;
}
