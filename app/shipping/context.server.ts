import type { ShippingClient } from "../../shipping-api/client";
import type { Context } from "../context";

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

/** `YYYY-MM-DD HH:MM:SS` as the service writes timestamps (UTC) → Date. */
export function parseServiceTimestamp(value: string): Date {
  return new Date(`${value.replace(" ", "T")}Z`);
}
