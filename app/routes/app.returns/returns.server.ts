import { json } from "@remix-run/node";
import { z } from "zod";
import type { Context } from "../../context";
import type { Outcome } from "../../outcome";
import { withShipping } from "../../shipping/context.server";
import { jsonCostProblem } from "../../../lib/json-cost";
import type { FieldErrors } from "../../field-errors";
import { ReturnSplit } from "../../returns/return-boxes";
import { MAX_RETURN_LABELS, quoteReturnLabels, splitReturnLabel, startReturnBooking } from "../../returns/return-label.server";
import { useBoxLabel } from "../../returns/box-label-use.server";
import { decideReturn, queueReturnsReconcile } from "../../returns/returns.server";

/**
 * The Returns page's intents, one function each: check Shopify, approve or decline one, get labels for a selection,
 * split one into boxes, use the label in a return's box, book the quoted ones.
 */

const Id = z.string().min(1).max(100);

/** The split's boxes as the page posts them: JSON in one field, small and shallow, else refused before it is parsed. */
const PostedSplit = z
  .string()
  .max(20_000)
  .transform((text, ctx) => {
    try {
      if (!jsonCostProblem(text, { maxDepth: 4, maxStringChars: 200 })) return JSON.parse(text) as unknown;
    } catch {
      // Refused below.
    }
    ctx.issues.push({ code: "custom", message: "The boxes could not be read. Reload the page, then split the return again.", input: text });
    return z.NEVER;
  })
  .pipe(ReturnSplit);

export const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reconcile") }),
  z.object({ intent: z.literal("approve"), returnId: Id }),
  z.object({ intent: z.literal("decline"), returnId: Id }),
  z.object({ intent: z.literal("quote"), returnIds: z.array(Id).min(1, "Choose at least one return.").max(MAX_RETURN_LABELS) }),
  z.object({ intent: z.literal("split"), returnId: Id, boxes: PostedSplit }),
  z.object({ intent: z.literal("use_box_label"), returnId: Id, shipmentId: Id }),
  z.object({ intent: z.literal("book"), shipmentIds: z.array(Id).min(1, "Choose at least one return label to book.").max(MAX_RETURN_LABELS) }),
]);
export type ActionInput = z.infer<typeof ActionInput>;

/**
 * What an action did, or why not; `details`: per return, what it could not do; `fieldErrors`: a split's problems by
 * field (`boxes[1]`, `lines[0]`), shown next to each, for the return named.
 */
export type ReturnsActionResult = Outcome<
  { message: string; details?: string[]; returnId?: string },
  { details?: string[]; fieldErrors?: FieldErrors; returnId?: string }
>;

export async function act(ctx: Context, input: ActionInput) {
  switch (input.intent) {
    case "reconcile":
      await queueReturnsReconcile(ctx);
      return json<ReturnsActionResult>({ ok: true, message: "Checking Shopify for returns. This page updates by itself." });
    case "approve":
    case "decline": {
      const decided = await decideReturn(ctx, input.returnId, input.intent);
      return json<ReturnsActionResult>(decided.ok ? { ok: true, message: input.intent === "approve" ? "Return approved." : "Return declined." } : decided, {
        status: decided.ok ? 200 : 409,
      });
    }
    case "quote": {
      const quoted = await quoteReturnLabels(await withShipping(ctx), input.returnIds);
      const done = quoted.filter((entry) => entry.outcome.ok).length;
      const details = quoted.flatMap((entry) => (entry.outcome.ok ? [] : [`${entry.name}: ${entry.outcome.message}`]));
      return json<ReturnsActionResult>({
        ok: done > 0,
        message:
          done > 0 ? `Picked a return label for ${done} ${done === 1 ? "return" : "returns"}. Check the price, then book.` : "No return label could be picked.",
        details,
      });
    }
    case "split": {
      const split = await splitReturnLabel(await withShipping(ctx), input.returnId, input.boxes);
      if (!split.ok)
        return json<ReturnsActionResult>(
          { ok: false, message: split.message, fieldErrors: split.fieldErrors, returnId: input.returnId },
          { status: split.fieldErrors ? 400 : 409 },
        );
      return json<ReturnsActionResult>({
        ok: true,
        message: `Picked a return label for each of ${split.boxes.length} boxes. Check the prices, then book.`,
        returnId: input.returnId,
      });
    }
    case "use_box_label": {
      const used = await useBoxLabel(ctx, input.returnId, input.shipmentId);
      return json<ReturnsActionResult>(
        used.ok
          ? { ok: true, message: `Using the return label in the box (tracking ${used.trackingNumber}). Consign sends it to Shopify and the customer.` }
          : used,
        { status: used.ok ? 200 : 409 },
      );
    }
    case "book":
      await startReturnBooking(ctx, input.shipmentIds);
      return json<ReturnsActionResult>({ ok: true, message: "Booking the return labels. This page updates by itself." });
  }
}
