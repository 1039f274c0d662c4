import type { Address } from "../store/types.js";

/** Valid subdivision codes for the countries whose province Shopify requires (US states + DC + territories, CA). */
export const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP AA AE AP".split(
    " ",
  ),
);
export const CA_PROVINCES = new Set("AB BC MB NB NL NS NT NU ON PE QC SK YT".split(" "));

const POSTAL: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/,
  GB: /^[A-Za-z]{1,2}\d[A-Za-z\d]? ?\d[A-Za-z]{2}$/,
  DE: /^\d{5}$/,
  AU: /^\d{4}$/,
  JP: /^\d{3}-?\d{4}$/,
};

/**
 * A local stand-in for Shopify's address validation (MailingAddress.validationResultSummary): ERROR when a
 * required part is missing or malformed (no street, no city, bad postal code or province), WARNING for
 * deliverable-but-doubtful cases (PO boxes, a missing address phone), otherwise NO_ISSUES.
 */
export function validateAddress(a: Address): "NO_ISSUES" | "WARNING" | "ERROR" {
  if (!a.address1 || !a.city) return "ERROR";
  const postal = POSTAL[a.countryCode];
  if (postal && (!a.zip || !postal.test(a.zip.trim()))) return "ERROR";
  if (a.countryCode === "US" && !(a.provinceCode && US_STATES.has(a.provinceCode))) return "ERROR";
  if (a.countryCode === "CA" && !(a.provinceCode && CA_PROVINCES.has(a.provinceCode))) return "ERROR";
  if (/\bP\.?\s*O\.?\s*Box\b/i.test(`${a.address1} ${a.address2 ?? ""}`)) return "WARNING";
  if (!a.phone) return "WARNING";
  return "NO_ISSUES";
}
