import type { PrismaClient } from "@prisma/client";
import { createShippingClient, type ShippingClient, type ShippingClientOptions } from "../../shipping-api/client";
import { config } from "../config.server";
import { openSecret, parseEncryptionKey } from "../secrets.server";

/**
 * The Shipping API clients the app uses: one signed in as a shop's account (its sealed password opened only
 * here), one for credentials being verified, and the partner client for Create Customer.
 */

export interface AccountCredentials {
  customerId: string;
  email: string;
  password: string;
}

type ClientOptions = Omit<ShippingClientOptions, "baseUrl" | "credentials">;

export class NotConnectedError extends Error {
  override name = "NotConnectedError";
  constructor(readonly shop: string) {
    super(`${shop} has not connected a Shipping API account yet: open Consign and connect or create one.`);
  }
}

/** The key account passwords are sealed under (CONSIGN_ENCRYPTION_KEY). */
export function encryptionKey(): Buffer {
  return parseEncryptionKey(config().CONSIGN_ENCRYPTION_KEY);
}

/** A client for any credentials (used to verify them before they are saved). */
export function clientForCredentials(credentials: AccountCredentials, options: ClientOptions = {}): ShippingClient {
  return createShippingClient({
    baseUrl: config().SHIPPING_API_URL,
    credentials: { kind: "customer", ...credentials },
    timeoutMs: config().SHIPPING_API_TIMEOUT_MS,
    ...options,
  });
}

/**
 * A client with the app's partner key, for Create Customer; null when SHIPPING_API_PARTNER_KEY is not set
 * (onboarding then only connects existing accounts).
 */
export function partnerClient(options: ClientOptions = {}): ShippingClient | null {
  const key = config().SHIPPING_API_PARTNER_KEY;
  if (!key) return null;
  return createShippingClient({
    baseUrl: config().SHIPPING_API_URL,
    credentials: { kind: "partner", key },
    timeoutMs: config().SHIPPING_API_TIMEOUT_MS,
    ...options,
  });
}

/** A client signed in as the shop's account; throws NotConnectedError when there is none. */
export async function shippingClientFor(db: Pick<PrismaClient, "shippingAccount">, shop: string, options: ClientOptions = {}): Promise<ShippingClient> {
  const row = await db.shippingAccount.findUnique({ where: { shop } });
  if (!row) throw new NotConnectedError(shop);
  const password = openSecret(encryptionKey(), row.sealedPassword, shop);
  return clientForCredentials({ customerId: row.customerId, email: row.email, password }, options);
}
