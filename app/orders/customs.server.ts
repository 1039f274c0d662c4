import { z } from "zod";
import type { Context } from "../context";
import { applyCustoms, type OrderCustomsEntries } from "./customs";
import type { MirroredOrder } from "./order-node";
import { selectShopRowsByIds } from "../db/db-batch.server";
import { loadMirroredOrders } from "./mirror.server";

/** Line details the merchant typed per order (OrderCustoms: HS codes, origins, weights), saved and laid over mirrored orders. */

const Entries = z.record(
  z.string(),
  z.object({
    hsCode: z.string().optional(),
    countryOfOrigin: z.string().optional(),
    weight: z.object({ value: z.number().positive(), unit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]) }).optional(),
  }),
);

/**
 * Saves what the merchant typed for an order blocked in this run (merged with what was typed before), or
 * returns false when the run has no such blocked order of this shop.
 */
export async function saveOrderCustoms(
  { db, shop }: Pick<Context, "db" | "shop">,
  runId: string,
  orderId: string,
  entries: OrderCustomsEntries,
): Promise<boolean> {
  const blocked = await db.blockedOrder.findFirst({ where: { runId, orderId, run: { shop } }, select: { id: true } });
  if (!blocked) return false;
  const existing = await db.orderCustoms.findUnique({ where: { shop_orderId: { shop, orderId } } });
  const before = existing ? Entries.parse(JSON.parse(existing.lines)) : {};
  // Per line, what is typed now over what was typed before (a weight typed later keeps the HS code typed first).
  const merged = Object.fromEntries([
    ...Object.entries(before).filter(([lineId]) => !Object.hasOwn(entries, lineId)),
    ...Object.entries(entries).map(([lineId, entry]) => [lineId, { ...(Object.hasOwn(before, lineId) ? before[lineId] : {}), ...entry }]),
  ]);
  await db.orderCustoms.upsert({
    where: { shop_orderId: { shop, orderId } },
    create: { shop, orderId, lines: JSON.stringify(merged) },
    update: { lines: JSON.stringify(merged) },
  });
  return true;
}

/** What the merchant typed for these orders (OrderCustoms), by order id. */
async function customsOf(ctx: Pick<Context, "db" | "shop">, orderIds: readonly string[]): Promise<Map<string, OrderCustomsEntries>> {
  if (orderIds.length === 0) return new Map();
  // Read raw: a quote run reads every selected order's, and the client compiles a list of ids of its own at every read.
  const rows = await selectShopRowsByIds<{ orderId: string; lines: string }>(ctx, {
    table: "OrderCustoms",
    columns: ["orderId", "lines"],
    column: "orderId",
    ids: [...new Set(orderIds)],
  });
  return new Map(rows.map((row) => [row.orderId, Entries.parse(JSON.parse(row.lines))]));
}

function laidOver(orders: readonly MirroredOrder[], customs: ReadonlyMap<string, OrderCustomsEntries>): MirroredOrder[] {
  if (customs.size === 0) return [...orders];
  return orders.map((order) => {
    const entries = customs.get(order.id);
    return entries ? applyCustoms(order, entries) : order;
  });
}

/** The orders with what the merchant typed for them laid over (HS codes, origins, weights Shopify lacks). */
export async function withCustoms(ctx: Pick<Context, "db" | "shop">, orders: readonly MirroredOrder[]): Promise<MirroredOrder[]> {
  return laidOver(
    orders,
    await customsOf(
      ctx,
      orders.map((order) => order.id),
    ),
  );
}

/**
 * The mirrored orders of these ids (loadMirroredOrders, in the ids' order, the ones the mirror lacks left out) with
 * what the merchant typed for them laid over, the two read at once.
 */
export async function loadOrdersWithCustoms(ctx: Pick<Context, "db" | "shop">, orderIds: readonly string[]): Promise<MirroredOrder[]> {
  const [orders, customs] = await Promise.all([loadMirroredOrders(ctx, orderIds), customsOf(ctx, orderIds)]);
  return laidOver(orders, customs);
}
