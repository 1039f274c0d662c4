import { z } from "zod";
import type { Context } from "../context";
import { readByIds } from "../db/id-lists.server";

/**
 * Why orders could not be quoted the last time they were: the problems the rates page lists for a blocked order
 * ("No weight for Linen Apron. Type its weight for this order on the Rates page, or set it on the product in Shopify."), from the most
 * recent quote run that blocked each, unless a run since (or the same one, after a fix) quoted it.
 */

const Issues = z.array(z.object({ message: z.string() }));

/** Each blocked order's problems in its last quote, in the rates page's words; orders quoted since are left out. */
export async function lastQuoteBlockers(ctx: Pick<Context, "db" | "shop">, orderIds: readonly string[]): Promise<Map<string, string[]>> {
  const { db, shop } = ctx;
  const rows = await readByIds(ctx, [...new Set(orderIds)], (chunk) =>
    db.blockedOrder.findMany({
      where: { orderId: { in: chunk }, run: { shop } },
      select: { orderId: true, runId: true, issues: true, run: { select: { startedAt: true } } },
    }),
  );
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const kept = latest.get(row.orderId);
    if (!kept || row.run.startedAt > kept.run.startedAt) latest.set(row.orderId, row);
  }
  if (latest.size === 0) return new Map();
  const quoted = await readByIds(ctx, [...latest.keys()], (chunk) =>
    db.shipment.findMany({
      where: { shop, orderId: { in: chunk }, runId: { not: null } },
      select: { orderId: true, runId: true, run: { select: { startedAt: true } } },
    }),
  );
  for (const shipment of quoted) {
    const blocked = latest.get(shipment.orderId);
    if (blocked && shipment.run && shipment.runId !== blocked.runId && shipment.run.startedAt >= blocked.run.startedAt) latest.delete(shipment.orderId);
  }
  return new Map([...latest].map(([orderId, row]) => [orderId, Issues.parse(JSON.parse(row.issues)).map((issue) => issue.message)]));
}
