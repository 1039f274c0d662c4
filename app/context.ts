import type { PrismaClient } from "@prisma/client";
import type { ShippingClient } from "../shipping-api/client";
import type { ShopAdmin } from "./shopify/gateway.server";

/**
 * What a domain function needs, in one shape (docs/decisions/016): the app database, the shop, the clock, and
 * the two gateways. The gateways are opened on first use, so a page that never calls the Shipping API works
 * for a shop without an account, and one that never writes to Shopify opens no admin session. Only the
 * composition root builds a context (app/context.server.ts: routes, job handlers, start-up); tests build one
 * with the same function over their own database and clock.
 */
export interface Context {
  db: PrismaClient;
  shop: string;
  /** The time the work treats as now; one unit of work (a request, a job run) sees one instant. */
  now(): Date;
  /** The Shipping API gateway signed in as the shop's account; rejects with NotConnectedError without one. */
  shipping(): Promise<ShippingClient>;
  /** The Shopify Admin API gateway for the shop (its offline session). */
  shopify(): Promise<ShopAdmin>;
}

/**
 * A Context from its parts: the clock stopped at `now` unless it is a clock, each gateway opened on first use
 * and then kept. What app/context.server.ts builds for the process, and tests for their own database.
 */
export function makeContext(parts: {
  db: PrismaClient;
  shop: string;
  now?: Date | (() => Date);
  shipping: () => Promise<ShippingClient>;
  shopify: () => Promise<ShopAdmin>;
}): Context {
  return {
    db: parts.db,
    shop: parts.shop,
    now: stoppedClock(parts.now ?? new Date()),
    shipping: onFirstUse(parts.shipping),
    shopify: onFirstUse(parts.shopify),
  };
}

/** A function that is called at most once, on first use, and then answers the same promise. */
export function onFirstUse<T>(open: () => Promise<T>): () => Promise<T> {
  let opened: Promise<T> | undefined;
  return () => (opened ??= open());
}

/** A clock stopped at `at`: the instant a unit of work treats as now. */
export function stoppedClock(at: Date | (() => Date) = new Date()): () => Date {
  if (typeof at === "function") return at;
  return () => at;
}
