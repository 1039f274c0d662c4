import type { Batch } from "@prisma/client";
import { isRunningInBackground, runInBackground } from "../background.server";
import { BatchNotFoundError, batchWorkKey } from "./batch-store.server";
import type { ShippingContext } from "./context.server";
import { createRemote } from "./creation.server";
import { reconcileBooking } from "./results.server";

/**
 * Settles a batch left CREATING or BOOKING by a crash or a lost answer, unless this process is working on
 * it right now: its creation is found or made on the service, its booking read back with Get Batch. Runs
 * before anything else is done with a batch. Null when the batch no longer exists.
 */
export async function settleBatch(ctx: ShippingContext, batch: Batch): Promise<Batch | null> {
  if (batch.status !== "CREATING" && batch.status !== "BOOKING") return batch;
  if (isRunningInBackground(batchWorkKey(batch.id))) return batch;
  await runInBackground(batchWorkKey(batch.id), async () => {
    if (batch.status === "CREATING") await createRemote(ctx, batch);
    else await reconcileBooking(ctx, batch);
  });
  return ctx.db.batch.findFirst({ where: { id: batch.id, shop: ctx.shop } });
}

/** The shop's batch `batchId`, settled; throws BatchNotFoundError when there is none. */
export async function settledBatch(ctx: ShippingContext, batchId: string): Promise<Batch> {
  const batch = await ctx.db.batch.findFirst({ where: { id: batchId, shop: ctx.shop } });
  const settled = batch ? await settleBatch(ctx, batch) : null;
  if (!settled) throw new BatchNotFoundError(batchId);
  return settled;
}
