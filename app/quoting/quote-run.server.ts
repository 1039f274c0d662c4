import type { Prisma, PrismaClient } from "@prisma/client";
import { timeOrderedId } from "../db/ids";
import { describeError, type ShipmentSource, type ShippingClient } from "../../shipping-api/client";
import type { BatchQuoteShipment, Service } from "../../shipping-api/contract";
import { z } from "zod";
import type { Context } from "../context";
import { defineJob, type JobServices } from "../jobs/job";
import { refreshOrder } from "../orders/mirror.server";
import type { MirroredOrder } from "../orders/order-node";
import { orderToShipments, shipmentDateOf, type MappedShipment, type MappingIssue, type MappingSettings } from "../orders/shipment-mapping";
import { API_WEIGHT_UNIT } from "../orders/weights";
import { loadSettings } from "../settings/account.server";
import { settingsWithSender } from "../settings/sender-prefill.server";
import { mappingSettings, type ShippingSettings } from "../settings/settings";
import { AdminApiError } from "../shopify/gateway.server";
import { loadShopSummary } from "../settings/shop-profile.server";
import { QuotingInputError, QuotingUnavailableError, SenderMissingError } from "./errors";
import { rateChoiceStatements, type ChosenShipment } from "./quote-store.server";
import { loadRuleInputs } from "./rule-inputs.server";
import { orderFacts, quoteChanges, withQuoteChanges } from "./shipping-rules";
import { loadShippingRules } from "./shipping-rules.server";
import { presetsForLines } from "../orders/product-presets.server";
import { chooseRate } from "./rate-choice";
import { loadOrdersWithCustoms } from "../orders/customs.server";
import { readByIds } from "../db/id-lists.server";
import { groupedBy } from "../grouped";
import { groupCommit, insertRows, selectRows, selectRowsByIds, updateRowsById } from "../db/db-batch.server";
import { bound } from "../db/sql-template";
import type { Outcome } from "../outcome";

/**
 * "Quote these orders" (issue 5): the selected orders are read from the order mirror, checked and mapped
 * to quote requests, recorded as a run with one Shipment per fulfillment order (PENDING) and one
 * BlockedOrder per order that cannot be quoted, and then quoted in the background: all shipments in
 * chunks of ≤ 500 per request, progress recorded as chunks finish, every rate stored and the shop's rule
 * applied. The run page polls the run's row.
 */

/** Why a selected order is not quoted: a pre-flight issue, or a state only the app knows. */
export interface BlockIssue {
  code: MappingIssue["code"] | "NOT_FOUND" | "NOT_SYNCED" | "ALREADY_BOOKED" | "IN_BATCH";
  message: string;
}

/**
 * Orders missing from the mirror are read from Shopify one by one, only up to this many: each read asks for
 * about 550 cost points, so a long list would spend the request waiting on Shopify's rate limit.
 */
export const MAX_ORDERS_REFRESHED = 10;
/** Quote requests in flight at once. */
export const QUOTE_CONCURRENCY = 4;
/** Shipments per Batch Quote request: a 500-order run stores rates and shows progress in five steps. */
export const QUOTE_CHUNK_SIZE = 100;
/** Recording a run of thousands of shipments is one transaction; Prisma's 5 s default is too short for that. */
const TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * A clock that starts at the run's instant (its context's `now()`) and advances in real time: for when a run
 * finished. Expiry is counted from the run's instant itself.
 */
function clockFrom(now: Date): () => Date {
  const start = performance.now();
  return () => new Date(now.getTime() + Math.round(performance.now() - start));
}

/** What an order is called before Consign has read its name (it was not found, or not read). */
export function orderLabel(orderId: string): string {
  return `Order ${orderId.split("/").pop() ?? orderId}`;
}

async function listServices(client: ShippingClient): Promise<Service[]> {
  const answer = await client.listServices();
  if (!answer.ok) {
    throw new QuotingUnavailableError(
      `Consign could not read your Shipping API services (${describeError(answer.error)}). Try again in a minute; if it persists, reconnect your account in Settings.`,
    );
  }
  return answer.value.services;
}

type OrderRead = { order: MirroredOrder } | { orderId: string; issue: BlockIssue };

