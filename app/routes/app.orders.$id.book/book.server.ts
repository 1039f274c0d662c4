import { json } from "@remix-run/node";
import { parseBookingForm } from "../../booking/book-request";
import { bookSingleShipment, type SingleBookingOutcome } from "../../booking/single-booking.server";
import type { Context } from "../../context";
import type { Outcome } from "../../outcome";
import { QuotingInputError } from "../../quoting/errors";
import { repackShipment } from "../../quoting/repack.server";
import type { FieldErrors } from "../../field-errors";
import type { ShippingContext } from "../../shipping/context.server";

/** The single booking page's intents, one function each: repack a shipment and quote it again, or book it. */

/** The packages editor's answer (its own fetcher): refused with the message on the field it names, if any. */
type RepackAnswer = { intent: "repack" } & Outcome<object, { fieldErrors?: FieldErrors }>;

/** A booking form that does not parse is refused as booking refuses details it cannot book: on their fields. */
type ActionResult = SingleBookingOutcome | RepackAnswer;

/** The packages editor: repack this shipment and quote it again (the page then reloads its rates). */
export async function repack(ctx: Context, posted: FormData) {
  try {
    const outcome = await repackShipment(ctx, { shipmentId: posted.get("shipmentId"), box: posted.getAll("box"), weight: posted.getAll("weight") });
    return json<ActionResult>(
      outcome.ok ? { intent: "repack", ok: true } : { intent: "repack", ok: false, message: `Packages saved, but the re-quote failed: ${outcome.message}` },
    );
  } catch (error) {
    if (error instanceof QuotingInputError)
      return json<ActionResult>(
        { intent: "repack", ok: false, message: error.message, fieldErrors: { [error.field]: error.message } },
        { status: error.status },
      );
    throw error;
  }
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
