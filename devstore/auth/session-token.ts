import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { Clock } from "../clock.js";

export interface MintSessionTokenOptions {
  shop: string;
  /** Staff user id (the `sub` claim). Defaults to the account owner. */
  userId?: number | string;
  ttlSeconds?: number;
}

export interface SessionTokenKeys {
  apiKey: string;
  apiSecret: string;
  clock: Clock;
}

/** Tolerance Shopify's libraries allow on exp/nbf. */
export const CLOCK_TOLERANCE_SECONDS = 10;

const encoder = new TextEncoder();

/** An App Bridge session token: HS256 JWT signed with the app secret, with Shopify's claims. */
export async function mintSessionToken(keys: SessionTokenKeys, options: MintSessionTokenOptions & { userId: number | string }): Promise<string> {
  const now = Math.floor(keys.clock() / 1000);
  return new SignJWT({ dest: `https://${options.shop}`, sid: randomUUID().replace(/-/g, "") })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(`https://${options.shop}/admin`)
    .setAudience(keys.apiKey)
    .setSubject(String(options.userId))
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + (options.ttlSeconds ?? 60))
    .setJti(randomUUID())
    .sign(encoder.encode(keys.apiSecret));
}

/** Shopify's customer account session tokens live five minutes. */
export const CUSTOMER_TOKEN_TTL_SECONDS = 300;

/**
 * A customer account extension's session token, as Shopify's customer accounts sign it (HS256 with the app
 * secret): `dest` the shop's domain, `sub` the signed-in customer's GID, `aud` the app's client id.
 */
export async function mintCustomerSessionToken(keys: SessionTokenKeys, options: { shop: string; customerId: number; ttlSeconds?: number }): Promise<string> {
  const now = Math.floor(keys.clock() / 1000);
  return new SignJWT({ dest: options.shop })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setAudience(keys.apiKey)
    .setSubject(`gid://shopify/Customer/${options.customerId}`)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + (options.ttlSeconds ?? CUSTOMER_TOKEN_TTL_SECONDS))
    .setJti(randomUUID())
    .sign(encoder.encode(keys.apiSecret));
}

export interface VerifiedSessionToken extends JWTPayload {
  dest: string;
}

/**
 * Verifies a session token the way Shopify's token exchange does: HS256 with the app secret, aud = API key,
 * exp/nbf with a 10 s tolerance, and a `dest` whose host is the shop (iss must be that shop's admin).
 * Throws an Error whose message says what was wrong.
 */
export async function verifySessionToken(keys: SessionTokenKeys, token: string, shopDomain: string): Promise<VerifiedSessionToken> {
  const { payload } = await jwtVerify(token, encoder.encode(keys.apiSecret), {
    algorithms: ["HS256"],
    audience: keys.apiKey,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    currentDate: new Date(keys.clock()),
  });
  if (typeof payload.dest !== "string") throw new Error("Session token has no dest claim");
  const destHost = new URL(payload.dest).host;
  if (destHost !== shopDomain) throw new Error(`Session token is for ${destHost}, not ${shopDomain}`);
  const issHost = typeof payload.iss === "string" ? payload.iss.replace(/^https?:\/\//, "").split("/")[0] : undefined;
  if (issHost !== undefined && issHost !== destHost) throw new Error("Session token iss and dest disagree");
  return payload as VerifiedSessionToken;
}
