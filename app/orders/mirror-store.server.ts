import type { Prisma } from "@prisma/client";
import type { Context } from "../context";
import { idsPerStatement } from "../db/id-lists.server";
import { sqlTemplate } from "../db/sql-template";
import type { MirroredFulfillmentOrder, MirroredOrder } from "./order-node";

/**
 * Writing the order mirror, set-based: orders and fulfillment orders go in as multi-row upserts (`INSERT …
 * ON CONFLICT ("id") DO UPDATE`, the same text on SQLite and PostgreSQL), as many rows to a statement as the
 * database binds (app/db/id-lists.server.ts), never a statement per order.
 *
 * Two writers meet here: a webhook's re-read of one order, and a sync's export, saved batch by batch while
 * webhooks go on arriving. A write keeps the fresher read of each order: it replaces a row only when its read
 * is newer by Shopify's updatedAt, or as new (or unknown) and written at the same time or later (a sync's
 * rows carry the sync's start, so a webhook's re-read during the sync outranks the export's read of the same
 * version). An order whose row stays keeps its fulfillment orders too: they are written only for the orders
 * whose row this write took.
 */

/** A mirrored order's columns, as written and as read (app/orders/mirror.server.ts). */
export const ORDER_COLUMNS = [
  "id",
  "shop",
  "name",
  "orderCreatedAt",
  "orderUpdatedAt",
  "cancelledAt",
  "email",
  "customerId",
  "currencyCode",
  "tags",
  "displayFulfillmentStatus",
  "destinationCountry",
  "shippingAddress",
  "shippingLine",
  "note",
  "customAttributes",
  "syncedAt",
] as const;

/** A mirrored fulfillment order's columns, as written and as read. */
export const FULFILLMENT_ORDER_COLUMNS = [
  "id",
  "shop",
  "orderId",
  "status",
  "requestStatus",
  "deliveryMethod",
  "assignedLocationId",
  "assignedToFulfillmentService",
  "supportedActions",
  "holds",
  "lines",
  "syncedAt",
] as const;

/** The stored row has an older read than the one being written, or one as new written no later (both tables' aliases as in the upsert). */
const FRESHER_THAN_STORED = [
  'WHERE "MirrorOrder"."shop" = excluded."shop" AND (',
  'excluded."orderUpdatedAt" > "MirrorOrder"."orderUpdatedAt"',
  ' OR ((excluded."orderUpdatedAt" = "MirrorOrder"."orderUpdatedAt" OR excluded."orderUpdatedAt" IS NULL OR "MirrorOrder"."orderUpdatedAt" IS NULL)',
  ' AND excluded."syncedAt" >= "MirrorOrder"."syncedAt"))',
].join("");

function orderValues(shop: string, order: MirroredOrder, syncedAt: Date): unknown[] {
  return [
    order.id,
    shop,
    order.name,
    new Date(order.createdAt),
    order.updatedAt ? new Date(order.updatedAt) : null,
    order.cancelledAt ? new Date(order.cancelledAt) : null,
    order.email,
    order.customerId,
    order.currencyCode,
    JSON.stringify(order.tags),
    order.displayFulfillmentStatus,
    order.shippingAddress?.countryCode ?? null,
    order.shippingAddress ? JSON.stringify(order.shippingAddress) : null,
    order.shippingLine ? JSON.stringify(order.shippingLine) : null,
    order.note,
    order.customAttributes.length > 0 ? JSON.stringify(order.customAttributes) : null,
    syncedAt,
  ];
}

function fulfillmentOrderValues(shop: string, orderId: string, fo: MirroredFulfillmentOrder, syncedAt: Date): unknown[] {
  return [
    fo.id,
    shop,
    orderId,
    fo.status,
    fo.requestStatus,
    fo.deliveryMethod,
    fo.assignedLocationId,
    fo.assignedToFulfillmentService,
    JSON.stringify(fo.supportedActions),
    JSON.stringify(fo.holds),
    JSON.stringify(fo.lines),
    syncedAt,
  ];
}

/** One multi-row upsert of `rows` (values in `columns`' order) into `table`, every column but the id updated, then `tail`. */
function upsert(table: string, columns: readonly string[], rows: readonly unknown[][], tail: string): [TemplateStringsArray, ...unknown[]] {
  const quoted = columns.map((column) => `"${column}"`);
  return sqlTemplate([
    `INSERT INTO "${table}" (${quoted.join(", ")}) VALUES `,
    ...rows.flatMap((row, index) => [index === 0 ? "(" : ", (", ...row.flatMap((value, at) => [at === 0 ? "" : ", ", { value }]), ")"]),
    ` ON CONFLICT ("id") DO UPDATE SET ${quoted
      .slice(1)
      .map((column) => `${column} = excluded.${column}`)
      .join(", ")} ${tail}`,
  ]);
}

