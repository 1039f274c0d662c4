import { z } from "zod";
import type { Context } from "../context";
import { adminQuery } from "../shopify/gateway.server";
import { BULK_OPERATION, ORDER_FOR_SHIPPING, FULFILLMENT_ORDERS_TO_SHIP_BULK, RUN_BULK_QUERY } from "./order-documents";
import { OrderNode, reassembleBulkOrders, toMirroredOrder, type MirroredOrder } from "./order-node";
import type { OrderShippingLine } from "./types";
import { readInChunks } from "../db-batch.server";

/**
 * The order mirror: a Prisma copy of orders awaiting shipment, so quoting 500 orders reads the
 * app's database instead of making 500 order reads from Shopify at click time. Filled by a bulk operation
 * on install and on demand, kept current by webhooks (refreshOrder).
 */

/** What writing the mirror needs besides the database and the shop: the clock, and for Shopify's reads its gateway. */
type ShopifyMirrorContext = Pick<Context, "db" | "shop" | "now" | "shopify">;

function orderRow(shop: string, order: MirroredOrder, syncedAt: Date) {
  return {
    shop,
    name: order.name,
    orderCreatedAt: new Date(order.createdAt),
    cancelledAt: order.cancelledAt ? new Date(order.cancelledAt) : null,
    email: order.email,
    currencyCode: order.currencyCode,
    tags: JSON.stringify(order.tags),
    displayFulfillmentStatus: order.displayFulfillmentStatus,
    destinationCountry: order.shippingAddress?.countryCode ?? null,
    shippingAddress: order.shippingAddress ? JSON.stringify(order.shippingAddress) : null,
    shippingLine: order.shippingLine ? JSON.stringify(order.shippingLine) : null,
    syncedAt,
  };
}

function fulfillmentOrderRows(shop: string, order: MirroredOrder) {
  return order.fulfillmentOrders.map((fo) => ({
    id: fo.id,
    shop,
    orderId: order.id,
    status: fo.status,
    requestStatus: fo.requestStatus,
    deliveryMethod: fo.deliveryMethod,
    assignedLocationId: fo.assignedLocationId,
    assignedToFulfillmentService: fo.assignedToFulfillmentService,
    supportedActions: JSON.stringify(fo.supportedActions),
    holds: JSON.stringify(fo.holds),
    lines: JSON.stringify(fo.lines),
  }));
}

/** Writes orders (and replaces their fulfillment orders) in one transaction, synced at `ctx.now()`. */
export async function saveMirroredOrders(ctx: Pick<Context, "db" | "shop" | "now">, orders: readonly MirroredOrder[]): Promise<void> {
  if (orders.length === 0) return;
  const { db, shop } = ctx;
  const syncedAt = ctx.now();
  await db.$transaction(async (tx) => {
    for (const order of orders) {
      const row = orderRow(shop, order, syncedAt);
      await tx.mirrorOrder.upsert({ where: { id: order.id }, create: { id: order.id, ...row }, update: row });
      await tx.mirrorFulfillmentOrder.deleteMany({ where: { orderId: order.id } });
      const fulfillmentOrders = fulfillmentOrderRows(shop, order);
      if (fulfillmentOrders.length > 0) await tx.mirrorFulfillmentOrder.createMany({ data: fulfillmentOrders });
    }
  });
}

const StringArray = z.array(z.string());
const ShippingLine = z.object({ title: z.string(), amount: z.string(), currency: z.string() });

/** The stored shipping line (JSON OrderShippingLine), or null for none or one stored before it was mirrored. */
export function parseShippingLine(stored: string | null): OrderShippingLine | null {
  if (!stored) return null;
  const parsed = ShippingLine.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : null;
}
const Holds = z.array(z.object({ reason: z.string(), reasonNotes: z.string().nullable() }));

