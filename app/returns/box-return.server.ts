import type { Shipment } from "@prisma/client";
import type { BatchQuoteShipment } from "../../shipping-api/contract";
import { boxReturnLabelsJob } from "../booking/box-return-job";
import { BOOKING_SWEEP_GRACE_MS } from "../booking/resume.server";
import { OutcomeInDoubtError, defineJob, type JobServices } from "../jobs/job";
import { countryName } from "../locale/places";
import { shipmentDateOf } from "../orders/shipment-mapping";
import { formatWeight, toNanograms } from "../orders/weights";
import type { Outcome } from "../outcome";
import { loadSettings } from "../settings/account.server";
import type { ShippingSettings } from "../settings/settings";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping, type ShippingContext } from "../shipping/context.server";
import { bookReturnLabel, quoteReturnParcel, recordReturnQuote, returnReceiver, servicesOfRun } from "./return-label.server";

/**
 * A return label in the box (issue 24 §5, docs/decisions/044). With Settings' "Put a return label in the box" on,
 * each order a batch books is marked `boxReturn` WANTED in the same write as its booking; this job then books, per
 * order, a scan-based return label (sender the order's customer, receiver the shop's return address, the parcel's
 * weight) as a RETURN shipment whose `inBoxOf` is the outbound one, exactly once as any return label
 * (bookReturnLabel: intent before Book Shipment, outcome after, a lost answer read back by Search Shipments). The
 * outbound label never waits for it: it is booked and written back before this job starts, whatever happens here.
 * An order no scan-based return service serves (or a shop with no return address) is marked SKIPPED with the
 * reason in a merchant's words, shown on the batch page. A scan-based label costs nothing unless it is scanned.
 */

const skip = (message: string) => ({ ok: false as const, message });

/** The return parcel of an outbound shipment: from its customer to the shop, one piece of the parcel's weight. */
function boxReturnRequest(outbound: BatchQuoteShipment, receiver: BatchQuoteShipment["receiver"], orderName: string, now: Date): BatchQuoteShipment {
  const unit = outbound.weightUnit;
  const total = outbound.pieces.reduce((sum, piece) => sum + toNanograms(Number(piece.weight), unit), 0n);
  const first = outbound.pieces[0];
  return {
    shipmentDate: shipmentDateOf(now),
    shipmentReference: orderName,
    contentDescription: `Return of ${orderName}`,
    sender: outbound.receiver,
    receiver,
    residential: false,
    signatureOptionCode: null,
    weightUnit: unit,
    dimUnit: outbound.dimUnit ?? null,
    currency: outbound.currency,
    pieces: [
      {
        weight: formatWeight(total, unit),
        length: first?.length ?? null,
        width: first?.width ?? null,
        height: first?.height ?? null,
        insuranceAmount: null,
        declaredValue: null,
        lineItems: outbound.pieces.flatMap((piece) => piece.lineItems ?? []),
      },
    ],
    commercialInvoice: null,
  };
}

/** Quotes the return label for an outbound shipment's box (scan-based services only) and records it; or why there is none. */
async function quoteBoxReturn(ctx: ShippingContext, { settings, listServices }: JobRun, outbound: Shipment): Promise<Outcome<{ shipmentId: string }>> {
  const receiver = returnReceiver(settings);
  if (!receiver.ok) return skip(receiver.message);
  const request = boxReturnRequest(JSON.parse(outbound.request) as BatchQuoteShipment, receiver.address, outbound.orderName, ctx.now());
  const country = request.sender.country;
  const quoted = await quoteReturnParcel(ctx, request, { country, rule: { kind: "scan-based" }, scanBasedOnly: true, listServices });
  if (!quoted.ok)
    return skip(
      quoted.reason === "no-service"
        ? `none of your return services offers scan-based labels from ${countryName(country)}. If the customer asks for a return, get a label from Returns.`
        : quoted.message,
    );
  const shipmentId = await recordReturnQuote(
    ctx,
    { returnId: null, inBoxOf: outbound.id, orderId: outbound.orderId, orderName: outbound.orderName, fulfillmentOrderId: "", lines: "[]" },
    request,
    quoted,
  );
  return { ok: true, shipmentId };
}

type BoxReturnOutcome = "added" | "skipped" | "pending";

/** What one run of the job reads once for all its labels: the shop's settings and the account's services. */
interface JobRun {
  settings: ShippingSettings;
  listServices: ReturnType<typeof servicesOfRun>;
}

