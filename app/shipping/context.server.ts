import type { PrismaClient } from "@prisma/client";
import type { ShippingClient } from "../../shipping-api/client";
import { shippingClientFor } from "./client.server";

/**
 * What batch, booking and search functions work with: the app database, the shop, a Shipping API client
 * signed in as the shop's account, and the time they treat as now (quote expiry, intent ages).
 */
export interface ShippingContext {
  db: PrismaClient;
  shop: string;
  client: ShippingClient;
  now: Date;
}

/** The context for a request of `shop`; throws NotConnectedError when the shop has no Shipping API account. */
export async function shippingContext(db: PrismaClient, shop: string, now: Date = new Date()): Promise<ShippingContext> {
  return { db, shop, client: await shippingClientFor(db, shop), now };
}

/** `YYYY-MM-DD HH:MM:SS` as the service writes timestamps (UTC) → Date. */
export function parseServiceTimestamp(value: string): Date {
  return new Date(`${value.replace(" ", "T")}Z`);
}
