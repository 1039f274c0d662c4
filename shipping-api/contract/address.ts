import { z } from "zod";
import { checkStateCode, CountryCode, Email, NonEmptyString, Text } from "./primitives";

/**
 * Address shapes per role, all derived from one field list. Every variant enforces the state
 * rule: a two-letter `state` when the country is US or CA (the issue is reported on `state`).
 */

const addressFields = z.object({
  name: NonEmptyString,
  company: Text,
  address1: NonEmptyString,
  address2: Text,
  city: NonEmptyString,
  state: Text,
  zip: Text.nullable(),
  country: CountryCode,
  phone: Text,
  email: Email.optional(),
});

type AddressField = keyof z.infer<typeof addressFields>;

/** Every field of an address as text, as forms and printed labels show it. */
export type AddressText = Record<AddressField, string>;

/** Any address variant's fields as text: an absent or null field (a zip-less country, a partial return address) is empty. */
export function addressText(address: Partial<Record<AddressField, string | null>>): AddressText {
  return {
    name: address.name ?? "",
    company: address.company ?? "",
    address1: address.address1 ?? "",
    address2: address.address2 ?? "",
    city: address.city ?? "",
    state: address.state ?? "",
    zip: address.zip ?? "",
    country: address.country ?? "",
    phone: address.phone ?? "",
    email: address.email ?? "",
  };
}

/** Sender and receiver: every field required except `email`; `zip` may be null. */
export const Address = addressFields.superRefine(checkStateCode);
export type Address = z.infer<typeof Address>;

/** Consignee and importer of record: `name`, `address1`, `city`, `zip`, `country` required. */
export const ConsigneeAddress = addressFields.partial({ company: true, address2: true, state: true, phone: true }).superRefine(checkStateCode);
export type ConsigneeAddress = z.infer<typeof ConsigneeAddress>;

/** Return address of Book Shipment: every field optional. */
export const ReturnToAddress = addressFields.partial().superRefine(checkStateCode);
export type ReturnToAddress = z.infer<typeof ReturnToAddress>;

/** Address subset of a booked shipment (search results): no phone, no email. */
export const AddressSummary = addressFields.omit({ phone: true, email: true }).superRefine(checkStateCode);
export type AddressSummary = z.infer<typeof AddressSummary>;

/** Mailing and billing address of Create Customer: every field a required string (zip too). */
export const CustomerAddress = addressFields.omit({ email: true }).extend({ zip: Text }).superRefine(checkStateCode);
export type CustomerAddress = z.infer<typeof CustomerAddress>;
