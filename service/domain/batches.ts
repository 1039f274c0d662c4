import type { Batch, BatchDetail, BatchQuoteEntry, CreateBatchRequest, ListBatchesQuery, ListBatchesResponse, OkResponse } from "../../shipping-api/contract";
import { MAX_BATCH_SIZE } from "../../shipping-api/contract";
import { formatTimestamp } from "../clock";
import { forbidden, invalidRequest, notFound, unprocessable } from "../errors";
import { formatCents } from "../money";
import type { DomainContext } from "./context";

export interface BatchRow {
  id: number;
  customerId: string;
  name: string;
  status: Batch["status"];
  quoteCount: number;
  bookedCount: number;
  errorCount: number;
  createdAt: string;
  updatedAt: string;
  processedAt: string | null;
}

export interface QuoteRow {
  id: number;
  customerId: string;
  requestId: number;
  batchId: number | null;
  batchSeq: number | null;
  carrierCode: string;
  serviceCode: string;
  packageTypeCode: string;
  currency: BatchQuoteEntry["currency"];
  totalCents: number;
  detail: string;
  status: "active" | "booked";
  bookingError: string | null;
  bookNumber: string | null;
  trackingNumber: string | null;
  createdAt: string;
  expiresAt: string;
}

const stamp = (iso: string) => formatTimestamp(new Date(iso));

export function batchToWire(row: BatchRow): Batch {
  return {
    batchId: row.id,
    name: row.name,
    status: row.status,
    quoteCount: row.quoteCount,
    bookedCount: row.bookedCount,
    errorCount: row.errorCount,
    createdAt: stamp(row.createdAt),
    updatedAt: stamp(row.updatedAt),
    processedAt: row.processedAt ? stamp(row.processedAt) : null,
  };
}

/** `expired` is not stored: an active quote past its expiry by the service clock is expired. */
export function quoteStatus(row: Pick<QuoteRow, "status" | "expiresAt">, now: Date): BatchQuoteEntry["status"] {
  if (row.status === "booked") return "booked";
  return now.getTime() >= Date.parse(row.expiresAt) ? "expired" : "active";
}

function quoteEntry(row: QuoteRow, now: Date): BatchQuoteEntry {
  return {
    quoteId: row.id,
    carrierCode: row.carrierCode,
    serviceCode: row.serviceCode,
    packageTypeCode: row.packageTypeCode,
    totalAmount: formatCents(row.totalCents),
    currency: row.currency,
    status: quoteStatus(row, now),
    bookNumber: row.bookNumber,
    trackingNumber: row.trackingNumber,
    bookingError: row.bookingError,
    createdAt: stamp(row.createdAt),
    expiresAt: stamp(row.expiresAt),
  };
}

export function loadBatchRow(ctx: DomainContext, batchId: number): BatchRow | undefined {
  return ctx.store.statement(`SELECT * FROM Batch WHERE id = ?`).get(batchId) as BatchRow | undefined;
}

/**
 * The batch, when it exists and is this customer's. Another customer's batch is 403 where the error
 * table says so (Cancel, View Labels, and the endpoints it leaves open), 404 where it lists only 404
 * (Add to Batch, Remove from Batch): there it is reported as not found, which also hides that it exists.
 */
export function ownedBatch(ctx: DomainContext, customerId: string, batchId: number, foreignStatus: 403 | 404): BatchRow {
  const row = loadBatchRow(ctx, batchId);
  if (!row || (row.customerId !== customerId && foreignStatus === 404)) throw notFound(`Batch ${batchId} not found`);
  if (row.customerId !== customerId) throw forbidden(`Batch ${batchId} does not belong to this customer`);
  return row;
}

export function batchQuotes(ctx: DomainContext, batchId: number): QuoteRow[] {
  return ctx.store.statement(`SELECT * FROM Quote WHERE batchId = ? ORDER BY batchSeq`).all(batchId) as QuoteRow[];
}

/**
 * Validates and assigns quotes to a batch, in the order given (duplicates and quotes already in this
 * batch are no-ops, so a retried request does not fail). Checks follow the error table: not found
 * (400), another customer's (403), not active (400), in another batch (400), over 500 (400).
 */