/**
 * The selected orders, in the merchant's order: from the mirror, with the few it lacks read from Shopify.
 * The mirror holds orders with something left to ship; more missing ones than a few are reported instead
 * of read (fulfilled or closed orders, or a mirror not synced yet), with what to do.
 */
async function readOrders(ctx: Context, orderIds: readonly string[]): Promise<OrderRead[]> {
  // Customs details typed in Consign fill what Shopify lacks.
  const mirrored = new Map((await loadOrdersWithCustoms(ctx, orderIds)).map((order) => [order.id, order]));
  const missing = orderIds.filter((id) => !mirrored.has(id));
  const reads = new Map<string, OrderRead>();
  const notMirrored = (orderId: string, issue: BlockIssue) => reads.set(orderId, { orderId, issue });
  const tooMany = missing.length > MAX_ORDERS_REFRESHED;
  for (const orderId of missing) {
    if (tooMany) {
      notMirrored(orderId, {
        code: "NOT_SYNCED",
        message:
          "Not among Consign's orders to ship: already fulfilled or closed, or not synced yet. Check it in Shopify, or choose Sync orders in Orders to ship and quote it again.",
      });
      continue;
    }
    try {
      const order = await refreshOrder(ctx, orderId);
      if (order) reads.set(orderId, { order });
      else notMirrored(orderId, { code: "NOT_FOUND", message: "Shopify has no such order in this store (deleted, or from another store)." });
    } catch (error) {
      if (!(error instanceof AdminApiError)) throw error;
      notMirrored(orderId, { code: "NOT_SYNCED", message: `Consign could not read this order from Shopify (${error.message}). Quote it again in a minute.` });
    }
  }
  return orderIds.map((id) => {
    const order = mirrored.get(id);
    return order ? { order } : reads.get(id)!;
  });
}

interface Blocked {
  orderId: string;
  orderName: string;
  issues: BlockIssue[];
}

interface Planned {
  /** What the run writes on the shipment that differs by shipment (on a reused one, only when it changed). */
  own: ReturnType<typeof ownColumns>;
  /** An earlier, unbooked and unbatched Shipment of the same fulfillment order, quoted again instead of duplicated. */
  reuseId: string | null;
  /** The reused shipment already holds this very request, lines, name and packing note (quoted again the same day). */
  unchanged: boolean;
}

/** The columns of a shipment that differ by shipment, written as stored: its order, lines and request as mapped. */
function ownColumns(mapped: MappedShipment, orderName: string) {
  return {
    orderId: mapped.orderId,
    orderName,
    fulfillmentOrderId: mapped.fulfillmentOrderId,
    lines: JSON.stringify(mapped.lines),
    request: JSON.stringify(mapped.shipment),
    packingNote: mapped.packingNote,
  };
}

interface EarlierShipment {
  id: string;
  fulfillmentOrderId: string;
  batchId: string | null;
  batch: { name: string } | null;
  bookingStatus: string;
  fulfillmentStatus: string;
  trackingNumber: string | null;
  createdAt: Date;
  orderName: string;
  lines: string;
  request: string;
  packingNote: string | null;
}

/** What planning a run reads of a fulfillment order's earlier shipments (to leave a request that has not changed as it is). */
const EARLIER_COLUMNS = [
  "id",
  "fulfillmentOrderId",
  "batchId",
  "bookingStatus",
  "fulfillmentStatus",
  "trackingNumber",
  "createdAt",
  "orderName",
  "lines",
  "request",
  "packingNote",
] as const;

/**
 * The orders' earlier shipments (by order: those of the fulfillment orders a run quotes among them), without their
 * batches' names: read raw, a re-quote of 5,000 orders reads thousands, their requests among them.
 */
function earlierShipments(ctx: Pick<Context, "db" | "shop">, orderIds: readonly string[]): Promise<Array<Omit<EarlierShipment, "batch">>> {
  return selectRowsByIds<Omit<EarlierShipment, "batch">>(ctx, {
    table: "Shipment",
    columns: EARLIER_COLUMNS,
    where: [`"shop" = `, bound(ctx.shop)],
    column: "orderId",
    ids: [...new Set(orderIds)],
    orderBy: ["id"],
  });
}

