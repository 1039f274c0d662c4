import { config } from "../config.server";
import { parseEncryptionKey } from "../secrets.server";
import { shipmentIdOfTrackingToken, trackingToken } from "./tracking-info";

/**
 * Links to the app's public tracking page (docs/decisions/004-tracking-urls.md), signed with the app's
 * CONSIGN_ENCRYPTION_KEY (the tag's message carries its own purpose, so it never doubles as a sealed secret).
 */
function linkKey(): Buffer {
  return parseEncryptionKey(config().CONSIGN_ENCRYPTION_KEY);
}

/** The tracking page of one booked shipment, as sent to Shopify with its fulfillment. */
export function trackingPageUrl(shipmentId: string): string {
  return new URL(`/tracking/${trackingToken(linkKey(), shipmentId)}`, config().SHOPIFY_APP_URL).toString();
}

/** The shipment a tracking page address names, or null for an address the app did not issue. */
export function shipmentOfTrackingPage(token: string): string | null {
  return shipmentIdOfTrackingToken(linkKey(), token);
}
