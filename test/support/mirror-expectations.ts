import type { PrismaClient } from "@prisma/client";
import { expect } from "vitest";
import { toGid } from "../../devstore/gid";
import type { Store } from "../../devstore/store/store";

/** The local admin's open fulfillment orders (what the sync's export holds), as fulfillment order GID → order GID. */
export function openFulfillmentOrders(store: Store): Map<string, string> {
  const rows = store.sql("SELECT id, order_id FROM fulfillment_orders WHERE status NOT IN ('CLOSED', 'CANCELLED') ORDER BY id").all() as Array<{
    id: number;
    order_id: number;
  }>;
  return new Map(rows.map((row) => [toGid("FulfillmentOrder", row.id), toGid("Order", row.order_id)]));
}

/**
 * The shop's mirror holds exactly the local admin's open fulfillment orders, each under its order, and no other
 * order; returns how many orders that is.
 */
export async function expectMirrorOfAdmin(db: PrismaClient, store: Store, shop: string): Promise<number> {
  const open = openFulfillmentOrders(store);
  const mirrored = await db.mirrorFulfillmentOrder.findMany({ where: { shop }, select: { id: true, orderId: true, status: true } });
  const orders = await db.mirrorOrder.findMany({ where: { shop }, select: { id: true } });
  const mirroredOpen = new Map(mirrored.filter((fo) => fo.status !== "CLOSED" && fo.status !== "CANCELLED").map((fo) => [fo.id, fo.orderId]));
  expect(mirroredOpen.size, "open fulfillment orders mirrored").toBe(open.size);
  for (const [id, orderId] of open) expect(mirroredOpen.get(id), id).toBe(orderId);
  const expectedOrders = new Set(open.values());
  expect(new Set(orders.map((order) => order.id))).toEqual(expectedOrders);
  return expectedOrders.size;
}