/** Maps every order and sorts its shipments into new, reused and already-underway ones, given the orders' earlier shipments. */
async function planRun(
  db: PrismaClient,
  reads: readonly OrderRead[],
  rows: ReadonlyArray<Omit<EarlierShipment, "batch">>,
  mappingFor: (order: MirroredOrder) => MappingSettings,
): Promise<{ blocked: Blocked[]; planned: Planned[] }> {
  const blocked: Blocked[] = [];
  const mappedByOrder: Array<{ order: MirroredOrder; shipments: MappedShipment[] }> = [];
  for (const read of reads) {
    if ("issue" in read) {
      blocked.push({ orderId: read.orderId, orderName: orderLabel(read.orderId), issues: [read.issue] });
      continue;
    }
    const result = orderToShipments(read.order, mappingFor(read.order));
    if (result.ok) mappedByOrder.push({ order: read.order, shipments: result.shipments });
    else blocked.push({ orderId: read.order.id, orderName: read.order.name, issues: result.issues });
  }

  // Each fulfillment order's earlier shipments, newest first, with the names of the few batches they are in.
  const batchIds = [...new Set(rows.flatMap((row) => (row.batchId === null ? [] : [row.batchId])))];
  const batchNames = new Map(
    (await readByIds({ db }, batchIds, (chunk) => db.batch.findMany({ where: { id: { in: chunk } }, select: { id: true, name: true } }))).map((batch) => [
      batch.id,
      batch.name,
    ]),
  );
  const earlier = rows.map((row) => {
    const name = row.batchId === null ? undefined : batchNames.get(row.batchId);
    return { ...row, batch: name === undefined ? null : { name } };
  });
  const earlierOf: Map<string, EarlierShipment[]> = groupedBy(earlier, (row) => row.fulfillmentOrderId);
  for (const list of earlierOf.values()) list.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());

  const planned: Planned[] = [];
  for (const { order, shipments } of mappedByOrder) {
    const issues: BlockIssue[] = [];
    for (const mapped of shipments) {
      const same = earlierOf.get(mapped.fulfillmentOrderId) ?? [];
      const booked = same.find(
        (shipment) => shipment.bookingStatus === "BOOKING" || (shipment.bookingStatus === "BOOKED" && shipment.fulfillmentStatus !== "FULFILLED"),
      );
      const batched = same.find((shipment) => shipment.batchId !== null && (shipment.bookingStatus === "NONE" || shipment.bookingStatus === "FAILED"));
      if (booked) {
        const tracking = booked.trackingNumber ? ` (tracking ${booked.trackingNumber})` : "";
        issues.push({ code: "ALREADY_BOOKED", message: `A label is already booked for these items${tracking}; Consign is marking them fulfilled in Shopify.` });
      } else if (batched) {
        issues.push({
          code: "IN_BATCH",
          message: `These items are already in batch “${batched.batch?.name ?? batched.batchId}”. Book them there, or remove them from the batch to quote again.`,
        });
      } else {
        const reusable = same.find((shipment) => shipment.batchId === null && (shipment.bookingStatus === "NONE" || shipment.bookingStatus === "FAILED"));
        const own = ownColumns(mapped, order.name);
        const unchanged =
          reusable !== undefined &&
          reusable.request === own.request &&
          reusable.lines === own.lines &&
          reusable.orderName === own.orderName &&
          reusable.packingNote === own.packingNote;
        planned.push({ own, reuseId: reusable?.id ?? null, unchanged });
      }
    }
    if (issues.length > 0) blocked.push({ orderId: order.id, orderName: order.name, issues });
  }
  return { blocked, planned };
}

/**
 * Every order read (with the line details typed in Consign over Shopify's) and mapped with the shop's settings,
 * dated `now`: its products' presets and what the shop's shipping rules change for it (box, signature,
 * insurance, residential) applied before it is quoted.
 */
