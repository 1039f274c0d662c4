import type { PrismaClient } from "@prisma/client";
import type { ShippingClient } from "../../shipping-api/client";
import { makeContext, type Context } from "../context";
import type { ShopAdmin } from "../shopify/gateway.server";
import { shippingClientFor } from "./client.server";

/**
 * The context of work that cannot start without the Shipping API (batches, booking, search): the one
 * context shape with its Shipping API gateway already open as `client`. Opening it is where a shop without
 * an account is told so (NotConnectedError), before anything is read or written.
 */
export type ShippingContext = Context & { client: ShippingClient };

/** `ctx` with its Shipping API gateway opened; rejects with NotConnectedError when the shop has no account. */
export async function withShipping(ctx: Context): Promise<ShippingContext> {
  return { ...ctx, client: await ctx.shipping() };
}

/**
 * A context over `db` for `shop`, its clock stopped at `now` (or running, given a clock), with the Shipping
 * API gateway open. For job handlers and tests; pages get theirs from requestContext. `shopify` is the Shopify
 * gateway where the caller has one; without it, work that needs Shopify is refused, saying so.
 */
export function shippingContext(
  db: PrismaClient,
  shop: string,
  now: Date | (() => Date) = new Date(),
  shopify: () => Promise<ShopAdmin> = () => Promise.reject(new Error(`No Shopify gateway was given to this context of ${shop}.`)),
): Promise<ShippingContext> {
  return withShipping(makeContext({ db, shop, now, shipping: () => shippingClientFor(db, shop), shopify }));
}

/** `YYYY-MM-DD HH:MM:SS` as the service writes timestamps (UTC) → Date. */
export function parseServiceTimestamp(value: string): Date {
  return new Date(`${value.replace(" ", "T")}Z`);
}
