import type { PrismaClient } from "@prisma/client";
import { makeContext, type Context } from "../../app/context";
import { shippingClientFor } from "../../app/shipping/client.server";
import type { ShopAdmin } from "../../app/shopify/gateway.server";

/** The Context a test's work runs in: its database, the shop of `admin`, that admin as the Shopify gateway, and its clock. */
export function contextOf(admin: ShopAdmin, db: PrismaClient, now: Date | (() => Date) = () => new Date()): Context {
  return makeContext({ db, shop: admin.shop, now, shipping: () => shippingClientFor(db, admin.shop), shopify: async () => admin });
}
