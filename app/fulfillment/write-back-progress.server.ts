import type { Shipment } from "@prisma/client";
import type { Context } from "../context";
import { FulfillmentStatus, OUTSTANDING, writeBackJob } from "./write-back.server";

/**
 * The write-back's progress as the Fulfillments page shows it (write-back.server.ts does the work): how many
 * shipments wait, are being written, were fulfilled or failed, and each order's outcome in the merchant's words.
 */

export interface WriteBackItem {
  shipmentId: string;
  orderId: string;
  orderName: string;
  trackingNumber: string | null;
  status: Exclude<FulfillmentStatus, "NONE">;
  /** What happened, and for failures what to do. */
  message: string;
  fulfillmentId: string | null;
  fulfilledAt: string | null;
}

export interface WriteBackProgress {
  queued: number;
  inProgress: number;
  fulfilled: number;
  failed: number;
  total: number;
  /** Queued or in progress: the page keeps polling while this is above zero. */
  remaining: number;
  running: boolean;
  /** Failures first, then work in progress, then the most recent fulfillments; at most `limit`. */
  items: WriteBackItem[];
}

/** Fulfilled shipments stay in view this long; failures stay until retried. */
const FULFILLED_IN_VIEW_MS = 24 * 60 * 60 * 1000;

function itemMessage(row: Pick<Shipment, "fulfillmentStatus" | "trackingNumber" | "fulfillmentError">): string {
  switch (row.fulfillmentStatus) {
    case FulfillmentStatus.PENDING:
      return "Waiting to be written to Shopify.";
    case FulfillmentStatus.CREATING:
      return "Being written to Shopify.";
    case FulfillmentStatus.FULFILLED:
      return `Fulfilled in Shopify with tracking ${row.trackingNumber}.`;
    default:
      return row.fulfillmentError ?? "The fulfillment could not be written to Shopify. Choose Retry.";
  }
}

/** Counts and per-order outcomes of the shop's write-back: everything outstanding or failed, and the last day's fulfillments. */
export async function writeBackProgress(ctx: Pick<Context, "db" | "shop" | "now" | "jobs">, limit = 250): Promise<WriteBackProgress> {
  const { db, shop } = ctx;
  const recentlyFulfilled = {
    shop,
    kind: "OUTBOUND",
    fulfillmentStatus: FulfillmentStatus.FULFILLED,
    fulfilledAt: { gte: new Date(ctx.now().getTime() - FULFILLED_IN_VIEW_MS) },
  };
  const open = { shop, kind: "OUTBOUND", fulfillmentStatus: { in: [FulfillmentStatus.FAILED, ...OUTSTANDING] } };
  const inView = { OR: [open, recentlyFulfilled] };
  const counts = await db.shipment.groupBy({ by: ["fulfillmentStatus"], where: inView, _count: { _all: true } });
  const count = (status: FulfillmentStatus) => counts.find((entry) => entry.fulfillmentStatus === status)?._count._all ?? 0;
  const select = {
    id: true,
    orderId: true,
    orderName: true,
    trackingNumber: true,
    fulfillmentStatus: true,
    fulfillmentError: true,
    fulfillmentId: true,
    fulfilledAt: true,
  } as const;
  const outstanding = await db.shipment.findMany({
    where: open,
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
    take: limit,
    select,
  });
  const rank: Record<string, number> = { FAILED: 0, CREATING: 1, PENDING: 2 };
  outstanding.sort((a, b) => (rank[a.fulfillmentStatus] ?? 3) - (rank[b.fulfillmentStatus] ?? 3));
  const fulfilled =
    outstanding.length < limit
      ? await db.shipment.findMany({
          where: recentlyFulfilled,
          orderBy: [{ fulfilledAt: "desc" }, { id: "asc" }],
          take: limit - outstanding.length,
          select,
        })
      : [];
  const queued = count(FulfillmentStatus.PENDING);
  const inProgress = count(FulfillmentStatus.CREATING);
  const items = [...outstanding, ...fulfilled].map((row): WriteBackItem => ({
    shipmentId: row.id,
    orderId: row.orderId,
    orderName: row.orderName,
    trackingNumber: row.trackingNumber,
    status: row.fulfillmentStatus as WriteBackItem["status"],
    message: itemMessage(row),
    fulfillmentId: row.fulfillmentId,
    fulfilledAt: row.fulfilledAt?.toISOString() ?? null,
  }));
  return {
    queued,
    inProgress,
    fulfilled: count(FulfillmentStatus.FULFILLED),
    failed: count(FulfillmentStatus.FAILED),
    total: counts.reduce((sum, entry) => sum + entry._count._all, 0),
    remaining: queued + inProgress,
    running: await ctx.jobs.busy(writeBackJob, { shop }),
    items,
  };
}

/** The Fulfillments page's view of the write-back: it only reads (bookings queue their own write-back). */
export async function viewWriteBack(ctx: Pick<Context, "db" | "shop" | "now" | "jobs">): Promise<WriteBackProgress> {
  return writeBackProgress(ctx);
}
