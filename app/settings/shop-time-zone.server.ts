import type { Context } from "../context";
import { FALLBACK_TIME_ZONE, TimeZone } from "../locale/shop-time";
import { loadKeptShop } from "./shop-profile.server";

/**
 * The shop's time zone, which every page writes its dates and times in: Shopify's `shop.ianaTimezone`, kept
 * with the shop's profile (ShopProfile, settings/shop-profile.server.ts' loadKeptShop) and read again through
 * the Admin API once it is a day old, so a merchant who moves the shop's time zone in Shopify sees it within a
 * day and pages do not ask Shopify each time. While Shopify cannot be read the kept zone serves, else UTC.
 */

/** The kept zone alone (when the runtime can write dates in it), for pages without an Admin API session (the public tracking page, the order block's API). */
export async function keptShopTimeZone(ctx: Pick<Context, "db" | "shop">): Promise<string> {
  const kept = await ctx.db.shopProfile.findUnique({ where: { shop: ctx.shop }, select: { timeZone: true } });
  return kept && TimeZone.safeParse(kept.timeZone).success ? kept.timeZone : FALLBACK_TIME_ZONE;
}

/** The shop's time zone, kept with its profile (loadKeptShop); while Shopify cannot be read and none is kept, UTC. */
export async function loadShopTimeZone(ctx: Pick<Context, "db" | "shop" | "now" | "shopify" | "log">): Promise<string> {
  try {
    return (await loadKeptShop(ctx)).timeZone;
  } catch (error) {
    const zone = await keptShopTimeZone(ctx);
    ctx.log.warn({ err: error }, `the shop's time zone could not be read; dates use ${zone}`);
    return zone;
  }
}
