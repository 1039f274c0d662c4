import type { Batch } from "@prisma/client";
import { BatchNotFoundError } from "../batches/batch-store.server";
import { runBatchWork } from "./batch-work.server";
import type { ShippingContext } from "../shipping/context.server";

/**
 * Settles a batch left CREATING or BOOKING by a crash or a lost answer, through the batch's job (so never
 * beside other work on the same batch, in any instance): its creation is found or made on the service, its
 * booking read back with Get Batch. Runs before anything else is done with a batch. Null when the batch no
 * longer exists.
 */
export async function settleBatch(ctx: ShippingContext, batch: Batch): Promise<Batch | null> {
  if (batch.status !== "CREATING" && batch.status !== "BOOKING") return batch;
  await runBatchWork(ctx.shop, batch.id, ctx.now(), false);
  return ctx.db.batch.findFirst({ where: { id: batch.id, shop: ctx.shop } });
}

/** The shop's batch `batchId`, settled; throws BatchNotFoundError when there is none. */
export async function settledBatch(ctx: ShippingContext, batchId: string): Promise<Batch> {
  const batch = await ctx.db.batch.findFirst({ where: { id: batchId, shop: ctx.shop } });
  const settled = batch ? await settleBatch(ctx, batch) : null;
  if (!settled) throw new BatchNotFoundError(batchId);
  return settled;
}
