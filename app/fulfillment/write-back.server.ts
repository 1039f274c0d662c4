import type { PrismaClient, Shipment } from "@prisma/client";
import { HttpResponseError } from "@shopify/shopify-api";
import { z } from "zod";
import { describeError } from "../../shipping-api/client";
import type { Context, Logger } from "../context";
import { crashPoint } from "../crash-points.server";
import { defineJob, type JobServices } from "../jobs/job";
import { loadMirroredOrders } from "../orders/mirror.server";
import { loadSettings } from "../settings/account.server";
import { keptShopTimeZone } from "../settings/shop-time-zone.server";
import { shippingClientFor } from "../shipping/client.server";
import { AdminApiError, adminQuery, holdMirrorSync, isTransient, type ShopAdmin } from "../shopify/gateway.server";
import { forEachInFlight } from "../shopify/in-flight";
import { pieceTrackingNumbers } from "../search/piece-numbers.server";
import { startTracking } from "../tracking/following.server";
import { trackingPageUrl } from "./tracking-link.server";
import { fulfillmentTracking } from "./tracking-info";
import {
  CREATE_FULFILLMENT,
  CreateFulfillmentData,
  FULFILLMENTS_READ,
  ORDER_FULFILLMENT_ORDERS,
  OrderFulfillmentOrdersData,
  toFulfillmentOrderStates,
  toShipmentState,
  WRITE_BACK_STATE,
  WriteBackStateData,
} from "./write-back-documents";
import {
  decideWriteBack,
  locateWriteBack,
  writeFirstFromMirror,
  type FulfillmentOrderState,
  type MirroredFulfillmentOrderState,
  type QueuedShipment,
  type ShipmentLine,
} from "./write-back-plan";
import { writeByIds } from "../db/id-lists.server";

/**
 * Fulfillment write-back: every booked shipment becomes exactly one Shopify fulfillment with its tracking
 * number. A booked shipment waits as fulfillmentStatus PENDING (booking sets it in the same update as BOOKED);
 * the worker records CREATING before it asks Shopify anything, and counts every fulfillmentCreate it sends
 * (fulfillmentAttempts) before sending it.
 *
 * Write first, read when in doubt (docs/decisions/008): a shipment that has never been sent to Shopify, whose
 * fulfillment order the order mirror holds as fulfillable, is created straight away — no fulfillment of it
 * can exist yet, and Shopify refuses a create the mirror was wrong about. Everything else reads Shopify's
 * state first: a shipment found CREATING (a crash), one that was sent before (a lost answer, a retry), one
 * the mirror does not vouch for, and one whose create Shopify refused. A fulfillment that already carries
 * the tracking number is then linked instead of created again, so running the worker twice, or after a
 * crash, never fulfils twice.
 *
 * Shipments are written one at a time at Shopify's standard limits, where the cost bucket, not latency, is
 * the bottleneck; a plan restoring more points per second keeps more in flight (app/shopify/in-flight.ts).
 * The gateway's pacer spends the bucket evenly at the restore rate Shopify reports (`npm run bench:write-back`).
 */

export type Db = Pick<
  PrismaClient,
  "shipment" | "trackingSchedule" | "shippingAccount" | "shopSettings" | "mirrorOrder" | "mirrorFulfillmentOrder" | "mirrorSync" | "$transaction"
>;

export const FulfillmentStatus = {
  NONE: "NONE",
  PENDING: "PENDING",
  CREATING: "CREATING",
  FULFILLED: "FULFILLED",
  FAILED: "FAILED",
} as const;
export type FulfillmentStatus = (typeof FulfillmentStatus)[keyof typeof FulfillmentStatus];

/** A shipment still waiting for Shopify: queued, or interrupted while being written. */
export const OUTSTANDING = [FulfillmentStatus.PENDING, FulfillmentStatus.CREATING];

const ShipmentLines = z.array(z.object({ fulfillmentOrderLineItemId: z.string().min(1), quantity: z.number().int().positive() })).min(1);

export interface WriteBackOptions {
  sleep?: (ms: number) => Promise<void>;
  /** Waits before each further attempt when Shopify does not answer; one attempt more than entries. */
  retryDelaysMs?: readonly number[];
}

export interface WriteBackSummary {
  fulfilled: number;
  failed: number;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 20_000];
/** Fulfillments created before this margin ahead of booking cannot be this shipment's (clock skew allowed for). */
const FULFILLMENT_SEARCH_MARGIN_MS = 24 * 60 * 60 * 1000;