/** The mirrored orders with these ids, in the order asked; ids not mirrored are left out. */
export async function loadMirroredOrders({ db, shop }: Pick<Context, "db" | "shop">, ids: readonly string[]): Promise<MirroredOrder[]> {
  const rows = await readInChunks(db, ids, (chunk) => db.mirrorOrder.findMany({ where: { shop, id: { in: chunk } }, include: { fulfillmentOrders: true } }));
  const byId = new Map(
    rows.map((row): [string, MirroredOrder] => [
      row.id,
      {
        id: row.id,
        name: row.name,
        email: row.email,
        currencyCode: row.currencyCode,
        createdAt: row.orderCreatedAt.toISOString(),
        cancelledAt: row.cancelledAt?.toISOString() ?? null,
        tags: StringArray.parse(JSON.parse(row.tags)),
        displayFulfillmentStatus: row.displayFulfillmentStatus,
        shippingAddress: row.shippingAddress ? JSON.parse(row.shippingAddress) : null,
        shippingLine: parseShippingLine(row.shippingLine),
        fulfillmentOrders: row.fulfillmentOrders
          .sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }))
          .map((fo) => ({
            id: fo.id,
            status: fo.status,
            requestStatus: fo.requestStatus,
            deliveryMethod: fo.deliveryMethod as MirroredOrder["fulfillmentOrders"][number]["deliveryMethod"],
            assignedLocationId: fo.assignedLocationId,
            assignedToFulfillmentService: fo.assignedToFulfillmentService,
            supportedActions: StringArray.parse(JSON.parse(fo.supportedActions)),
            holds: Holds.parse(JSON.parse(fo.holds)),
            lines: JSON.parse(fo.lines),
          })),
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const OrderData = z.object({ order: OrderNode.nullable() });

/**
 * Re-reads one order from Shopify into the mirror (webhooks: orders/*, fulfillment_orders/*, fulfillments/*).
 * An order Shopify no longer returns is removed. Returns the order as now mirrored, or null.
 */
export async function refreshOrder(ctx: ShopifyMirrorContext, orderId: string): Promise<MirroredOrder | null> {
  const { order } = await adminQuery(await ctx.shopify(), ORDER_FOR_SHIPPING, OrderData, { id: orderId });
  if (!order) {
    await ctx.db.mirrorOrder.deleteMany({ where: { id: orderId, shop: ctx.shop } });
    return null;
  }
  const mirrored = toMirroredOrder(order);
  await saveMirroredOrders(ctx, [mirrored]);
  return mirrored;
}

const RunBulkData = z.object({
  bulkOperationRunQuery: z
    .object({
      bulkOperation: z.object({ id: z.string(), status: z.string() }).nullable(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
    })
    .nullable(),
});

const BulkStatusData = z.object({
  bulkOperation: z
    .object({ id: z.string(), status: z.string(), errorCode: z.string().nullable(), objectCount: z.string(), url: z.string().nullable() })
    .nullable(),
});

export class MirrorSyncError extends Error {
  override name = "MirrorSyncError";
}

/** Starts a backfill/reconciliation: one bulk operation over every order with something left to ship. */
export async function startMirrorSync(ctx: ShopifyMirrorContext): Promise<{ syncId: string }> {
  const { bulkOperationRunQuery: result } = await adminQuery(await ctx.shopify(), RUN_BULK_QUERY, RunBulkData, { query: FULFILLMENT_ORDERS_TO_SHIP_BULK });
  if (!result?.bulkOperation) {
    throw new MirrorSyncError(`Shopify refused the order export: ${(result?.userErrors ?? []).map((error) => error.message).join("; ")}`);
  }
  const sync = await ctx.db.mirrorSync.create({
    data: { shop: ctx.shop, bulkOperationId: result.bulkOperation.id, status: "RUNNING", startedAt: ctx.now() },
  });
  return { syncId: sync.id };
}

export type SyncProgress = { status: "RUNNING"; objectCount: number } | { status: "COMPLETED"; ordersSeen: number } | { status: "FAILED"; error: string };

/**
 * Advances a running sync: while the bulk operation runs, reports its progress; once it completed,
 * downloads the JSONL, saves every order, and removes mirrored orders the export no longer contains
 * (fulfilled or closed since). Safe to call repeatedly.
 */
export async function advanceMirrorSync(
  ctx: ShopifyMirrorContext,
  syncId: string,
  download: (url: string) => Promise<string> = async (url) => (await fetch(url)).text(),
): Promise<SyncProgress> {
  const { db, shop } = ctx;
  const sync = await db.mirrorSync.findUniqueOrThrow({ where: { id: syncId } });
  if (sync.status === "COMPLETED") return { status: "COMPLETED", ordersSeen: sync.ordersSeen };
  if (sync.status === "FAILED") return { status: "FAILED", error: sync.error ?? "failed" };
  const { bulkOperation } = await adminQuery(await ctx.shopify(), BULK_OPERATION, BulkStatusData, { id: sync.bulkOperationId });
  if (!bulkOperation) return fail(ctx, syncId, "Shopify no longer knows this export");
  if (bulkOperation.status === "CREATED" || bulkOperation.status === "RUNNING") {
    return { status: "RUNNING", objectCount: Number(bulkOperation.objectCount) };
  }
  if (bulkOperation.status !== "COMPLETED") {
    return fail(ctx, syncId, `The order export ended ${bulkOperation.status.toLowerCase()}${bulkOperation.errorCode ? ` (${bulkOperation.errorCode})` : ""}`);
  }
  const orders = bulkOperation.url ? reassembleBulkOrders(await download(bulkOperation.url)).map((node) => toMirroredOrder(OrderNode.parse(node))) : [];
  await saveMirroredOrders(ctx, orders);
  await db.mirrorOrder.deleteMany({ where: { shop, syncedAt: { lt: sync.startedAt } } });
  await db.mirrorSync.update({ where: { id: syncId }, data: { status: "COMPLETED", ordersSeen: orders.length, finishedAt: ctx.now() } });
  return { status: "COMPLETED", ordersSeen: orders.length };
}

async function fail(ctx: Pick<Context, "db" | "now">, syncId: string, error: string): Promise<SyncProgress> {
  await ctx.db.mirrorSync.update({ where: { id: syncId }, data: { status: "FAILED", error, finishedAt: ctx.now() } });
  return { status: "FAILED", error };
}
