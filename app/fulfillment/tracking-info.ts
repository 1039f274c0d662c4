import { createHmac, timingSafeEqual } from "node:crypto";
import { shopifyTrackingCompany } from "./tracking-companies";

/**
 * What a fulfillment tells Shopify about the parcel (docs/decisions/004-tracking-urls.md): a carrier Shopify
 * recognises goes by Shopify's own name and Shopify builds the links; any other carrier goes by its label and
 * links to the app's public tracking page, which reads the Shipping API's Track Shipment. A shipment of several
 * boxes with a number each sends them all in the one fulfillment (`numbers`, and `urls` paired with them by
 * position); one number goes as `number` and `url`.
 */
export type FulfillmentTracking = { company: string } & (
  | { number: string; /** Absent for carriers Shopify links itself. */ url?: string }
  | { numbers: string[]; /** Absent for carriers Shopify links itself. */ urls?: string[] }
);

export function fulfillmentTracking(input: {
  carrierCode: string;
  /** The Shipping API's carrierLabel; undefined when List Services could not be read. */
  carrierLabel: string | undefined;
  /** Every piece's number, the shipment's own first (at least one). */
  trackingNumbers: readonly [string, ...string[]];
  /** The shipment's page, which shows every piece. */
  trackingPageUrl: string;
}): FulfillmentTracking {
  const known = shopifyTrackingCompany(input.carrierLabel ?? "") ?? shopifyTrackingCompany(input.carrierCode);
  const company = known ?? (input.carrierLabel || input.carrierCode);
  const [first, ...others] = input.trackingNumbers;
  if (others.length === 0) return known ? { company, number: first } : { company, number: first, url: input.trackingPageUrl };
  const numbers = [...input.trackingNumbers];
  return known ? { company, numbers } : { company, numbers, urls: numbers.map(() => input.trackingPageUrl) };
}

/**
 * The tracking page's address names a shipment by id plus an HMAC of it, so the public page answers only for
 * links the app handed out: nobody can walk shipment ids or tracking numbers and spend the merchant's
 * Shipping API calls. 128 bits of the tag are plenty for a link.
 */
const PURPOSE = "consign/tracking-page/v1:";
const TAG_LENGTH = 22;

function tag(key: Buffer, shipmentId: string): string {
  return createHmac("sha256", key)
    .update(PURPOSE + shipmentId)
    .digest("base64url")
    .slice(0, TAG_LENGTH);
}

export function trackingToken(key: Buffer, shipmentId: string): string {
  return `${shipmentId}.${tag(key, shipmentId)}`;
}

/** The shipment id a token names, or null when the token was not issued with this key. */
export function shipmentIdOfTrackingToken(key: Buffer, token: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const expected = Buffer.from(tag(key, match[1]));
  const given = Buffer.from(match[2]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? match[1] : null;
}