/** The Shipping API's carrier labels by code, for the tracking company; empty (codes are used) when unavailable. */
async function carrierLabels({ db, shop, log }: { db: Db; shop: string; log: Logger }): Promise<Map<string, string>> {
  try {
    const client = await shippingClientFor(db, shop, { timeoutMs: 10_000, retry: { attempts: 2 } });
    const services = await client.listServices();
    if (services.ok) return new Map(services.value.services.map((service) => [service.carrierCode, service.carrierLabel]));
    log.warn(`carrier names unavailable (${describeError(services.error)}); fulfillments name carriers by code`);
  } catch (error) {
    log.warn(`carrier names unavailable (${errorText(error)}); fulfillments name carriers by code`);
  }
  return new Map();
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface RunContext {
  /** The shop's database and Shipping API, for reading a shipment's piece numbers. */
  context: Pick<Context, "db" | "shipping">;
  log: Logger;
  admin: ShopAdmin;
  db: Db;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
  retryDelaysMs: readonly number[];
  notifyCustomer: boolean;
  labels: Map<string, string>;
  /** The shop's time zone, for the times a message names. */
  timeZone: string;
}

type Outcome = { status: "FULFILLED"; fulfillmentId: string } | { status: "FAILED"; message: string };

/** Records the outcome of a shipment's write-back; a fulfillment starts its tracking in the same transaction. */
async function record(run: RunContext, shipment: Pick<Shipment, "id" | "shop">, outcome: Outcome): Promise<void> {
  if (outcome.status === "FULFILLED") {
    const now = run.now();
    await run.db.$transaction(
      startTracking(run.db, shipment, now, {
        fulfillmentStatus: FulfillmentStatus.FULFILLED,
        fulfillmentId: outcome.fulfillmentId,
        fulfilledAt: now,
        fulfillmentError: null,
      }),
    );
    return;
  }
  await run.db.shipment.update({ where: { id: shipment.id }, data: { fulfillmentStatus: FulfillmentStatus.FAILED, fulfillmentError: outcome.message } });
}

async function readCurrentFulfillmentOrders(admin: ShopAdmin, orderId: string): Promise<FulfillmentOrderState[]> {
  const found: FulfillmentOrderState[] = [];
  let after: string | null = null;
  // Bounded: an order with more than 25 fulfillment orders is beyond what a parcel is followed through.
  for (let page = 0; page < 5; page++) {
    const data: z.infer<typeof OrderFulfillmentOrdersData> = await adminQuery(admin, ORDER_FULFILLMENT_ORDERS, OrderFulfillmentOrdersData, { orderId, after });
    found.push(...toFulfillmentOrderStates(data));
    const pageInfo = data.order?.fulfillmentOrders.pageInfo;
    if (!pageInfo?.hasNextPage || !pageInfo.endCursor) break;
    after = pageInfo.endCursor;
  }
  return found;
}

type QueuedRow = QueuedShipment & { orderId: string; carrierCode: string; trackingNumbers: readonly [string, ...string[]] };
type Target = { fulfillmentOrderId: string; lines: ShipmentLine[] };
type Created = { fulfillmentId: string } | { refused: string };

/** Sends one fulfillmentCreate for the shipment on `target`; the caller has counted the attempt. */
async function createFulfillment(run: RunContext, row: Shipment, shipment: QueuedRow, target: Target): Promise<Created> {
  const trackingInfo = fulfillmentTracking({
    carrierCode: shipment.carrierCode,
    carrierLabel: run.labels.get(shipment.carrierCode),
    trackingNumbers: shipment.trackingNumbers,
    trackingPageUrl: trackingPageUrl(row.id),
  });
  crashPoint("fulfillment:before-create");
  const created = await adminQuery(run.admin, CREATE_FULFILLMENT, CreateFulfillmentData, {
    fulfillment: {
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: target.fulfillmentOrderId,
          fulfillmentOrderLineItems: target.lines.map((line) => ({ id: line.fulfillmentOrderLineItemId, quantity: line.quantity })),
        },
      ],
      notifyCustomer: run.notifyCustomer,
      trackingInfo,
    },
  });
  crashPoint("fulfillment:after-create");
  const fulfillment = created.fulfillmentCreate?.fulfillment;
  if (fulfillment) return { fulfillmentId: fulfillment.id };
  return { refused: created.fulfillmentCreate?.userErrors.map((error) => error.message).join(" ") || "no reason given." };
}

function refusedOutcome(shipment: QueuedRow, reasons: string): Outcome {
  return {
    status: "FAILED",
    message: `Shopify refused the fulfillment for ${shipment.orderName} (tracking ${shipment.trackingNumber}): ${reasons} Check the order in Shopify, then choose Retry.`,
  };
}

