import prisma from "./db.server";
import { makeContext, type Context } from "./context";
import type { ShopAdmin } from "./shopify/gateway.server";
import type { PacerLane } from "./shopify/pacer";
import { shippingClientFor } from "./shipping/client.server";
import { unauthenticated } from "./shopify.server";

/**
 * The composition root's one way to build a Context (app/context.ts): the process's database unless another
 * is given, a clock stopped when the unit of work starts unless another is given, the shop's Shipping API
 * client from its sealed account and its Shopify admin (the request's, or else the offline session's), each
 * opened on first use. A request's admin takes the pacer's `interactive` lane (a merchant waits for it); the
 * offline session's takes `lane`, `work` unless said (background work; app/shopify/pacer.ts).
 * Routes (through requestContext), job handlers and start-up call this; domain code never does.
 */
export function contextFor(shop: string, options: { db?: Context["db"]; now?: Date | (() => Date); shopify?: ShopAdmin; lane?: PacerLane } = {}): Context {
  const db = options.db ?? prisma;
  return makeContext({
    db,
    shop,
    now: options.now,
    shipping: () => shippingClientFor(db, shop),
    shopify: async () => {
      if (options.shopify) return { lane: "interactive", ...options.shopify };
      const { admin, session } = await unauthenticated.admin(shop);
      return { admin, shop: session.shop, lane: options.lane ?? "work" };
    },
  });
}
