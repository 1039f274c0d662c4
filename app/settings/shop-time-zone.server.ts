import { z } from "zod";
import type { Context } from "../context";
import { FALLBACK_TIME_ZONE, TimeZone } from "../locale/shop-time";
import type { AdminDocument } from "../shopify/admin-document";
import { adminQuery } from "../shopify/gateway.server";
import type { ShopTimeZoneQuery, ShopTimeZoneQueryVariables } from "../types/admin.generated";

/**
 * The shop's time zone, which every page writes its dates and times in: Shopify's `shop.ianaTimezone`, kept
 * with the shop's profile (ShopProfile) and read again through the Admin API once it is a day old, so a
 * merchant who moves the shop's time zone in Shopify sees it within a day and pages do not ask Shopify each
 * time. While Shopify cannot be read the kept zone serves, else UTC.
 */

const SHOP_TIME_ZONE = `#graphql
  query ShopTimeZone {
    shop {
      ianaTimezone
    }
  }
` as AdminDocument<ShopTimeZoneQuery, ShopTimeZoneQueryVariables>;

const ShopTimeZoneData = z.object({ shop: z.object({ ianaTimezone: TimeZone }) });

/** How long a kept zone is used before Shopify is asked again. */
export const TIME_ZONE_KEPT_MS = 24 * 60 * 60 * 1000;

/** The zone kept for the shop, when one is kept and the runtime can format in it. */
function usableZone(kept: { timeZone: string } | null): string | null {
  return kept && TimeZone.safeParse(kept.timeZone).success ? kept.timeZone : null;
}

/** The kept zone alone, for pages without an Admin API session (the public tracking page, the order block's API). */
export async function keptShopTimeZone(ctx: Pick<Context, "db" | "shop">): Promise<string> {
  return usableZone(await ctx.db.shopProfile.findUnique({ where: { shop: ctx.shop }, select: { timeZone: true } })) ?? FALLBACK_TIME_ZONE;
}

/** The shop's time zone: the kept one while under a day old, else Shopify's, kept again. */
export async function loadShopTimeZone(ctx: Pick<Context, "db" | "shop" | "now" | "shopify" | "log">): Promise<string> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const kept = await db.shopProfile.findUnique({ where: { shop } });
  const keptZone = usableZone(kept);
  if (keptZone && kept && now.getTime() - kept.readAt.getTime() < TIME_ZONE_KEPT_MS) return keptZone;
  try {
    const { shop: answer } = await adminQuery(await ctx.shopify(), SHOP_TIME_ZONE, ShopTimeZoneData);
    await db.shopProfile.upsert({
      where: { shop },
      create: { shop, timeZone: answer.ianaTimezone, readAt: now },
      update: { timeZone: answer.ianaTimezone, readAt: now },
    });
    return answer.ianaTimezone;
  } catch (error) {
    ctx.log.warn({ err: error }, `the shop's time zone could not be read; dates use ${keptZone ?? FALLBACK_TIME_ZONE}`);
    return keptZone ?? FALLBACK_TIME_ZONE;
  }
}