async function mapOrders(ctx: Context, orderIds: readonly string[], now: Date): Promise<{ blocked: Blocked[]; planned: Planned[] }> {
  // An account and a sender first: without them nothing is read, and no order is read from Shopify. The account and
  // the stored settings are read at once; the sender's prefill, which may read the shop's location and save it, only
  // once the account is known: a shop without an account gets neither.
  const [client, stored] = await Promise.all([ctx.shipping(), loadSettings(ctx)]);
  const settings = await settingsWithSender(ctx, stored);
  if (!settings.sender) throw new SenderMissingError();
  // Everything else planning reads, read at once: the account's services, the shop, the orders, the rules, and the
  // orders' earlier shipments (reused when quoted again).
  const [services, summary, reads, rules, earlier] = await Promise.all([
    listServices(client),
    loadShopSummary(ctx),
    readOrders(ctx, orderIds),
    loadShippingRules(ctx),
    earlierShipments(ctx, orderIds),
  ]);
  const shared = mappingSettings(settings, { services, weightUnit: API_WEIGHT_UNIT[summary.weightUnit], shipmentDate: shipmentDateOf(now) });
  if (!shared) throw new SenderMissingError();
  const orders = reads.flatMap((read) => ("order" in read ? [read.order] : []));
  const presets = await presetsForLines(
    ctx,
    orders.flatMap((order) => order.fulfillmentOrders.flatMap((fo) => fo.lines)),
  );
  const mapping = { ...shared, presets };
  const senderCountry = settings.sender.country;
  const mappingFor = (order: MirroredOrder) =>
    rules.length === 0
      ? mapping
      : withQuoteChanges(mapping, quoteChanges(rules, orderFacts(order, { senderCountry, packagingWeight: settings.packagingWeight })));
  return planRun(ctx.db, reads, earlier, mappingFor);
}

/** Records the planned shipments in the run as PENDING: new ones created, earlier unbooked ones of the same fulfillment orders moved in and reset. */
async function writePendingShipments(ctx: Context, tx: Prisma.TransactionClient, runId: string, planned: readonly Planned[]): Promise<void> {
  const { shop } = ctx;
  // A reused shipment is quoted as mapped again, in one box: packages the merchant set for its earlier request go with it.
  const pending = {
    runId,
    packages: null,
    quoteStatus: "PENDING",
    quoteError: null,
    quotedAt: null,
    rates: null,
    selectedQuoteId: null,
    selectionReason: null,
    selectedBy: null,
    bookingStatus: "NONE",
    bookingError: null,
  };
  const fresh = planned.filter((entry) => entry.reuseId === null);
  // Inserted whole (app/db/db-batch.server.ts): the other columns take the table's defaults (NONE, 0); ids need only be unique.
  const written = new Date();
  const freshRows = fresh.map((entry) => ({ id: timeOrderedId(), ...entry.own }));
  for (const insert of insertRows(ctx, "Shipment", freshRows, { db: tx, same: { shop, ...pending, createdAt: written, updatedAt: written } })) await insert;
  // A reused shipment's earlier rates belong to its earlier request: they go as it moves into the run.
  const reused = planned.filter((entry): entry is Planned & { reuseId: string } => entry.reuseId !== null);
  // Only what changed is written: the same order quoted again the same day keeps its request, and its row only
  // moves into the run (a 5,000-order re-quote rewrote 5.7 MB of requests, most of the recording's time).
  const changed = reused.filter((entry) => !entry.unchanged).map((entry) => ({ id: entry.reuseId, ...entry.own }));
  const columns = ["orderId", "orderName", "fulfillmentOrderId", "lines", "request", "packingNote"] as const;
  for (const update of updateRowsById(ctx, { table: "Shipment", columns, rows: changed, set: pending }, tx)) await update;
  const kept = reused.filter((entry) => entry.unchanged).map((entry) => ({ id: entry.reuseId }));
  for (const update of updateRowsById(ctx, { table: "Shipment", columns: [], rows: kept, set: pending }, tx)) await update;
}

/**
 * "Save and quote again" for an order blocked in a run (after the merchant typed what it lacked): the order is
 * read and mapped again and, when nothing blocks it any more, its shipments join the same run as PENDING, the
 * run quotes them (so they can go into the same batch as the rest), and its blocked row goes. When something
 * still blocks it, its row says what, now. Refused (QuotingInputError) for an order not blocked in this run of
 * the shop, and while the run is still quoting (its job has read what it quotes).
 */
