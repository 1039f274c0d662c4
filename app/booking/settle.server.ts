import type { Batch } from "@prisma/client";
import { BatchNotFoundError } from "../batches/batch-store.server";
import type { ShippingContext } from "../shipping/context.server";

/**
 * The shop's batch `batchId` as recorded; throws BatchNotFoundError when there is none. Pages and actions
 * only read it: a batch left CREATING or BOOKING (a job under way, a crash, a lost answer) is settled by
 * its job (batch-work), sent by the intent itself and again at start-up, never by the request.
 */
export async function recordedBatch(ctx: ShippingContext, batchId: string): Promise<Batch> {
  const batch = await ctx.db.batch.findFirst({ where: { id: batchId, shop: ctx.shop } });
  if (!batch) throw new BatchNotFoundError(batchId);
  return batch;
}
