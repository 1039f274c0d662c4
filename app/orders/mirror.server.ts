import { z } from "zod";
import type { MirrorFulfillmentOrder, MirrorOrder } from "@prisma/client";
import type { Context } from "../context";
import { crashPoint } from "../crash-points.server";
import { readByIds } from "../db/id-lists.server";
import { selectRowsByIds, selectShopRowsByIds } from "../db/db-batch.server";
import { bound } from "../db/sql-template";
import { groupedBy } from "../grouped";
import { adminQuery } from "../shopify/gateway.server";
import { exportPieces, jsonlLines } from "./bulk-export";
import { FULFILLMENT_ORDER_COLUMNS, MIRROR_WRITE_TIMEOUT_MS, ORDER_COLUMNS, saveMirroredOrders, writeMirroredOrders } from "./mirror-store.server";
import { BULK_OPERATION, ORDER_FOR_SHIPPING, FULFILLMENT_ORDERS_TO_SHIP_BULK, RUN_BULK_QUERY } from "./order-documents";
import { OrderNode, reassembleBulkOrders, toMirroredOrder, type MirroredOrder, type OrderAttribute } from "./order-node";
import type { OrderShippingLine } from "./types";

/**
 * The order mirror: a Prisma copy of orders awaiting shipment, so quoting 500 orders reads the
 * app's database instead of making 500 order reads from Shopify at click time. Filled by a bulk operation
 * on install and on demand, kept current by webhooks (refreshOrder).
 */

/** What writing the mirror needs besides the database and the shop: the clock, and for Shopify's reads its gateway. */
type ShopifyMirrorContext = Pick<Context, "db" | "shop" | "now" | "shopify">;

const StringArray = z.array(z.string());
const ShippingLine = z.object({ title: z.string(), amount: z.string(), currency: z.string() });

/** The stored shipping line (JSON OrderShippingLine), or null for none or one stored before it was mirrored. */
export function parseShippingLine(stored: string | null): OrderShippingLine | null {
  if (!stored) return null;
  const parsed = ShippingLine.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : null;
}
const Attributes = z.array(z.object({ key: z.string(), value: z.string() }));

/** The stored custom attributes (JSON OrderAttribute[]), or none for a row stored before they were mirrored. */
function parseAttributes(stored: string | null): OrderAttribute[] {
  if (!stored) return [];
  const parsed = Attributes.safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : [];
}
const Holds = z.array(z.object({ reason: z.string(), reasonNotes: z.string().nullable() }));

type OrderRow = Pick<MirrorOrder, (typeof ORDER_COLUMNS)[number]>;
type FulfillmentOrderRow = Pick<MirrorFulfillmentOrder, (typeof FULFILLMENT_ORDER_COLUMNS)[number]>;

/**
 * The mirrored orders with these ids, in the order asked; ids not mirrored are left out. Read raw (`selectRowsByIds`),
 * the orders and their fulfillment orders each by one statement a chunk of ids: a quote run reads thousands, and
 * through Prisma's client an order with its fulfillment orders cost tens of microseconds of mapping each.
 */
