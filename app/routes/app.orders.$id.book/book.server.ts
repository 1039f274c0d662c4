import { json } from "@remix-run/node";
import { parseBookingForm } from "../../booking/book-request";
import { bookSingleShipment, type SingleBookingOutcome } from "../../booking/single-booking.server";
import type { Context } from "../../context";
import { repackPosted, type RepackAnswer } from "../../quoting/repack.server";
import type { ShippingContext } from "../../shipping/context.server";

/** The single booking page's intents, one function each: repack a shipment and quote it again, or book it. */

/** The packages editor's answer (its own fetcher): refused with the message on the field it names, if any. */
type EditorAnswer = { intent: "repack" } & RepackAnswer;

/** A booking form that does not parse is refused as booking refuses details it cannot book: on their fields. */
type ActionResult = SingleBookingOutcome | EditorAnswer;

/** The packages editor: repack this shipment and quote it again (the page then reloads its rates). */
export async function repack(ctx: Context, posted: FormData) {
  const { answer, status } = await repackPosted(ctx, posted);
  return json<ActionResult>({ intent: "repack", ...answer }, { status });
}

/** Books the shipment with the chosen rate and options. */
export async function book(ctx: ShippingContext, posted: FormData) {
  const form = parseBookingForm(posted);
  if (!form.ok) return json<ActionResult>({ ok: false, reason: "refused", message: form.message, fieldErrors: form.fieldErrors }, { status: 400 });
  const outcome = await bookSingleShipment(ctx, form.value);
  // The label itself is fetched from the label route; the page needs only the numbers.
  return json<ActionResult>(outcome.ok ? { ...outcome, label: null } : outcome, {
    status: !outcome.ok && outcome.reason === "refused" && outcome.fieldErrors ? 400 : 200,
  });
}