export type BlockedRequoteOutcome = Outcome<{ shipments: number; finished: Promise<void> }, { issues: BlockIssue[] }>;

export async function requoteBlockedOrder(ctx: Context, runId: string, orderId: string): Promise<BlockedRequoteOutcome> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const [run, row] = await Promise.all([
    db.quoteRun.findFirst({ where: { id: runId, shop }, select: { status: true } }),
    db.blockedOrder.findFirst({ where: { runId, orderId, run: { shop } }, select: { id: true } }),
  ]);
  if (!run || !row) throw new QuotingInputError(404, "orderId", "This order is not blocked in this run; open its run from Rates.");
  if (run.status === "RUNNING") throw new QuotingInputError(409, "orderId", "This run is still quoting. Save again when it has finished.");
  const { blocked, planned } = await mapOrders(ctx, [orderId], now);
  const stillBlocked = blocked.find((entry) => entry.orderId === orderId);
  if (stillBlocked) {
    await db.blockedOrder.update({ where: { id: row.id }, data: { orderName: stillBlocked.orderName, issues: JSON.stringify(stillBlocked.issues) } });
    return { ok: false, message: stillBlocked.issues.map((issue) => issue.message).join(" "), issues: stillBlocked.issues };
  }
  // Claimed by moving the run back to RUNNING while it is not: a second save at once finds it running.
  const claimed = await db.$transaction(
    async (tx) => {
      const moved = await tx.quoteRun.updateMany({
        where: { id: runId, shop, status: { not: "RUNNING" } },
        data: { status: "RUNNING", error: null, finishedAt: null, shipmentsTotal: { increment: planned.length } },
      });
      if (moved.count === 0) return false;
      await tx.blockedOrder.delete({ where: { id: row.id } });
      await writePendingShipments(ctx, tx, runId, planned);
      return true;
    },
    { timeout: TRANSACTION_TIMEOUT_MS },
  );
  if (!claimed) throw new QuotingInputError(409, "orderId", "This run is still quoting. Save again when it has finished.");
  const job = { shop, runId, now: now.toISOString() };
  await ctx.jobs.send(quoteRunJob, job);
  return { ok: true, shipments: planned.length, finished: ctx.jobs.drained(quoteRunJob, job) };
}

export interface StartedQuoteRun {
  runId: string;
  /** Settles when the background quoting ends (tests and the bench wait on it; pages poll the run instead). */
  finished: Promise<void>;
}

/**
 * Starts a quote run over the selected orders, dated `ctx.now()`; orders the mirror lacks are read through
 * the context's Shopify gateway. Throws NotConnectedError without a Shipping API account, SenderMissingError
 * without a sender address (on first use it is taken from the shop's primary location),
 * QuotingUnavailableError when the services cannot be listed.
 */
export async function startQuoteRun(ctx: Context, orderIds: readonly string[]): Promise<StartedQuoteRun> {
  const { db, shop } = ctx;
  const now = ctx.now();
  if (orderIds.length === 0) throw new QuotingInputError(400, "ids", "Select at least one order to quote.");
  const { blocked, planned } = await mapOrders(ctx, orderIds, now);

  const total = planned.length;
  const run = await db.$transaction(
    async (tx) => {
      const created = await tx.quoteRun.create({
        data: {
          shop,
          status: total > 0 ? "RUNNING" : "COMPLETED",
          orderIds: JSON.stringify(orderIds),
          shipmentsTotal: total,
          startedAt: now,
          finishedAt: total > 0 ? null : now,
        },
        select: { id: true },
      });
      // Inserted whole, ids and dates made here (app/db/db-batch.server.ts): createMany compiles every row of its data.
      for (const insert of insertRows(
        ctx,
        "BlockedOrder",
        blocked.map((entry) => ({
          id: timeOrderedId(),
          runId: created.id,
          orderId: entry.orderId,
          orderName: entry.orderName,
          issues: JSON.stringify(entry.issues),
        })),
        { db: tx },
      ))
        await insert;
      await writePendingShipments(ctx, tx, created.id, planned);
      return created;
    },
    // Waiting for a connection too: under load a pool of PostgreSQL connections can be busy for more than the default 2 s.
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: TRANSACTION_TIMEOUT_MS },
  );

  if (total === 0) return { runId: run.id, finished: Promise.resolve() };
  const job = { shop, runId: run.id, now: now.toISOString() };
  await ctx.jobs.send(quoteRunJob, job);
  return { runId: run.id, finished: ctx.jobs.drained(quoteRunJob, job) };
}