export async function loadMirroredOrders(ctx: Pick<Context, "db" | "shop">, ids: readonly string[]): Promise<MirroredOrder[]> {
  const { shop } = ctx;
  const unique = [...new Set(ids)];
  const ofShop = [`"shop" = `, bound(shop)];
  // Both at once: on PostgreSQL each on a connection of its own.
  const [rows, fulfillmentOrderRows] = await Promise.all([
    selectShopRowsByIds<OrderRow>(ctx, { table: "MirrorOrder", columns: ORDER_COLUMNS, column: "id", ids: unique }),
    selectRowsByIds<FulfillmentOrderRow>(ctx, {
      table: "MirrorFulfillmentOrder",
      columns: FULFILLMENT_ORDER_COLUMNS,
      where: ofShop,
      column: "orderId",
      ids: unique,
      orderBy: ["id"],
    }),
  ]);
  const fulfillmentOrdersOf = groupedBy(fulfillmentOrderRows, (row) => row.orderId);
  const byId = new Map(
    rows.map((row): [string, MirroredOrder] => [
      row.id,
      {
        id: row.id,
        name: row.name,
        email: row.email,
        customerId: row.customerId,
        currencyCode: row.currencyCode,
        createdAt: row.orderCreatedAt.toISOString(),
        updatedAt: row.orderUpdatedAt?.toISOString() ?? null,
        cancelledAt: row.cancelledAt?.toISOString() ?? null,
        tags: StringArray.parse(JSON.parse(row.tags)),
        displayFulfillmentStatus: row.displayFulfillmentStatus,
        shippingAddress: row.shippingAddress ? JSON.parse(row.shippingAddress) : null,
        shippingLine: parseShippingLine(row.shippingLine),
        note: row.note,
        customAttributes: parseAttributes(row.customAttributes),
        fulfillmentOrders: mirroredFulfillmentOrders(fulfillmentOrdersOf.get(row.id) ?? []),
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type MirroredFulfillmentOrder = MirroredOrder["fulfillmentOrders"][number];

/** An order's fulfillment orders as stored, in Shopify's order (by id, numerically). */
function mirroredFulfillmentOrders(rows: FulfillmentOrderRow[]): MirroredFulfillmentOrder[] {
  return rows
    .sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }))
    .map((fo) => ({
      id: fo.id,
      status: fo.status,
      requestStatus: fo.requestStatus,
      deliveryMethod: fo.deliveryMethod as MirroredFulfillmentOrder["deliveryMethod"],
      assignedLocationId: fo.assignedLocationId,
      assignedToFulfillmentService: fo.assignedToFulfillmentService,
      supportedActions: StringArray.parse(JSON.parse(fo.supportedActions)),
      holds: Holds.parse(JSON.parse(fo.holds)),
      lines: JSON.parse(fo.lines),
    }));
}

/**
 * Only the fulfillment orders of these mirrored orders, by order id (an order without any maps to none): what
 * deciding whether an order can ship reads, without its address, tags and the rest.
 */
export async function loadMirroredFulfillmentOrders(
  ctx: Pick<Context, "db" | "shop">,
  orderIds: readonly string[],
): Promise<Map<string, MirroredFulfillmentOrder[]>> {
  const { db, shop } = ctx;
  const rows = await readByIds(ctx, [...new Set(orderIds)], (chunk) => db.mirrorFulfillmentOrder.findMany({ where: { shop, orderId: { in: chunk } } }));
  return new Map([...groupedBy(rows, (row) => row.orderId)].map(([orderId, list]) => [orderId, mirroredFulfillmentOrders(list)]));
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
 * Fulfillment orders saved per transaction: a batch of orders written in a few multi-row statements on either
 * database, well inside any transaction timeout, and the most of the export the app holds at once (at 500 the
 * app's peak RSS on PostgreSQL was 255–261 MB, over its 250 MB budget; at 250 it is 217–238 MB).
 */
const SYNC_PIECE_FULFILLMENT_ORDERS = 250;

/** The lines of a completed export's JSONL, as they download. */
export type ExportReader = (url: string) => AsyncIterable<string>;

async function* downloadExport(url: string): AsyncGenerator<string> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new MirrorSyncError(`Shopify's order export could not be downloaded (HTTP ${response.status})`);
  yield* jsonlLines(response.body);
}

/**
 * Advances a running sync: while the bulk operation runs, reports its progress; once it completed, streams the
 * JSONL and saves it a piece at a time, each piece in one transaction with the sync's `linesSaved`, so a sync
 * stopped at any point (a crash, a deploy, `signal`) goes on after its last saved piece; then removes what the
 * export no longer contains (fulfilled or closed since) and what a webhook did not write meanwhile. Safe to call
 * repeatedly.
 */
export async function advanceMirrorSync(
  ctx: ShopifyMirrorContext,
  syncId: string,
  { readExport = downloadExport, signal }: { readExport?: ExportReader; signal?: AbortSignal } = {},
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
  const exportLines = Number(bulkOperation.objectCount);
  if (sync.exportLines === null) await db.mirrorSync.update({ where: { id: syncId }, data: { exportLines } });
  if (bulkOperation.url) {
    const pieces = exportPieces(readExport(bulkOperation.url), { skip: sync.linesSaved, roots: SYNC_PIECE_FULFILLMENT_ORDERS });
    try {
      for await (const piece of pieces) {
        const orders = reassembleBulkOrders(piece.objects).map((node) => toMirroredOrder(OrderNode.parse(node)));
        await db.$transaction(
          async (tx) => {
            await writeMirroredOrders(ctx, tx, orders, { syncedAt: sync.startedAt, whole: false });
            await tx.mirrorSync.update({ where: { id: syncId }, data: { linesSaved: piece.linesThrough } });
          },
          { timeout: MIRROR_WRITE_TIMEOUT_MS },
        );
        crashPoint("mirror-sync:piece-saved");
        if (signal?.aborted) return { status: "RUNNING", objectCount: exportLines };
      }
    } catch (error) {
      // An export Shopify no longer serves, or one that is not what the query asks for, will not read on a retry.
      if (error instanceof MirrorSyncError) return fail(ctx, syncId, error.message);
      if (error instanceof SyntaxError || error instanceof z.ZodError)
        return fail(ctx, syncId, `Shopify's order export could not be read (${error.message.slice(0, 200)}).`);
      throw error;
    }
  }
  const ordersSeen = await db.$transaction(
    async (tx) => {
      // Neither in the export nor re-read by a webhook since the sync started: nothing left to ship.
      await tx.mirrorOrder.deleteMany({ where: { shop, syncedAt: { lt: sync.startedAt } } });
      await tx.mirrorFulfillmentOrder.deleteMany({ where: { shop, OR: [{ syncedAt: null }, { syncedAt: { lt: sync.startedAt } }] } });
      const seen = await tx.mirrorOrder.count({ where: { shop } });
      await tx.mirrorSync.update({ where: { id: syncId }, data: { status: "COMPLETED", ordersSeen: seen, finishedAt: ctx.now() } });
      return seen;
    },
    { timeout: MIRROR_WRITE_TIMEOUT_MS },
  );
  return { status: "COMPLETED", ordersSeen };
}

async function fail(ctx: Pick<Context, "db" | "now">, syncId: string, error: string): Promise<SyncProgress> {
  await ctx.db.mirrorSync.update({ where: { id: syncId }, data: { status: "FAILED", error, finishedAt: ctx.now() } });
  return { status: "FAILED", error };
}
