import { createHash, timingSafeEqual } from "node:crypto";
import { ServiceError } from "../errors";
import { verifyPassword } from "../secrets";
import type { DomainContext } from "../domain/context";
import { findCustomerByEmail } from "../domain/customers";

export const unauthorized = (message: string) => new ServiceError(401, "UNAUTHORIZED", message);

/** Most entries this process remembers; beyond it the cache starts over (customers are few). */
const CACHE_LIMIT = 10_000;

/**
 * HTTP Basic authentication of customers. scrypt is deliberately slow (tens of ms), so a header that
 * verified once is remembered by its SHA-256 (never the password itself); failures are never cached,
 * so guessing stays slow.
 */
export function createCustomerAuthenticator(ctx: DomainContext) {
  const verified = new Map<string, string>();
  return async function authenticate(header: string | undefined): Promise<string> {
    if (!header || !/^basic /i.test(header)) throw unauthorized("Missing credentials: use Authorization: Basic base64(email:password)");
    const key = createHash("sha256").update(header).digest("base64");
    const cached = verified.get(key);
    if (cached) return cached;
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) throw unauthorized("Malformed Basic credentials");
    const customer = findCustomerByEmail(ctx, decoded.slice(0, colon));
    if (!customer || !(await verifyPassword(decoded.slice(colon + 1), customer.passwordHash))) throw unauthorized("Invalid email or password");
    if (verified.size >= CACHE_LIMIT) verified.clear();
    verified.set(key, customer.id);
    return customer.id;
  };
}

/** Bearer partner key, compared in constant time. */
export function checkPartnerKey(header: string | undefined, partnerKey: string): void {
  const match = header && /^bearer (.+)$/i.exec(header.trim());
  if (!match) throw unauthorized("Missing partner key: use Authorization: Bearer <partner key>");
  const given = createHash("sha256").update(match[1]!).digest();
  const expected = createHash("sha256").update(partnerKey).digest();
  if (!timingSafeEqual(given, expected)) throw unauthorized("Invalid partner key");
}