function created(result: Created, shipment: QueuedRow): Outcome {
  return "fulfillmentId" in result ? { status: "FULFILLED", fulfillmentId: result.fulfillmentId } : refusedOutcome(shipment, result.refused);
}

/**
 * Reads the shipment's state in Shopify, decides, and creates only when nothing else will do. `refused` is a
 * create Shopify has just refused (nothing was created): the same create is not sent again.
 */
async function readThenWrite(run: RunContext, row: Shipment, shipment: QueuedRow, refused?: Target & { reasons: string }): Promise<Outcome> {
  const since = new Date((row.bookedAt ?? row.createdAt).getTime() - FULFILLMENT_SEARCH_MARGIN_MS).toISOString();
  const lineIds = shipment.lines.map((line) => line.fulfillmentOrderLineItemId);
  const data = await adminQuery(run.admin, WRITE_BACK_STATE, WriteBackStateData, {
    fulfillmentOrderId: shipment.fulfillmentOrderId,
    lineIds,
    orderId: shipment.orderId,
    fulfillmentsFirst: FULFILLMENTS_READ,
    fulfillmentsQuery: `created_at:>='${since}'`,
  });
  const state = toShipmentState(data, lineIds);
  let decision = decideWriteBack(shipment, state, run.timeZone);
  if (decision.kind === "locate")
    decision = locateWriteBack(shipment, state.lines, await readCurrentFulfillmentOrders(run.admin, shipment.orderId), run.timeZone);
  if (decision.kind === "link") return { status: "FULFILLED", fulfillmentId: decision.fulfillmentId };
  if (decision.kind === "fail") return { status: "FAILED", message: decision.message };
  if (refused && decision.fulfillmentOrderId === refused.fulfillmentOrderId && sameLines(decision.lines, refused.lines))
    return refusedOutcome(shipment, refused.reasons);

  const moved = decision.fulfillmentOrderId !== shipment.fulfillmentOrderId || !sameLines(decision.lines, shipment.lines);
  // The attempt is counted before it is sent; when the units moved, the shipment now points at where they are.
  await run.db.shipment.update({
    where: { id: row.id },
    data: {
      fulfillmentAttempts: { increment: 1 },
      ...(moved ? { fulfillmentOrderId: decision.fulfillmentOrderId, lines: JSON.stringify(decision.lines) } : {}),
    },
  });
  return created(await createFulfillment(run, row, shipment, decision), shipment);
}