/** The return label for one outbound shipment's box: quoted unless a booking of it is already on record, then booked once. */
async function addBoxReturn(ctx: ShippingContext, run: JobRun, outbound: Shipment): Promise<BoxReturnOutcome> {
  const marked = (boxReturn: "ADDED" | "SKIPPED", note: string | null) =>
    ctx.db.shipment.updateMany({ where: { id: outbound.id, boxReturn: "WANTED" }, data: { boxReturn, boxReturnNote: note } });
  const recorded = await ctx.db.shipment.findFirst({
    where: { shop: ctx.shop, kind: "RETURN", inBoxOf: outbound.id, bookingStatus: { in: ["BOOKING", "BOOKED"] } },
    select: { id: true },
  });
  let labelId = recorded?.id;
  if (!labelId) {
    const quoted = await quoteBoxReturn(ctx, run, outbound);
    if (!quoted.ok) {
      await marked("SKIPPED", quoted.message);
      return "skipped";
    }
    labelId = quoted.shipmentId;
  }
  const booked = await bookReturnLabel(ctx, labelId);
  if (booked.ok) {
    await marked("ADDED", null);
    return "added";
  }
  if (booked.reason === "pending") return "pending";
  await marked("SKIPPED", `Its return label could not be booked: ${booked.message}`);
  return "skipped";
}

/** Wanted orders read at once. */
const WANTED_PAGE = 100;

/** Books the return label of every booked order of the shop whose box wants one; counts what was added, skipped and left in doubt. */

export async function bookBoxReturnLabels(ctx: ShippingContext): Promise<Record<BoxReturnOutcome, number>> {
  const summary = { added: 0, skipped: 0, pending: 0 };
  let run: JobRun | undefined;
  // A page at a time by id (booked batches of 500 can leave thousands wanted): a label left pending keeps its
  // order WANTED, so the next page starts after the last one seen rather than at the first still wanted.
  for (let after = ""; ;) {
    const wanted = await ctx.db.shipment.findMany({
      where: { shop: ctx.shop, kind: "OUTBOUND", bookingStatus: "BOOKED", boxReturn: "WANTED", id: { gt: after } },
      orderBy: { id: "asc" },
      take: WANTED_PAGE,
    });
    if (wanted.length === 0) return summary;
    run ??= { settings: await loadSettings(ctx), listServices: servicesOfRun(ctx) };
    for (const outbound of wanted) summary[await addBoxReturn(ctx, run, outbound)] += 1;
    after = wanted.at(-1)!.id;
  }
}

/** The job (app/booking/box-return-job.ts): one shop's wanted box return labels, once at a time per shop. */
export const boxReturnLabelsSpec = defineJob({
  ...boxReturnLabelsJob,
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  expireInSeconds: 15 * 60,
  run: async ({ shop }, job) => {
    let ctx;
    try {
      ctx = await withShipping(job.services.context(shop));
    } catch (error) {
      if (error instanceof NotConnectedError) return;
      throw error;
    }
    const summary = await bookBoxReturnLabels(ctx);
    // A booking whose answer was lost and could not be read back yet: a later attempt reads it back.
    if (summary.pending > 0) throw new OutcomeInDoubtError(`${summary.pending} return label(s) in boxes of ${shop} are not confirmed booked yet`);
  },
});

/**
 * Sends the job of every shop with a booked order whose box return label is wanted and unchanged for `graceMs`
 * (start-up: 0; the minute sweep: the bookings' grace), so a crash between an order's booking and its return
 * label's settles without a page.
 */
export async function queueOutstandingBoxReturns(services: Pick<JobServices, "db" | "context" | "now">, graceMs = BOOKING_SWEEP_GRACE_MS): Promise<string[]> {
  const shops = await services.db.shipment.findMany({
    where: {
      kind: "OUTBOUND",
      bookingStatus: "BOOKED",
      boxReturn: "WANTED",
      ...(graceMs > 0 ? { updatedAt: { lte: new Date(services.now().getTime() - graceMs) } } : {}),
    },
    distinct: ["shop"],
    select: { shop: true },
  });
  await Promise.all(shops.map(({ shop }) => services.context(shop).jobs.send(boxReturnLabelsJob, { shop })));
  return shops.map(({ shop }) => shop);
}
