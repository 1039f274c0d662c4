import type { Batch } from "@prisma/client";
import type { Batch as RemoteBatch } from "../../shipping-api/contract";
import { crashPoint } from "../crash-points.server";
import { planBatches } from "../batches/batch-plan";
import { HOLDING_BATCH_STATUSES, batchableShipments, withSelectedQuotes, type BatchStatus } from "../batches/batch-store.server";
import type { ShippingContext } from "../shipping/context.server";
import type { Refusal } from "../batches/eligibility";
import { batchWorkSettled, queueBatchWork } from "./batch-work-job";
import { explainShippingError, outcomeUnknown } from "../shipping/errors";
import { readByIds } from "../db/id-lists.server";

/**
 * Creating batches on the service. The intent is recorded first (a CREATING batch holding its orders), so
 * after a crash or a lost answer the batch is found again by name instead of created twice; the service
 * itself refuses a second batch with the same quotes (a quote is in one batch at most).
 */

/** How far back the service's batch list is searched for a batch whose creation lost its answer. */
const FIND_PAGES = 5;
const FIND_PAGE_SIZE = 100;

export interface CreatedBatch {
  id: string;
  name: string;
  orders: number;
  status: BatchStatus;
}

export interface CreateBatchesResult {
  batches: CreatedBatch[];
  refused: Refusal[];
  /** Parts the service refused or did not confirm, in words. */
  errors: string[];
}

/**
 * Records batches from picked rates and queues their creation, answering at once (pages): the shipments'
 * selected quotes, in the given order, at most 500 per batch ("Name (1/3)" …). Each batch is recorded
 * CREATING, holding its orders, and its job (batch-work) creates it on the service; the batch page shows
 * progress until the job has linked it. Shipments that cannot be batched are returned with the reason.
 */
export async function startBatchCreation(ctx: ShippingContext, input: { name: string; shipmentIds: readonly string[] }): Promise<CreateBatchesResult> {
  const ids = [...new Set(input.shipmentIds)];
  const rows = await readByIds(ctx, ids, (chunk) => ctx.db.shipment.findMany({ where: { shop: ctx.shop, id: { in: chunk } } }));
  const byId = new Map(withSelectedQuotes(rows).map((row) => [row.id, row]));
  const unknown: Refusal[] = ids
    .filter((id) => !byId.has(id))
    .map((id) => ({ shipmentId: id, orderName: "", reason: "This shipment is not in this shop any more. Get rates for the order again." }));
  const shipments = ids.flatMap((id) => byId.get(id) ?? []);
  const { accepted, refused } = await batchableShipments(ctx, shipments);

  const result: CreateBatchesResult = { batches: [], refused: [...unknown, ...refused], errors: [] };
  for (const part of planBatches(input.name, accepted)) {
    const batch = await ctx.db.batch.create({ data: { shop: ctx.shop, name: part.name, status: "CREATING", createdAt: ctx.now() } });
    const claimed = await ctx.db.shipment.updateMany({
      where: {
        id: { in: part.items.map((item) => item.id) },
        shop: ctx.shop,
        OR: [{ batchId: null }, { batch: { status: { notIn: [...HOLDING_BATCH_STATUSES] } } }],
      },
      data: { batchId: batch.id, bookingStatus: "NONE", bookingError: null },
    });
    if (claimed.count !== part.items.length) {
      // Another request batched some of them in the meantime: leave this part to the merchant.
      await ctx.db.batch.delete({ where: { id: batch.id } });
      result.errors.push(`“${part.name}” was not created: some of its orders were put in another batch at the same time. Check the batches list.`);
      continue;
    }
    await queueBatchWork(ctx, batch.id, false);
    result.batches.push({ id: batch.id, name: part.name, orders: part.items.length, status: "CREATING" });
  }
  return result;
}

/**
 * Creates batches from picked rates and waits for their jobs (scripts and tests; pages use
 * `startBatchCreation`): each batch's outcome is read from its record once its job has run.
 */
