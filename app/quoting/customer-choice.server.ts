import type { PrismaClient } from "@prisma/client";
import { parseShippingLine } from "../orders/mirror.server";
import type { PaidShipping } from "./customer-choice";

/**
 * The shipping each order's customer paid for, from the order mirror (the order's shipping line); orders
 * without one, or not mirrored, are absent from the map.
 */
export async function paidShippingByOrder(
  db: Pick<PrismaClient, "mirrorOrder">,
  shop: string,
  orderIds: readonly string[],
): Promise<Map<string, PaidShipping>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.mirrorOrder.findMany({ where: { shop, id: { in: [...new Set(orderIds)] } }, select: { id: true, shippingLine: true } });
  return new Map(
    rows.flatMap((row) => {
      const line = parseShippingLine(row.shippingLine);
      return line ? [[row.id, line] as const] : [];
    }),
  );
}
