import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Flow signs each action request as Shopify signs webhooks: `x-shopify-hmac-sha256` is the base64 HMAC-SHA256 of the
 * raw body with the app's client secret. Checked over the bytes received, before the body is parsed or anything
 * else happens (docs/decisions/043).
 */
export function flowSignatureValid(body: Uint8Array, header: string | null, secret: string): boolean {
  if (!header) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  const given = Buffer.from(header, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The header Flow sends for a body (the local admin signs its calls of the action with it). */
export function flowSignature(body: string | Uint8Array, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}
