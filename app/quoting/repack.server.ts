import { BatchQuoteShipment } from "../../shipping-api/contract";
import type { Context } from "../context";
import type { FieldErrors } from "../field-errors";
import type { Outcome } from "../outcome";
import { loadShipmentLines } from "../orders/shipment-lines.server";
import { loadSettings } from "../settings/account.server";
import { QuotingInputError } from "./errors";
import { applyPackages, parsePackages, type PostedPackages } from "./packages";
import { requoteShipments, type RequoteOutcome } from "./requote.server";
import { isBooked } from "./rate-pick.server";

/**
 * Repacks one shipment as the merchant set it (a box and a weight per package; several to split the order,
 * with the items each box holds) and quotes it again: the packages are kept on the shipment and applied to its
 * stored request, which re-quotes, batches and single booking all start from; the items per box are what its
 * packing slip lists. Refuses, naming the field, what cannot be applied.
 */
export async function repackShipment(ctx: Context, posted: PostedPackages): Promise<RequoteOutcome> {
  const { db, shop } = ctx;
  const shipmentId = typeof posted.shipmentId === "string" ? posted.shipmentId : "";
  const shipment = shipmentId
    ? await db.shipment.findFirst({
        where: { id: shipmentId, shop },
        select: {
          id: true,
          orderId: true,
          fulfillmentOrderId: true,
          lines: true,
          request: true,
          bookingStatus: true,
          batch: { select: { name: true } },
        },
      })
    : null;
  if (!shipment) throw new QuotingInputError(404, "shipmentId", "No such shipment in this store.");
  if (isBooked(shipment.bookingStatus))
    throw new QuotingInputError(409, "shipmentId", "Already booked: its label exists, so its packages can no longer change.");
  if (shipment.batch)
    throw new QuotingInputError(409, "shipmentId", `It is in the batch “${shipment.batch.name}”: remove it from the batch first, then change its packages.`);
  const request = BatchQuoteShipment.safeParse(JSON.parse(shipment.request));
  if (!request.success)
    throw new QuotingInputError(409, "shipmentId", "Its stored quote request is no longer valid. Quote the order again from Orders to ship.");

  const [{ boxes }, lines] = await Promise.all([loadSettings(ctx), loadShipmentLines(ctx, [shipment])]);
  const parsed = parsePackages(posted, boxes, request.data.weightUnit, lines.get(shipment.id));
  if (!parsed.ok) throw new QuotingInputError(400, Object.keys(parsed.fieldErrors)[0] ?? "packages", parsed.message);
  await db.shipment.update({
    where: { id: shipment.id },
    data: { request: JSON.stringify(applyPackages(request.data, parsed.packages, boxes)), packages: JSON.stringify(parsed.packages) },
  });
  const [outcome] = await requoteShipments(ctx, [shipment.id]);
  return outcome!;
}

/** What the packages editor shows of a repack: saved and re-quoted, or refused with the message on the field it names. */
export type RepackAnswer = Outcome<{ message: string }, { fieldErrors?: FieldErrors }>;

/**
 * The packages editor's post (the shipment, then a box and a weight per package and, for several, each item's
 * quantity in each box; the rates page and the single booking page both carry the editor): repacked and quoted again. Answers what the editor shows and the HTTP
 * status: input that cannot be kept is refused on its field with its QuotingInputError's status.
 */
export async function repackPosted(ctx: Context, form: FormData): Promise<{ answer: RepackAnswer; status: number }> {
  try {
    const outcome = await repackShipment(ctx, {
      shipmentId: form.get("shipmentId"),
      box: form.getAll("box"),
      weight: form.getAll("weight"),
      line: form.getAll("line"),
      quantity: form.getAll("quantity"),
    });
    return {
      status: 200,
      answer: outcome.ok
        ? { ok: true, message: "Packages saved and re-quoted" }
        : { ok: false, message: `Packages saved, but the re-quote failed: ${outcome.message}` },
    };
  } catch (error) {
    if (error instanceof QuotingInputError) return { status: error.status, answer: error.refusal() };
    throw error;
  }
}
