import { json } from "@remix-run/node";
import { z } from "zod";
import type { Context } from "../../context";
import type { Outcome } from "../../outcome";
import { withShipping } from "../../shipping/context.server";
import { MAX_RETURN_LABELS, quoteReturnLabels, startReturnBooking } from "../../returns/return-label.server";
import { useBoxLabel } from "../../returns/box-label-use.server";
import { decideReturn, queueReturnsReconcile } from "../../returns/returns.server";

/**
 * The Returns page's intents, one function each: check Shopify, approve or decline one, get labels for a selection,
 * use the label in a return's box, book the quoted ones.
 */

const Id = z.string().min(1).max(100);

export const ActionInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reconcile") }),
  z.object({ intent: z.literal("approve"), returnId: Id }),
  z.object({ intent: z.literal("decline"), returnId: Id }),
  z.object({ intent: z.literal("quote"), returnIds: z.array(Id).min(1, "Choose at least one return.").max(MAX_RETURN_LABELS) }),
  z.object({ intent: z.literal("use_box_label"), returnId: Id, shipmentId: Id }),
  z.object({ intent: z.literal("book"), shipmentIds: z.array(Id).min(1, "Choose at least one return label to book.").max(MAX_RETURN_LABELS) }),
]);
export type ActionInput = z.infer<typeof ActionInput>;

/** What an action did, or why not; `details`: per return, what it could not do. */
export type ReturnsActionResult = Outcome<{ message: string; details?: string[] }, { details?: string[] }>;

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
