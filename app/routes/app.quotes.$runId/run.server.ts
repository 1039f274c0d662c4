import { json } from "@remix-run/node";
import { z } from "zod";
import { saveLineDetailsAndRequote } from "../../quoting/blocked-fix.server";
import type { Outcome } from "../../outcome";
import { plural } from "../../plural";
import { QuotingInputError } from "../../quoting/errors";
import { applyRule, selectRate } from "../../quoting/rate-pick.server";
import { repackPosted } from "../../quoting/repack.server";
import { requoteShipments } from "../../quoting/requote.server";
import { runShipmentIds } from "../../quoting/run-view.server";
import type { FieldErrors } from "../../field-errors";
import type { Context } from "../../context";

/** The rates page's intents, one function each: customs details, packages, a rate chosen, the rule applied, re-quotes. */

export const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("select"), shipmentId: z.string().min(1), quoteId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("apply-rule"), overrideManual: z.literal("on").optional() }),
  z.object({ intent: z.literal("requote"), shipmentIds: z.array(z.string().min(1)).min(1, "choose at least one shipment") }),
  // Every expired or failed shipment of the run, read on the server: the page does not carry a run's ids.
  z.object({ intent: z.literal("requote-run"), which: z.enum(["expired", "failed"]) }),
]);

/**
 * Refused with the message, on the field it names when it names one (the customs form and the packages editor show
 * it there). Done with a `warning` when part of it was not (a weight kept for the order but not saved to the product).
 */
export type ActionResult = Outcome<{ message: string; warning?: string }, { fieldErrors?: FieldErrors }>;

/** What an order blocked in this run lacked (weights, customs details): kept for the order, then quoted again in this run. */
export async function customs(ctx: Context, runId: string, form: FormData) {
  try {
    const outcome = await saveLineDetailsAndRequote(ctx, runId, {
      orderId: form.get("orderId"),
      weightUnit: form.get("weightUnit") ?? undefined,
      lineId: form.getAll("lineId"),
      hsCode: form.getAll("hsCode"),
      countryOfOrigin: form.getAll("countryOfOrigin"),
      product: form.getAll("product"),
      weight: form.getAll("weight"),
      saveToProduct: form.get("saveToProduct"),
      productAccess: form.get("productAccess"),
    });
    const { product } = outcome;
    const saved = product?.ok ? `Saved for this order and on ${product.products.join(", ")} in Shopify` : "Saved";
    const warning = product && !product.ok ? `Kept for this order only; the product in Shopify was not changed. ${product.message}` : undefined;
    return json<ActionResult>(
      outcome.ok
        ? { ok: true, message: `${saved}: quoting the order again in this run`, warning }
        : { ok: false, message: `${saved}, but the order is still blocked: ${outcome.message}${warning ? ` ${warning}` : ""}` },
    );
  } catch (error) {
    if (error instanceof QuotingInputError) return json<ActionResult>(error.refusal(), { status: error.status });
    throw error;
  }
}

/** The packages editor: the shipment repacked and quoted again. */
export async function repack(ctx: Context, form: FormData) {
  const { answer, status } = await repackPosted(ctx, form);
  return json<ActionResult>(answer, { status });
}

export async function select(ctx: Context, shipmentId: string, quoteId: number) {
  await selectRate(ctx, shipmentId, quoteId);
  return json<ActionResult>({ ok: true, message: "Rate chosen" });
}

export async function applyTheRule(ctx: Context, runId: string, overrideManual: boolean) {
  const result = await applyRule(ctx, runId, { overrideManual });
  const kept = result.keptManual > 0 ? `; kept ${plural(result.keptManual, "rate")} you chose` : "";
  return json<ActionResult>({ ok: true, message: `Rule applied to ${plural(result.applied, "shipment")}${kept}` });
}

/** The run's expired or failed shipments, read on the server, quoted again. */
export async function requoteRun(ctx: Context, runId: string, which: "expired" | "failed") {
  const ids = await runShipmentIds(ctx, runId, which);
  if (ids.length === 0) return json<ActionResult>({ ok: false, message: `No ${which} shipment is left to re-quote in this run.` });
  return requote(ctx, ids);
}

export async function requote(ctx: Context, shipmentIds: string[]) {
  const outcomes = await requoteShipments(ctx, shipmentIds);
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  const done = `Re-quoted ${plural(outcomes.length - failed, "shipment")}`;
  return json<ActionResult>({ ok: true, message: failed > 0 ? `${done}; ${failed} could not be quoted (see below)` : done });
}
