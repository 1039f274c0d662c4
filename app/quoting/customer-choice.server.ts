import type { Context } from "../context";
import { parseShippingLine } from "../orders/mirror.server";
import type { PaidShipping } from "./customer-choice";
import { selectShopRowsByIds } from "../db/db-batch.server";

/**
 * The shipping each order's customer paid for, from the order mirror (the order's shipping line); orders
 * without one, or not mirrored, are absent from the map.
 */
export async function paidShippingByOrder(ctx: Pick<Context, "db" | "shop">, orderIds: readonly string[]): Promise<Map<string, PaidShipping>> {
  if (orderIds.length === 0) return new Map();
  // Read raw: the rates page reads every order of its run.
  const rows = await selectShopRowsByIds<{ id: string; shippingLine: string | null }>(ctx, {
    table: "MirrorOrder",
    columns: ["id", "shippingLine"],
    column: "id",
    ids: [...new Set(orderIds)],
  });
  return new Map(
    rows.flatMap((row) => {
      const line = parseShippingLine(row.shippingLine);
      return line ? [[row.id, line] as const] : [];
    }),
  );
}
