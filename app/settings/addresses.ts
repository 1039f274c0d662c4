import { z } from "zod";
import { addressText, type Address, type ReturnToAddress } from "../../shipping-api/contract";
import { normalisePhone } from "../orders/shipment-mapping";
import type { OrderAddress } from "../orders/types";

/**
 * Addresses as the merchant edits them (every field a string, as in a form) and the conversions to and from
 * the Shipping API's `Address`, and from the addresses Shopify knows (a location's, the shop's).
 */

const text = z.string().trim();

export const AddressInput = z.object({
  name: text,
  company: text,
  address1: text,
  address2: text,
  city: text,
  state: text,
  zip: text,
  country: text,
  phone: text,
  email: text,
});
export type AddressInput = z.infer<typeof AddressInput>;

/** Each address field's label, on the page and in its problems ("ZIP or postal code must not be empty"). */
export const ADDRESS_LABELS: Record<keyof AddressInput, string> = {
  name: "Name",
  company: "Company",
  address1: "Address",
  address2: "Apartment, suite, etc.",
  city: "City",
  state: "State or province code",
  zip: "ZIP or postal code",
  country: "Country code",
  phone: "Phone",
  email: "Email",
};

/** The label of an address field named by a form path's part, or undefined for another part. */
export function addressFieldLabel(field: PropertyKey | undefined): string | undefined {
  return typeof field === "string" && field in ADDRESS_LABELS ? ADDRESS_LABELS[field as keyof AddressInput] : undefined;
}

export const EMPTY_ADDRESS: AddressInput = addressText({});

/**
 * The wire shape of an edited address, before the contract's checks: codes upper-cased, the phone reduced to
 * the digits carriers print, an empty zip as null (countries without postal codes) and an empty email left out.
 */
export function toAddress(input: AddressInput): Address {
  const country = input.country.toUpperCase();
  return {
    name: input.name,
    company: input.company,
    address1: input.address1,
    address2: input.address2,
    city: input.city,
    state: input.state.toUpperCase(),
    zip: input.zip === "" ? null : input.zip,
    country,
    phone: normalisePhone(input.phone, country),
    ...(input.email === "" ? {} : { email: input.email }),
  };
}

/** The form values of a stored address; an absent one is the empty form. */
export function addressInput(address: Address | ReturnToAddress | null): AddressInput {
  return address ? addressText(address) : EMPTY_ADDRESS;
}

/** An address as Shopify's Admin API gives it (LocationAddress, ShopAddress): any field may be null. */
export type ShopifyAddress = Pick<OrderAddress, "address1" | "address2" | "city" | "provinceCode" | "zip" | "countryCode" | "phone">;

/** A Shopify address as form values, with the name, company and email Shopify keeps elsewhere. */
export function fromShopifyAddress(address: ShopifyAddress, who: { name: string; company: string; email: string }): AddressInput {
  const country = (address.countryCode ?? "").toUpperCase();
  return {
    name: who.name,
    company: who.company,
    address1: address.address1 ?? "",
    address2: address.address2 ?? "",
    city: address.city ?? "",
    state: (address.provinceCode ?? "").toUpperCase(),
    zip: address.zip ?? "",
    country,
    phone: normalisePhone(address.phone, country),
    email: who.email,
  };
}

/** One line for lists: "55 Water St, Brooklyn NY 11201, US". */
export function addressLine(address: Pick<AddressInput, "address1" | "city" | "state" | "zip" | "country">): string {
  const place = [address.city, [address.state, address.zip].filter(Boolean).join(" ")].filter(Boolean).join(" ");
  return [address.address1, place, address.country].filter(Boolean).join(", ");
}

/** A Shopify location the merchant can ship from. */
export interface SenderLocation {
  id: string;
  name: string;
  /** "55 Water St, Brooklyn NY 11201, US" */
  summary: string;
  /** The location as a sender address: its name, the shop as company, the shop's email. */
  sender: AddressInput;
}
