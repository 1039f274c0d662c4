import { z } from "zod";
import type { Context, JobDefinition } from "../context";

/**
 * The batch job's definition (docs/decisions/026): its name, data and key, and sending it. Creation and
 * booking send it from here; the work it runs is app/booking/batch-work.server.ts, which builds on them.
 */
const BatchWorkData = z.object({ shop: z.string().min(1), batchId: z.string().min(1), now: z.iso.datetime(), book: z.boolean() });

export const batchWorkJob: JobDefinition<z.infer<typeof BatchWorkData>> = {
  name: "batch-work",
  data: BatchWorkData,
  key: ({ batchId }) => batchId,
};

/**
 * Resolves when the batch's job (sent already) and any waiting behind it have run: its record holds the outcome.
 * The job is named by the shop's context: its shop, and `ctx.now()` as the instant of the intent.
 */
export function batchWorkSettled(ctx: Pick<Context, "shop" | "now" | "jobs">, batchId: string, book: boolean): Promise<void> {
  return ctx.jobs.drained(batchWorkJob, batchWorkData(ctx, batchId, book));
}

/** Queues the batch's job and resolves when it has run (scripts and tests): the batch's record then holds the outcome. */
export async function settleBatchWork(ctx: Pick<Context, "shop" | "now" | "jobs">, batchId: string, book: boolean): Promise<void> {
  const at = ctx.now();
  const stopped = { shop: ctx.shop, now: () => at, jobs: ctx.jobs };
  await queueBatchWork(stopped, batchId, book);
  await batchWorkSettled(stopped, batchId, book);
}

/** Queues the batch's job, dated `ctx.now()` (a creation or booking the page follows by polling; start-up's resume). */
export function queueBatchWork(ctx: Pick<Context, "shop" | "now" | "jobs">, batchId: string, book: boolean): Promise<void> {
  return ctx.jobs.send(batchWorkJob, batchWorkData(ctx, batchId, book));
}

function batchWorkData(ctx: Pick<Context, "shop" | "now">, batchId: string, book: boolean): z.infer<typeof BatchWorkData> {
  return { shop: ctx.shop, batchId, now: ctx.now().toISOString(), book };
}
