import type { Context } from "../context";
import { parseShippingLine } from "../orders/mirror.server";
import type { PaidShipping } from "./customer-choice";
import { readByIds } from "../db/id-lists.server";

/**
 * The shipping each order's customer paid for, from the order mirror (the order's shipping line); orders
 * without one, or not mirrored, are absent from the map.
 */
export async function paidShippingByOrder(ctx: Pick<Context, "db" | "shop">, orderIds: readonly string[]): Promise<Map<string, PaidShipping>> {
  if (orderIds.length === 0) return new Map();
  const rows = await readByIds(ctx, [...new Set(orderIds)], (chunk) =>
    ctx.db.mirrorOrder.findMany({ where: { shop: ctx.shop, id: { in: chunk } }, select: { id: true, shippingLine: true } }),
  );
  return new Map(
    rows.flatMap((row) => {
      const line = parseShippingLine(row.shippingLine);
      return line ? [[row.id, line] as const] : [];
    }),
  );
}