export async function createBatches(ctx: ShippingContext, input: { name: string; shipmentIds: readonly string[] }): Promise<CreateBatchesResult> {
  const started = await startBatchCreation(ctx, input);
  const result: CreateBatchesResult = { ...started, batches: [] };
  for (const entry of started.batches) {
    await batchWorkSettled(ctx, entry.id, false);
    const batch = await ctx.db.batch.findFirst({ where: { id: entry.id, shop: ctx.shop } });
    if (!batch) {
      result.errors.push(`“${entry.name}” was not created: the Shipping API refused it. Get rates for its orders again, then make a new batch.`);
      continue;
    }
    if (batch.error) result.errors.push(`“${entry.name}”: ${batch.error}`);
    result.batches.push({ ...entry, status: batch.status as BatchStatus });
  }
  return result;
}

/** Quote ids a CREATING batch stands for: its shipments' picked rates. */
async function intendedQuoteIds(ctx: ShippingContext, batchId: string): Promise<number[]> {
  const members = await ctx.db.shipment.findMany({
    where: { shop: ctx.shop, batchId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { selectedQuoteId: true },
  });
  return members.flatMap((member) => (member.selectedQuoteId === null ? [] : [member.selectedQuoteId]));
}

/**
 * Creates (or finds) the service's batch for a CREATING one. Returns CANCELLED when the local intent was
 * dropped (the service refused it for good); its shipments are free again.
 */
export async function createRemote(ctx: ShippingContext, batch: Batch): Promise<{ status: BatchStatus; error?: string }> {
  const quoteIds = await intendedQuoteIds(ctx, batch.id);
  const found = await findRemoteBatch(ctx, batch.name, quoteIds);
  if (found.kind === "error") return { status: "CREATING", error: found.message };
  if (found.kind === "found") return link(ctx, batch, found.batch);
  if (quoteIds.length === 0) {
    await ctx.db.batch.delete({ where: { id: batch.id } });
    return { status: "CANCELLED", error: "It had no orders left, so it was dropped." };
  }
  const created = await ctx.client.createBatch({ body: { name: batch.name, quoteIds } });
  crashPoint("batch-create:after-call");
  if (created.ok) return link(ctx, batch, created.value);
  // A lost answer, or a refusal because another attempt got there first: look before giving up.
  const again = await findRemoteBatch(ctx, batch.name, quoteIds);
  if (again.kind === "found") return link(ctx, batch, again.batch);
  if (outcomeUnknown(created.error) || again.kind === "error") return { status: "CREATING", error: explainShippingError("create-batch", created.error) };
  await ctx.db.batch.delete({ where: { id: batch.id } });
  return { status: "CANCELLED", error: explainShippingError("create-batch", created.error) };
}

async function link(ctx: ShippingContext, batch: Batch, remote: RemoteBatch): Promise<{ status: BatchStatus }> {
  await ctx.db.batch.update({ where: { id: batch.id }, data: { remoteBatchId: remote.batchId, status: "OPEN", error: null } });
  return { status: "OPEN" };
}

/**
 * The service's batch named `name` that holds these quotes. A quote is in at most one batch, so one shared
 * quote identifies it among batches of the same name.
 */
async function findRemoteBatch(
  ctx: ShippingContext,
  name: string,
  quoteIds: readonly number[],
): Promise<{ kind: "found"; batch: RemoteBatch } | { kind: "absent" } | { kind: "error"; message: string }> {
  const wanted = new Set(quoteIds);
  for (let page = 1; page <= FIND_PAGES; page++) {
    const listed = await ctx.client.listBatches({ query: { page, limit: FIND_PAGE_SIZE } });
    if (!listed.ok) return { kind: "error", message: explainShippingError("read-batch", listed.error) };
    for (const candidate of listed.value.batches.filter((entry) => entry.name === name)) {
      const detail = await ctx.client.getBatch({ batchId: candidate.batchId });
      if (!detail.ok) return { kind: "error", message: explainShippingError("read-batch", detail.error) };
      if (detail.value.quotes.some((quote) => wanted.has(quote.quoteId))) return { kind: "found", batch: detail.value };
    }
    if (page * FIND_PAGE_SIZE >= listed.value.total) break;
  }
  return { kind: "absent" };
}