/**
 * Stored requests (their JSON texts) as the client streams them: each parsed when its chunk is formed, and its text
 * let go then, so a run of thousands holds the chunks in flight, not every request at once.
 */
export function storedRequests(texts: Array<string | null>): ShipmentSource {
  return {
    length: texts.length,
    at: (index: number) => {
      const text = texts[index];
      texts[index] = null;
      return text ? (JSON.parse(text) as BatchQuoteShipment) : undefined;
    },
  };
}

/**
 * Quotes the run's PENDING shipments and closes the run. Also what a resumed run does after a restart:
 * shipments already quoted are left alone.
 */
async function quoteRun(
  ctx: Context,
  runId: string,
  {
    client,
    settings,
    now,
    clock,
    shipmentsTotal,
  }: { client: ShippingClient; settings: ShippingSettings; now: Date; clock: () => Date; shipmentsTotal: number },
): Promise<void> {
  const { db } = ctx;
  // Read raw (selectRows): through the client's findMany, mapping the run's rows and their requests took twice as long,
  // all of it before the first request goes to the service.
  const rows = await selectRows<{ id: string; orderId: string; request: string }>(ctx, {
    table: "Shipment",
    columns: ["id", "orderId", "request"],
    where: [`"runId" = `, bound(runId), ` AND "quoteStatus" = `, bound("PENDING")],
    orderBy: ["id"],
  });
  const pending = rows.map(({ id, orderId }) => ({ id, orderId }));
  const inputsFor = await loadRuleInputs(
    ctx,
    settings.rateRule,
    pending.map((shipment) => shipment.orderId),
  );
  const chosenBefore = shipmentsTotal - pending.length;
  try {
    // Requests were written by the mapping; the client validates each against the contract before sending
    // and returns a refused one as that shipment's failure. Each chunk's rates are stored as it lands, with its progress.
    const source = storedRequests(rows.map((row) => row.request));
    rows.length = 0;
    // Only what closing the run needs is kept: a run's rates are stored as chunks land, not held.
    const closing: { quoted: number; firstFailure: string | null } = { quoted: 0, firstFailure: null };
    // First, while the first requests are at the service: the progress of a resumed run counts what it had stored.
    // Each write of the run reads back only its id: the row holds every order id of the run (200 KB at 5,000 orders),
    // which Prisma's client would read back and map at every chunk's progress.
    const cleared = db.quoteRun.update({ where: { id: runId }, data: { shipmentsDone: chosenBefore }, select: { id: true } }).then(() => undefined);
    cleared.catch(() => undefined); // awaited by each chunk and below, where a failure is thrown
    // Each chunk is committed with whatever else lands meanwhile (group commit: one disk sync for the chunks that
    // arrive while one is written), its progress in the same transaction, so progress only ever counts stored
    // shipments. A worker sends its next request once its chunk is stored.
    const commit = groupCommit(ctx);
    await client.streamQuotes(source, {
      concurrency: QUOTE_CONCURRENCY,
      chunkSize: QUOTE_CHUNK_SIZE,
      // Not async: the chunk's outcomes and choices are packed into its statements and let go here, and only the
      // packed rows wait for the commit (a chunk's parsed rates held across it were copied by every young collection).
      onChunk: (outcomes) => {
        const chunk = outcomes.map((outcome): ChosenShipment => ({
          shipmentId: pending[outcome.shipmentIndex]!.id,
          choice: chooseRate(outcome, settings, null, inputsFor(pending[outcome.shipmentIndex]!.orderId)),
          keepOnFailure: false,
        }));
        for (const { choice } of chunk) {
          if (choice.ok) closing.quoted++;
          else closing.firstFailure ??= choice.message;
        }
        const statements = rateChoiceStatements(ctx, chunk, now);
        const stored = chunk.length;
        return cleared.then(() =>
          commit(() => [...statements(), db.quoteRun.update({ where: { id: runId }, data: { shipmentsDone: { increment: stored } }, select: { id: true } })]),
        );
      },
    });
    await cleared;
    const { quoted, firstFailure } = closing;
    const failedRun = quoted === 0 && chosenBefore === 0 && firstFailure !== null;
    await db.quoteRun.update({
      where: { id: runId },
      select: { id: true },
      data: {
        status: failedRun ? "FAILED" : "COMPLETED",
        error: failedRun ? `No shipment could be quoted. ${firstFailure}` : null,
        shipmentsDone: shipmentsTotal,
        finishedAt: clock(),
      },
    });
  } catch (error) {
    await failRun(
      db,
      runId,
      `Quoting stopped unexpectedly (${error instanceof Error ? error.message : String(error)}). Choose Re-quote to try again.`,
      clock(),
    );
    throw error;
  }
}

