import { describeError } from "../../shipping-api/client";
import type { Context } from "../context";
import { KeptPerShop } from "../kept-per-shop.server";
import { NotConnectedError, shippingClientFor } from "../shipping/client.server";
import { NO_NAMES, serviceNamesOf, type ServiceNames } from "../shipping/service-names";

/**
 * The shop's carrier and service names from List Services, kept for a few minutes per shop: the rates page
 * reloads every second while it quotes, and names change only when the account's catalog does. Without an
 * account, or while the Shipping API cannot be read, pages fall back to the quotes' own descriptions (see
 * serviceName), and the next load asks again.
 */

const kept = new KeptPerShop<ServiceNames>(5 * 60 * 1000);

export async function loadServiceNames(ctx: Pick<Context, "db" | "shop" | "now" | "log">): Promise<ServiceNames> {
  const { db, shop } = ctx;
  const hit = kept.get(shop, ctx.now());
  if (hit) return hit;
  try {
    // Its own client, not the context's: a page waits at most 5 s for names it can do without, then shows the
    // quotes' descriptions, and the request ends there rather than retrying behind the page.
    const client = await shippingClientFor(db, shop, { timeoutMs: 5_000, retry: { attempts: 1 } });
    const answer = await client.listServices();
    if (!answer.ok) {
      ctx.log.warn(`service names unavailable (${describeError(answer.error)}); pages show the quotes' descriptions`);
      return NO_NAMES;
    }
    return kept.set(shop, serviceNamesOf(answer.value.services), ctx.now());
  } catch (error) {
    // Without an account there are no names to read: the quotes' descriptions are all there is.
    if (error instanceof NotConnectedError) return NO_NAMES;
    ctx.log.warn({ err: error }, "service names unavailable");
    return NO_NAMES;
  }
}
