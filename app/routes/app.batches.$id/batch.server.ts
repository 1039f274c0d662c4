import { json } from "@remix-run/node";
import { z } from "zod";
import { addToBatch, cancelBatch, deleteBatch, removeFromBatch, repairBatch } from "../../booking/batches.server";
import { rebatchFailed, startBatchBooking } from "../../booking/batch-booking.server";
import type { Outcome } from "../../outcome";
import type { ShippingContext } from "../../shipping/context.server";

/** A batch page's intents, one function each: book, re-quote expired rates, cancel, delete, re-batch failed orders, remove, add. */

export const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("book") }),
  z.object({ intent: z.literal("repair") }),
  z.object({ intent: z.literal("cancel") }),
  z.object({ intent: z.literal("delete") }),
  z.object({ intent: z.literal("rebatch") }),
  z.object({ intent: z.literal("remove"), shipmentId: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("remove-rate"), quoteId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("add"), shipmentIds: z.array(z.string().min(1).max(64)).min(1, "Choose at least one order to add.").max(500) }),
]);

/** What an action did, or why not; `details`: per order, what it refused or could not do. A booking under way counts as done. */
export type BatchActionResult = Outcome<{ message: string; details?: string[] }, { details?: string[] }>;

/** Where an intent that leaves the page sends the merchant (thrown, so the action's data type stays the JSON results). */
type Redirect = (url: string) => Response;

export async function bookBatch(ctx: ShippingContext, batchId: string) {
  const outcome = await startBatchBooking(ctx, batchId);
  if (outcome.ok) return json<BatchActionResult>({ ok: true, message: `Booked ${outcome.booked}.` });
  return json<BatchActionResult>({ ok: outcome.reason === "pending", message: outcome.message });
}

export async function repair(ctx: ShippingContext, batchId: string) {
  const result = await repairBatch(ctx, batchId);
  return json<BatchActionResult>({
    ok: result.ok,
    message: result.message,
    details: result.requoteFailures.map((failure) => `${failure.orderName}: ${failure.error}`),
  });
}

export async function cancel(ctx: ShippingContext, batchId: string) {
  return json<BatchActionResult>(await cancelBatch(ctx, batchId));
}

export async function remove(ctx: ShippingContext, batchId: string, redirect: Redirect) {
  const result = await deleteBatch(ctx, batchId);
  if (result.ok) throw redirect("/app/batches");
  return json<BatchActionResult>(result);
}

export async function rebatch(ctx: ShippingContext, batchId: string, redirect: Redirect) {
  const result = await rebatchFailed(ctx, batchId);
  const created = result.ok ? result.created : null;
  const first = created?.batches[0];
  if (first && result.requoteFailures.length === 0 && created?.refused.length === 0) throw redirect(`/app/batches/${first.id}`);
  return json<BatchActionResult>({
    ok: first !== undefined,
    message: result.message,
    details: [
      ...result.requoteFailures.map((failure) => `${failure.orderName}: ${failure.error}`),
      ...(created?.refused.map((refusal) => `${refusal.orderName}: ${refusal.reason}`) ?? []),
      ...(created?.errors ?? []),
    ],
  });
}

export async function removeLine(ctx: ShippingContext, batchId: string, line: { shipmentId: string } | { quoteId: number }) {
  return json<BatchActionResult>(await removeFromBatch(ctx, batchId, line));
}

export async function add(ctx: ShippingContext, batchId: string, shipmentIds: string[]) {
  const result = await addToBatch(ctx, batchId, shipmentIds);
  return json<BatchActionResult>({
    ok: result.ok,
    message: result.message,
    details: result.refused.map((refusal) => `${refusal.orderName}: ${refusal.reason}`),
  });
}