async function failRun(db: PrismaClient, runId: string, error: string, now: Date): Promise<void> {
  await db.$transaction([
    db.shipment.updateMany({ where: { runId, quoteStatus: "PENDING" }, data: { quoteStatus: "FAILED", quoteError: error } }),
    db.quoteRun.update({ where: { id: runId }, data: { status: "FAILED", error, finishedAt: now }, select: { id: true } }),
  ]);
}

/**
 * The quote-run job: quotes what is left of a RUNNING run (all of it the first time; after a restart or a
 * dead instance, the shipments still PENDING). Once at a time per run across every instance; a run that
 * ended (completed or failed) is left alone, so a second run of the job changes nothing.
 */
export const quoteRunJob = defineJob({
  name: "quote-run",
  data: z.object({ shop: z.string().min(1), runId: z.string().min(1), now: z.iso.datetime() }),
  key: ({ runId }) => runId,
  retry: { limit: 3, delaySeconds: 2, backoff: true },
  expireInSeconds: 15 * 60,
  // The run's quotes are dated the instant it was started (or resumed) at, not when the job gets to them.
  run: async ({ shop, runId, now }, { services }) => {
    await resumeQuoteRun({ ...services.context(shop), now: () => new Date(now) }, runId);
  },
});

/**
 * Quotes what is left of the run when it is still RUNNING; does nothing once it ended. The quotes are dated
 * `ctx.now()`, read once when it starts.
 */
export async function resumeQuoteRun(ctx: Context, runId: string): Promise<void> {
  const { db, shop } = ctx;
  const now = ctx.now();
  // The run, the account and the settings are read at once (each a round trip before the first request); the account
  // or the settings not read fail the run below, as quoting does.
  const [run, account] = await Promise.all([
    db.quoteRun.findFirst({ where: { id: runId, shop, status: "RUNNING" }, select: { shipmentsTotal: true } }),
    Promise.all([ctx.shipping(), loadSettings(ctx)]).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  ]);
  if (!run) return;
  try {
    if (!account.ok) throw account.error;
    const [client, settings] = account.value;
    await quoteRun(ctx, runId, { client, settings, now, clock: clockFrom(now), shipmentsTotal: run.shipmentsTotal });
  } catch (error) {
    const status = await db.quoteRun.findUnique({ where: { id: runId }, select: { status: true } });
    if (status?.status === "RUNNING") await failRun(db, runId, error instanceof Error ? error.message : String(error), now);
    throw error;
  }
}

/**
 * At process start: queues every quote run a restart cut short, over what start-up has (the process's
 * database and a shop's context); each is dated its shop's `now()` when it is queued again.
 */
export async function resumeQuoteRuns(services: JobServices): Promise<number> {
  const runs = await services.db.quoteRun.findMany({ where: { status: "RUNNING" }, select: { id: true, shop: true } });
  for (const run of runs) await services.jobs.send(quoteRunJob, { shop: run.shop, runId: run.id, now: services.context(run.shop).now().toISOString() });
  return runs.length;
}