/** `items` in pieces whose rows of `width` values fit one statement of the context's database. */
function rowChunks<T>(ctx: Pick<Context, "db">, items: readonly T[], width: number): T[][] {
  const size = Math.max(1, Math.floor(idsPerStatement(ctx) / width));
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

export interface MirrorWrite {
  /** When the rows are written, as the freshness rule counts it: a sync's start, or a webhook's now. */
  syncedAt: Date;
  /**
   * The orders are whole (a webhook's re-read): fulfillment orders of theirs not among them are removed. A sync's
   * batch holds part of an order's fulfillment orders at a time, and removes the rest when it ends.
   */
  whole: boolean;
}

/**
 * Writes `orders` in the transaction `tx` (a piece of work of bounded size: a webhook's orders, or one batch of
 * a sync's export) and returns how many orders it took. `ctx` gives the shop and the database the statements
 * are sized for.
 */
export async function writeMirroredOrders(
  ctx: Pick<Context, "db" | "shop">,
  tx: Prisma.TransactionClient,
  orders: readonly MirroredOrder[],
  { syncedAt, whole }: MirrorWrite,
): Promise<number> {
  // One row per order in a statement (PostgreSQL refuses to update a row twice in one upsert): the last read wins.
  const byId = new Map(orders.map((order) => [order.id, order]));
  const written = new Set<string>();
  for (const chunk of rowChunks(ctx, [...byId.values()], ORDER_COLUMNS.length)) {
    const rows = chunk.map((order) => orderValues(ctx.shop, order, syncedAt));
    const taken = await tx.$queryRaw<Array<{ id: string }>>(...upsert("MirrorOrder", ORDER_COLUMNS, rows, `${FRESHER_THAN_STORED} RETURNING "id"`));
    for (const { id } of taken) written.add(id);
  }
  const taken = [...written].map((id) => byId.get(id)!);
  const fulfillmentOrders = new Map(taken.flatMap((order) => order.fulfillmentOrders.map((fo) => [fo.id, { orderId: order.id, fo }] as const)));
  for (const chunk of rowChunks(ctx, [...fulfillmentOrders.values()], FULFILLMENT_ORDER_COLUMNS.length)) {
    const rows = chunk.map(({ orderId, fo }) => fulfillmentOrderValues(ctx.shop, orderId, fo, syncedAt));
    await tx.$executeRaw(...upsert("MirrorFulfillmentOrder", FULFILLMENT_ORDER_COLUMNS, rows, ""));
  }
  if (whole) await removeOtherFulfillmentOrders(ctx, tx, taken);
  return taken.length;
}

/** Removes the fulfillment orders of these (whole) orders that they no longer have, a statement per piece that fits. */
async function removeOtherFulfillmentOrders(ctx: Pick<Context, "db">, tx: Prisma.TransactionClient, orders: readonly MirroredOrder[]): Promise<void> {
  const limit = idsPerStatement(ctx);
  let orderIds: string[] = [];
  let kept: string[] = [];
  const flush = async () => {
    if (orderIds.length > 0) await tx.mirrorFulfillmentOrder.deleteMany({ where: { orderId: { in: orderIds }, id: { notIn: kept } } });
    orderIds = [];
    kept = [];
  };
  for (const order of orders) {
    if (orderIds.length + kept.length + 1 + order.fulfillmentOrders.length > limit) await flush();
    orderIds.push(order.id);
    kept.push(...order.fulfillmentOrders.map((fo) => fo.id));
  }
  await flush();
}

/** How long a write of a bounded piece of the mirror may hold its transaction (Prisma's default is 5 s). */
export const MIRROR_WRITE_TIMEOUT_MS = 60_000;

/**
 * Writes whole orders (a webhook's re-read, tests' fixtures) in one transaction, as read at `ctx.now()`: each
 * replaces its row and fulfillment orders unless the mirror holds a fresher read of it.
 */
export async function saveMirroredOrders(ctx: Pick<Context, "db" | "shop" | "now">, orders: readonly MirroredOrder[]): Promise<void> {
  if (orders.length === 0) return;
  const syncedAt = ctx.now();
  await ctx.db.$transaction((tx) => writeMirroredOrders(ctx, tx, orders, { syncedAt, whole: true }), { timeout: MIRROR_WRITE_TIMEOUT_MS });
}