function assignQuotes(ctx: DomainContext, customerId: string, batch: Pick<BatchRow, "id" | "quoteCount">, quoteIds: readonly number[], now: Date): number {
  const unique = [...new Set(quoteIds)];
  if (unique.length === 0) return 0;
  const rows = ctx.store
    .statement(`SELECT id, customerId, batchId, status, expiresAt FROM Quote WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(unique)) as Pick<QuoteRow, "id" | "customerId" | "batchId" | "status" | "expiresAt">[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const list = (ids: number[]) => ids.join(", ");
  const missing = unique.filter((id) => !byId.has(id));
  if (missing.length > 0) throw invalidRequest(`Quote ids not found: ${list(missing)}`);
  const foreign = rows.filter((row) => row.customerId !== customerId).map((row) => row.id);
  if (foreign.length > 0) throw forbidden(`Quotes do not belong to this customer: ${list(foreign)}`);
  const inactive = rows.filter((row) => quoteStatus(row, now) !== "active");
  if (inactive.length > 0) throw invalidRequest(`Quotes are not active (expired or already booked): ${list(inactive.map((row) => row.id))}`);
  const elsewhere = rows.filter((row) => row.batchId !== null && row.batchId !== batch.id).map((row) => row.id);
  if (elsewhere.length > 0) throw invalidRequest(`Quotes are already assigned to a different batch: ${list(elsewhere)}`);
  const adding = unique.filter((id) => byId.get(id)!.batchId !== batch.id);
  if (batch.quoteCount + adding.length > MAX_BATCH_SIZE) {
    throw invalidRequest(
      `Adding ${adding.length} quotes to the ${batch.quoteCount} in batch ${batch.id} would exceed the maximum batch size of ${MAX_BATCH_SIZE}`,
    );
  }
  const last = ctx.store.statement(`SELECT COALESCE(MAX(batchSeq), 0) AS seq FROM Quote WHERE batchId = ?`).get(batch.id) as { seq: number };
  const assign = ctx.store.statement(`UPDATE Quote SET batchId = ?, batchSeq = ? WHERE id = ?`);
  adding.forEach((id, index) => assign.run(batch.id, last.seq + index + 1, id));
  return adding.length;
}

export function createBatch(ctx: DomainContext, customerId: string, input: CreateBatchRequest): Batch {
  if (input.name.trim().length === 0) throw invalidRequest("name: must not be blank");
  const now = ctx.clock.now();
  const at = now.toISOString();
  return ctx.store.transaction(() => {
    const id = Number(
      ctx.store
        .statement(
          `INSERT INTO Batch (customerId, name, status, quoteCount, bookedCount, errorCount, createdAt, updatedAt) VALUES (?, ?, 'open', 0, 0, 0, ?, ?)`,
        )
        .run(customerId, input.name, at, at).lastInsertRowid,
    );
    const added = assignQuotes(ctx, customerId, { id, quoteCount: 0 }, input.quoteIds ?? [], now);
    ctx.store.statement(`UPDATE Batch SET quoteCount = ? WHERE id = ?`).run(added, id);
    return batchToWire(loadBatchRow(ctx, id)!);
  });
}

export function listBatches(ctx: DomainContext, customerId: string, query: ListBatchesQuery): ListBatchesResponse {
  const rows = ctx.store
    .statement(`SELECT * FROM Batch WHERE customerId = ? ORDER BY id DESC LIMIT ? OFFSET ?`)
    .all(customerId, query.limit, (query.page - 1) * query.limit) as BatchRow[];
  const { total } = ctx.store.statement(`SELECT COUNT(*) AS total FROM Batch WHERE customerId = ?`).get(customerId) as { total: number };
  return { batches: rows.map(batchToWire), total, page: query.page, limit: query.limit };
}

export function getBatch(ctx: DomainContext, customerId: string, batchId: number): BatchDetail {
  const row = ownedBatch(ctx, customerId, batchId, 403);
  const now = ctx.clock.now();
  return { ...batchToWire(row), quotes: batchQuotes(ctx, batchId).map((quote) => quoteEntry(quote, now)) };
}

export function addToBatch(ctx: DomainContext, customerId: string, batchId: number, quoteIds: readonly number[]): Batch {
  const now = ctx.clock.now();
  return ctx.store.transaction(() => {
    const batch = ownedBatch(ctx, customerId, batchId, 404);
    if (batch.status !== "open") throw invalidRequest(`Batch ${batchId} is ${batch.status}; quotes can only be added to an open batch`);
    const added = assignQuotes(ctx, customerId, batch, quoteIds, now);
    ctx.store.statement(`UPDATE Batch SET quoteCount = quoteCount + ?, updatedAt = ? WHERE id = ?`).run(added, now.toISOString(), batchId);
    return batchToWire(loadBatchRow(ctx, batchId)!);
  });
}

export function removeFromBatch(ctx: DomainContext, customerId: string, batchId: number, quoteId: number): OkResponse {
  return ctx.store.transaction(() => {
    const batch = ownedBatch(ctx, customerId, batchId, 404);
    const quote = ctx.store.statement(`SELECT id, customerId, batchId FROM Quote WHERE id = ?`).get(quoteId) as
      Pick<QuoteRow, "id" | "customerId" | "batchId"> | undefined;
    if (!quote || quote.customerId !== customerId) throw notFound(`Quote ${quoteId} not found`);
    if (batch.status !== "open") throw unprocessable(`Batch ${batchId} is ${batch.status}; quotes can only be removed from an open batch`);
    if (quote.batchId !== batchId) throw unprocessable(`Quote ${quoteId} is not in batch ${batchId}`);
    ctx.store.statement(`UPDATE Quote SET batchId = NULL, batchSeq = NULL WHERE id = ?`).run(quoteId);
    ctx.store.statement(`UPDATE Batch SET quoteCount = quoteCount - 1, updatedAt = ? WHERE id = ?`).run(ctx.clock.now().toISOString(), batchId);
    return { ok: true as const };
  });
}

export function cancelBatch(ctx: DomainContext, customerId: string, batchId: number): Batch {
  return ctx.store.transaction(() => {
    const batch = ownedBatch(ctx, customerId, batchId, 403);
    if (batch.status !== "open") throw unprocessable(`Batch ${batchId} is ${batch.status}; only an open batch can be cancelled`);
    ctx.store.statement(`UPDATE Batch SET status = 'cancelled', updatedAt = ? WHERE id = ?`).run(ctx.clock.now().toISOString(), batchId);
    return batchToWire(loadBatchRow(ctx, batchId)!);
  });
}

/** Any state. Quotes are unassigned and stay as they are (booked ones keep their booking). */
export function deleteBatch(ctx: DomainContext, customerId: string, batchId: number): OkResponse {
  return ctx.store.transaction(() => {
    ownedBatch(ctx, customerId, batchId, 403);
    ctx.store.statement(`UPDATE Quote SET batchId = NULL, batchSeq = NULL WHERE batchId = ?`).run(batchId);
    ctx.store.statement(`DELETE FROM Batch WHERE id = ?`).run(batchId);
    return { ok: true as const };
  });
}