/** Creates on the shipment's own fulfillment order without reading first; a refusal is read back and decided. */
async function writeFirst(run: RunContext, row: Shipment, shipment: QueuedRow): Promise<Outcome> {
  const target = { fulfillmentOrderId: shipment.fulfillmentOrderId, lines: shipment.lines };
  const result = await createFulfillment(run, row, shipment, target);
  if ("fulfillmentId" in result) return { status: "FULFILLED", fulfillmentId: result.fulfillmentId };
  return readThenWrite(run, row, shipment, { ...target, reasons: result.refused });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sameLines(a: readonly ShipmentLine[], b: readonly ShipmentLine[]): boolean {
  return (
    a.length === b.length &&
    a.every((line, index) => line.fulfillmentOrderLineItemId === b[index]?.fulfillmentOrderLineItemId && line.quantity === b[index]?.quantity)
  );
}

/** Writes one shipment back; its row records intent first and the outcome last. */
async function writeBackShipment(run: RunContext, row: Shipment, mirrored: MirroredFulfillmentOrderState | null): Promise<Outcome | null> {
  const lines = ShipmentLines.safeParse(parseJson(row.lines));
  if (row.bookingStatus !== "BOOKED" || !row.trackingNumber || !row.carrierCode || !lines.success) {
    const outcome: Outcome = {
      status: "FAILED",
      message: `${row.orderName} has no booked label with a tracking number in Consign, so there is nothing to write to Shopify. Book the shipment again.`,
    };
    await record(run, row, outcome);
    return outcome;
  }
  // Every box's number goes into the one fulfillment: read (once, and stored) before the first attempt.
  const pieces = await pieceTrackingNumbers(run.context, row);
  if (!pieces.ok) {
    run.log.warn({ shipmentId: row.id, orderName: row.orderName }, `fulfillment write-back waits: ${pieces.message}`);
    return null;
  }
  const shipment: QueuedRow = {
    orderId: row.orderId,
    orderName: row.orderName,
    fulfillmentOrderId: row.fulfillmentOrderId,
    lines: lines.data,
    trackingNumber: row.trackingNumber,
    trackingNumbers: [row.trackingNumber, ...pieces.numbers.filter((number) => number !== row.trackingNumber)],
    carrierCode: row.carrierCode,
  };
  // Never sent to Shopify (no attempt counted, not interrupted) and vouched for by the mirror: write first.
  const first = row.fulfillmentStatus === FulfillmentStatus.PENDING && row.fulfillmentAttempts === 0 && writeFirstFromMirror(shipment, mirrored);
  // Intent: from here the outcome is unknown until recorded. Writing first counts its attempt in the same update.
  const claimed = await run.db.shipment.updateMany({
    where: first
      ? { id: row.id, fulfillmentStatus: FulfillmentStatus.PENDING, fulfillmentAttempts: 0 }
      : { id: row.id, fulfillmentStatus: { in: OUTSTANDING } },
    data: { fulfillmentStatus: FulfillmentStatus.CREATING, fulfillmentError: null, ...(first ? { fulfillmentAttempts: 1 } : {}) },
  });
  if (claimed.count === 0) return null;
  for (let tries = 0; ; tries++) {
    try {
      // A later try may follow a create whose answer was lost: it reads before anything else.
      const outcome = first && tries === 0 ? await writeFirst(run, row, shipment) : await readThenWrite(run, row, shipment);
      await record(run, row, outcome);
      return outcome;
    } catch (error) {
      const transient = isTransient(error);
      if (transient && tries < run.retryDelaysMs.length) {
        await run.sleep(run.retryDelaysMs[tries]!);
        continue;
      }
      run.log.error({ err: error, shipmentId: row.id, orderName: row.orderName }, "fulfillment write-back failed");
      const outcome: Outcome = {
        status: "FAILED",
        message: transient
          ? `Shopify did not answer while Consign was fulfilling ${row.orderName}. Choose Retry: Consign looks for tracking ${row.trackingNumber} first and never creates the fulfillment twice.`
          : error instanceof AdminApiError || error instanceof HttpResponseError
            ? `Shopify refused to fulfil ${row.orderName}: ${errorText(error)}. Check the app's access and the order in Shopify, then choose Retry.`
            : `Consign could not fulfil ${row.orderName} because of an unexpected error (${errorText(error)}). Choose Retry; if it happens again, contact support.`,
      };
      await record(run, row, outcome);
      return outcome;
    }
  }
}

/** The mirror's view of each row's fulfillment order, by fulfillment order id (one read per page of rows). */
async function mirroredFulfillmentOrders(ctx: Pick<Context, "db" | "shop">, rows: readonly Shipment[]): Promise<Map<string, MirroredFulfillmentOrderState>> {
  const orders = await loadMirroredOrders(ctx, [...new Set(rows.map((row) => row.orderId))]);
  return new Map(
    orders.flatMap((order) =>
      order.fulfillmentOrders.map((fo): [string, MirroredFulfillmentOrderState] => [fo.id, { ...fo, orderCancelled: order.cancelledAt !== null }]),
    ),
  );
}

/**
 * Writes back every PENDING shipment of the shop, and every CREATING one a crash left behind, until none is
 * left; returns how many ended fulfilled and failed.
 */
export async function writeBack(
  ctx: Pick<Context, "db" | "shop" | "now" | "shopify" | "shipping" | "log">,
  options: WriteBackOptions = {},
): Promise<WriteBackSummary> {
  const summary: WriteBackSummary = { fulfilled: 0, failed: 0 };
  const { db } = ctx;
  const admin = await ctx.shopify();
  const run: RunContext = {
    context: ctx,
    log: ctx.log,
    admin,
    db,
    now: () => ctx.now(),
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    notifyCustomer: (await loadSettings(ctx)).notifyCustomer,
    labels: await carrierLabels(ctx),
    timeZone: await keptShopTimeZone(ctx),
  };
  // The mirror's re-reads (its own fulfillments' webhooks among them) wait until the last write: they are
  // coalesced meanwhile, and every point goes to the writes (docs/decisions/033).
  const releaseSync = holdMirrorSync(admin);
  try {
    return await writeAll(ctx, run, summary);
  } finally {
    releaseSync();
  }
}

async function writeAll(ctx: Pick<Context, "db" | "shop">, run: RunContext, summary: WriteBackSummary): Promise<WriteBackSummary> {
  const { db, shop } = ctx;
  const { admin } = run;
  for (;;) {
    const rows = await db.shipment.findMany({
      where: { shop, kind: "OUTBOUND", fulfillmentStatus: { in: OUTSTANDING } },
      orderBy: [{ bookedAt: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      take: 200,
    });
    const mirrored = await mirroredFulfillmentOrders(ctx, rows);
    let progressed = false;
    await forEachInFlight(admin, rows, async (row) => {
      const outcome = await writeBackShipment(run, row, mirrored.get(row.fulfillmentOrderId) ?? null);
      if (!outcome) return;
      progressed = true;
      if (outcome.status === "FULFILLED") summary.fulfilled++;
      else summary.failed++;
    });
    // Every claimed row ends FULFILLED or FAILED, so a pass without progress means another writer holds the rest.
    if (!progressed) return summary;
  }
}

/**
 * The write-back job: one shop's outstanding shipments, once at a time per shop across every instance. A
 * booking queues it (recording a booking sends it); sent again while it runs, it runs once more when done,
 * so a booking recorded during a pass is never left waiting. Its records make a second run harmless.
 */
export const writeBackJob = defineJob({
  name: "fulfillment-write-back",
  data: z.object({ shop: z.string().min(1) }),
  key: ({ shop }) => shop,
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireInSeconds: 60 * 60,
  run: async ({ shop }, job) => {
    const ctx = job.services.context(shop);
    const summary = await writeBack(ctx);
    if (summary.fulfilled + summary.failed > 0) ctx.log.info(summary, `wrote back ${summary.fulfilled} fulfillments, ${summary.failed} need attention`);
  },
});

/** Queues the shop's write-back (through its offline session); resolves once queued. */
export function queueWriteBack(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  return ctx.jobs.send(writeBackJob, { shop: ctx.shop });
}

/** Queues the shop's write-back and resolves when it has run (scripts and tests). */
export async function startWriteBack(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  await queueWriteBack(ctx);
  await writeBackSettled(ctx);
}

/**
 * Queues the write-back of every shop with shipments still waiting for Shopify (queued, or interrupted while
 * being written) and answers those shops: the safety net for work no job holds any more (a job that used up
 * its retries while Shopify was down, a booking recorded by a process that died before queueing), sent at
 * start-up and every minute by the recorded-work sweep. Sending it while it runs only makes it look once more.
 */
export async function queueOutstandingWriteBack(services: Pick<JobServices, "db" | "context">): Promise<string[]> {
  const shops = await shopsWithOutstandingWriteBack(services.db);
  await Promise.all(shops.map((shop) => queueWriteBack(services.context(shop))));
  return shops;
}

/** Resolves when the shop's write-back job (sent already) and any waiting behind it have run. */
export function writeBackSettled(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  return ctx.jobs.drained(writeBackJob, { shop: ctx.shop });
}

/** Queues every shop's outstanding and interrupted write-backs and resolves when they have run (scripts and tests). */
export async function resumeWriteBack(services: Pick<JobServices, "db" | "context">): Promise<void> {
  await Promise.all((await queueOutstandingWriteBack(services)).map((shop) => writeBackSettled(services.context(shop))));
}

/** The shops with shipments still waiting for Shopify (queued, or interrupted while being written). */
async function shopsWithOutstandingWriteBack(db: Pick<PrismaClient, "shipment">): Promise<string[]> {
  const shops = await db.shipment.findMany({ where: { kind: "OUTBOUND", fulfillmentStatus: { in: OUTSTANDING } }, distinct: ["shop"], select: { shop: true } });
  return shops.map(({ shop }) => shop);
}

/**
 * Retry from the Fulfillments page: failed shipments (all of the shop's, or the ones named) go back to the
 * queue and the worker starts. Safe because a shipment that was ever sent to Shopify (fulfillmentAttempts)
 * is looked for by its tracking number before anything is created.
 */
export async function retryWriteBack(ctx: Pick<Context, "db" | "shop" | "jobs">, shipmentIds: readonly string[] | "all-failed"): Promise<{ queued: number }> {
  const { db, shop } = ctx;
  const retry = (only: { id: { in: string[] } } | object) =>
    db.shipment.updateMany({
      where: { shop, kind: "OUTBOUND", fulfillmentStatus: FulfillmentStatus.FAILED, ...only },
      data: { fulfillmentStatus: FulfillmentStatus.PENDING, fulfillmentError: null },
    });
  const count = shipmentIds === "all-failed" ? (await retry({})).count : await writeByIds(ctx, shipmentIds, (chunk) => retry({ id: { in: chunk } }));
  if (count > 0) await queueWriteBack(ctx);
  return { queued: count };
}
