import type { Prisma } from "@prisma/client";
import { timeOrderedId } from "../db/ids";
import { z } from "zod";
import { Address, type BatchQuoteShipment, BookShipmentRequest, type Quote, type WeightUnit } from "../../shipping-api/contract";
import { crashPoint } from "../crash-points.server";
import type { Outcome } from "../outcome";
import { inMerchantWords, type FieldErrors } from "../field-errors";
import { countryName } from "../locale/places";
import { receiverAddress, shipmentDateOf } from "../orders/shipment-mapping";
import type { OrderAddress } from "../orders/types";
import { formatWeight, toNanograms } from "../orders/weights";
import { pickedQuote, ratesColumn } from "../shipping/stored-rates";
import { buildBookRequest } from "../booking/book-request";
import { queueOrderSignals } from "../signals/order-signals-job";
import { bookedFieldsOf, recordBooked } from "../booking/record-booked.server";
import { claimSingleBooking, reconcileSingleBooking } from "../booking/single-booking.server";
import { loadSettings, recordPrepayBalance } from "../settings/account.server";
import { defaultBox, type ReturnRule, type ShippingSettings } from "../settings/settings";
import type { ShippingContext } from "../shipping/context.server";
import { explainShippingError, outcomeUnknown } from "../shipping/errors";
import { clientFailure, describeQuoteFailure } from "../shipping/quote-failure";
import { serviceNamesOf } from "../shipping/service-names";
import { offersScanBased, pickReturnRate, servesReturnFrom, type ReturnPick, type ReturnRate } from "./return-rule";
import { storedReturnLines, storedReverseLines, type ReturnLine } from "./return-node";
import { oneBox, planReturnBoxes, type ReturnSplit } from "./return-boxes";
import { ensureLabelLink, queueReturnAttach } from "./return-attach.server";
import { defineJob } from "../jobs/job";
import type { Context } from "../context";
import { withShipping } from "../shipping/context.server";

/**
 * A return's label (docs/decisions/041): quoted with the shop's inbound services for the parcel coming back (the
 * sender the customer's shipping address, the receiver the shop's return address, the weight the returned items'
 * plus the packaging in the default box), picked by the return rule, and booked exactly once as any label is: a
 * Shipment of kind RETURN whose intent (BOOKING) is recorded before Book Shipment and whose outcome after; a lost
 * answer is read back with Search Shipments by its id (shipmentReference2) before it is booked again. Once booked,
 * its reverse delivery is attached to Shopify's return by the attach job (return-attach.server.ts).
 */

/** A return label that was not voided at the carrier (trackingStopReason is null on every label never stopped). */
export const NOT_VOIDED = { OR: [{ trackingStopReason: null }, { trackingStopReason: { not: "VOIDED" } }] } satisfies Prisma.ShipmentWhereInput;

/** The return's label being booked or booked and not voided: a return that has one needs no other. */
export function labelInUse(ctx: Pick<Context, "db" | "shop">, returnId: string) {
  return ctx.db.shipment.findFirst({ where: { shop: ctx.shop, kind: "RETURN", returnId, bookingStatus: { in: ["BOOKING", "BOOKED"] }, ...NOT_VOIDED } });
}

export const hasLabelAlready = (name: string, label: { trackingNumber: string | null }) =>
  `Return ${name} has a label already${label.trackingNumber ? ` (tracking ${label.trackingNumber})` : ""}.`;

/**
 * The return's latest label voided at the carrier after it was sent to Shopify: the return's next label takes over
 * its reverse delivery (return-attach.server.ts), named in that label's replacesId.
 */
export function voidedLabelOf(ctx: Pick<Context, "db" | "shop">, returnId: string) {
  return ctx.db.shipment.findFirst({
    where: { shop: ctx.shop, kind: "RETURN", returnId, trackingStopReason: "VOIDED", fulfillmentId: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
}

/** Quoted and picked (the return's label shipment, with the rule's reason), or why it cannot be, naming what to fix. */
export type ReturnQuoteOutcome = Outcome<{ shipmentId: string; reason: string; totalAmount: string; currency: string; scanBased: boolean }>;

const refuse = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** The unit a return parcel is quoted in: pounds for a shop that packs in ounces or pounds, else kilograms. */
const parcelUnit = (packaging: WeightUnit): WeightUnit => (packaging === "oz" || packaging === "lb" ? "lb" : "kg");

/** Where return parcels go: the return address in Settings, else the sender address; or what to fix in Settings. */
export function returnReceiver(settings: ShippingSettings): Outcome<{ address: Address }> {
  const home = settings.returnAddress ?? settings.sender;
  if (!home) return refuse("Consign has no address to send returns to. Add a return address (or a sender address) in Settings.");
  const receiver = Address.safeParse(home, { error: inMerchantWords });
  if (!receiver.success)
    return refuse("The return address in Settings is incomplete. Complete it (name, street, city, postal code, country and phone) in Settings.");
  return { ok: true, address: receiver.data };
}

/** A return parcel quoted and picked, or why not: no return service (of the kind asked) picks up in the country, or none quoted it. */
export type ReturnParcelQuote = Outcome<{ quotes: Quote[]; pick: ReturnPick; chosen: ReturnRate }, { reason: "no-service" | "not-quoted" }>;

/** The account's services as List Services answers them. */
type ListServices = () => ReturnType<ShippingContext["client"]["listServices"]>;

/**
 * List Services for the parcels of one run of quotes (a return's boxes, a job's labels in boxes): a good answer is
 * kept for the rest of the run, a failed one is asked again by the next parcel.
 */
export function servicesOfRun(ctx: ShippingContext): ListServices {
  let kept: Awaited<ReturnType<ListServices>> | undefined;
  return async () => {
    if (kept) return kept;
    const answer = await ctx.client.listServices();
    if (answer.ok) kept = answer;
    return answer;
  };
}

/**
 * Quotes a return parcel (`request`, without a service) with each of the account's return services that picks up in
 * `country` (scan-based ones only when `scanBasedOnly`), and picks one by `rule`. Writes nothing.
 */
export async function quoteReturnParcel(
  ctx: ShippingContext,
  request: BatchQuoteShipment,
  {
    country,
    rule,
    scanBasedOnly,
    listServices = () => ctx.client.listServices(),
  }: { country: string; rule: ReturnRule; scanBasedOnly: boolean; listServices?: ListServices },
): Promise<ReturnParcelQuote> {
  const services = await listServices();
  if (!services.ok) return { ok: false, reason: "not-quoted", message: explainShippingError("search", services.error) };
  const serving = services.value.services.filter((service) => servesReturnFrom(service, country) && (!scanBasedOnly || offersScanBased(service)));
  if (serving.length === 0) return { ok: false, reason: "no-service", message: `No return service picks up in ${countryName(country)}.` };
  // A domestic return service is quoted only when named: one request per return service that serves the customer.
  const outcomes = await ctx.client.quoteShipments(
    serving.map((service) => ({ ...request, carrierCode: service.carrierCode, serviceCode: service.serviceCode })),
  );
  const quotes: Quote[] = [];
  let failure: string | null = null;
  for (const outcome of outcomes) {
    if (outcome.status === "success") quotes.push(...outcome.quotes);
    else
      failure ??= describeQuoteFailure(
        outcome.status === "failed" ? clientFailure(outcome.error) : { category: outcome.errorCategory, message: outcome.error },
      );
  }
  const byService = new Map(serving.map((service) => [`${service.carrierCode}/${service.serviceCode}`, service]));
  const rates: ReturnRate[] = quotes.map((quote) => ({
    ...quote,
    scanBased: offersScanBased(byService.get(`${quote.carrierCode}/${quote.serviceCode}`) ?? { carrierCode: "", inbound: false }),
  }));
  const pick = pickReturnRate(rates, rule, serviceNamesOf(services.value.services));
  if (!pick)
    return {
      ok: false,
      reason: "not-quoted",
      message: `No return service quoted this parcel${failure ? `: ${failure}` : ""}. Check the return address in Settings and the customer's address, then try again.`,
    };
  return { ok: true, quotes, pick, chosen: rates.find((rate) => rate.quoteId === pick.quoteId)! };
}

/**
 * Quotes a return's label, the whole return in one box, with the shop's return services and picks one by the return
 * rule; for a return in boxes some of which are booked, the boxes left are quoted again as they were split (the
 * first of them answered). Nothing is written when it is refused.
 */
export async function quoteReturnLabel(ctx: ShippingContext, returnId: string): Promise<ReturnQuoteOutcome> {
  const quoted = await quoteReturnBoxes(ctx, returnId, null);
  return quoted.ok ? { ok: true, ...quoted.boxes[0]! } : quoted;
}

/** Each box quoted and picked, in box order; or why not, the split's problems by field. */
export type ReturnSplitOutcome = Outcome<
  { boxes: Array<{ shipmentId: string; reason: string; totalAmount: string; currency: string; scanBased: boolean }> },
  { fieldErrors?: FieldErrors }
>;

/**
 * Quotes a return in the boxes of the merchant's split (docs/decisions/041 "a return's boxes"): each box its own
 * return label, weighed by its own items plus the packaging, its reverse delivery to carry its own lines. Replaces
 * the return's quotes never booked; refused while any of its labels is booked. Nothing is written when refused.
 */
export function splitReturnLabel(ctx: ShippingContext, returnId: string, split: ReturnSplit): Promise<ReturnSplitOutcome> {
  return quoteReturnBoxes(ctx, returnId, split);
}

/** A return's boxes (one box, every item, when `split` is null) quoted, picked and recorded together, or none of them. */
async function quoteReturnBoxes(ctx: ShippingContext, returnId: string, split: ReturnSplit | null): Promise<ReturnSplitOutcome> {
  const stored = await ctx.db.shopReturn.findFirst({ where: { id: returnId, shop: ctx.shop } });
  if (!stored) return refuse("Consign does not know this return. Check Shopify for returns, then try again.");
  if (stored.status === "REQUESTED") return refuse(`Return ${stored.name} is waiting for approval. Approve it first, here or in Shopify.`);
  if (stored.status !== "OPEN" || !stored.reverseFulfillmentOrderId) return refuse(`Return ${stored.name} is not open, so it needs no label.`);
  const existing = await labelInUse(ctx, returnId);
  if (existing && split)
    return refuse(
      `Return ${stored.name} has a label booked already${existing.trackingNumber ? ` (tracking ${existing.trackingNumber})` : ""}, so its boxes cannot change. Get return labels for the boxes not booked yet instead.`,
    );
  const owner = { returnId, inBoxOf: null, orderId: stored.orderId, orderName: stored.orderName, fulfillmentOrderId: stored.reverseFulfillmentOrderId };
  if (existing) {
    const left = await boxesLeft(ctx, returnId);
    if (left.length === 0) return refuse(hasLabelAlready(stored.name, existing));
    const settings = await loadSettings(ctx);
    return quoteAndRecordBoxes(
      ctx,
      settings.returnRule,
      left.map((box) => ({
        owner: { ...owner, lines: box.lines, replacesId: box.replacesId },
        request: { ...(JSON.parse(box.request) as BatchQuoteShipment), shipmentDate: shipmentDateOf(ctx.now()) },
        createdAt: box.createdAt,
      })),
    );
  }
  const voided = await voidedLabelOf(ctx, returnId);
  // The voided label's reverse delivery holds the return's units: its one replacement takes it over, boxes cannot.
  if (voided && split) return refuse(`Return ${stored.name}'s label was voided at the carrier. Get one new label for it; its items stay as they were sent.`);

  const lines = storedReturnLines(stored.lines);
  const reverseLines = storedReverseLines(stored.reverseLines);
  let boxes = [oneBox(lines, reverseLines)];
  if (split) {
    const planned = planReturnBoxes(lines, reverseLines, split);
    if (!planned.ok) return planned;
    boxes = planned.boxes;
  }
  const settings = await loadSettings(ctx);
  const receiver = returnReceiver(settings);
  if (!receiver.ok) return receiver;
  const customer = stored.customerAddress ? (JSON.parse(stored.customerAddress) as OrderAddress) : null;
  if (!customer) return refuse(`Order ${stored.orderName} has no shipping address to collect the return from. Add one to the order in Shopify.`);
  const sender = receiverAddress(customer, null);
  if ("issue" in sender) return refuse(sender.issue.message.replace("The shipping address", "The customer's address"));
  const weightless = lines.filter((line) => !line.weight);
  if (weightless.length > 0)
    return refuse(`No weight for ${weightless.map((line) => line.title).join(", ")}. Set the weight on the product in Shopify, then get the label again.`);

  return quoteAndRecordBoxes(
    ctx,
    settings.returnRule,
    boxes.map((box, index) => ({
      owner: { ...owner, lines: JSON.stringify(box.reverseLines), replacesId: voided?.id ?? null },
      request: returnParcelRequest(
        ctx,
        settings,
        { sender: sender.address, receiver: receiver.address },
        stored.orderName,
        boxes.length === 1 ? `Return ${stored.name}` : `Return ${stored.name}, box ${index + 1} of ${boxes.length}`,
        box.lines,
      ),
    })),
  );
}

/**
 * A return in boxes, some booked: the boxes to quote again as they were split, each from its own request, in its
 * place — those never booked or whose booking failed (with what they replace), and those voided at the carrier after
 * they were sent to Shopify that no other label replaces yet (the new one takes over its reverse delivery).
 */
async function boxesLeft(ctx: ShippingContext, returnId: string) {
  const labels = await ctx.db.shipment.findMany({ where: { shop: ctx.shop, kind: "RETURN", returnId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const replaced = new Set(labels.map((label) => label.replacesId));
  return labels.flatMap((label) => {
    if (label.bookingStatus === "NONE" || label.bookingStatus === "FAILED") return [label];
    if (label.trackingStopReason === "VOIDED" && label.fulfillmentId && !replaced.has(label.id)) return [{ ...label, replacesId: label.id }];
    return [];
  });
}

/** Quotes each box's parcel and picks by `rule`, then records them all (replacing the owner's quotes never booked); or, if any is not quoted, none. */
async function quoteAndRecordBoxes(
  ctx: ShippingContext,
  rule: ReturnRule,
  boxes: Array<{ owner: ReturnLabelOwner; request: BatchQuoteShipment; createdAt?: Date }>,
): Promise<ReturnSplitOutcome> {
  const parcels = [];
  const listServices = servicesOfRun(ctx);
  for (const [index, box] of boxes.entries()) {
    const country = box.request.sender.country;
    const quoted = await quoteReturnParcel(ctx, box.request, { country, rule, scanBasedOnly: false, listServices });
    if (!quoted.ok) {
      const message =
        quoted.reason === "no-service"
          ? `None of your account's return services picks up in ${countryName(country)}. Ask your Shipping API provider for one.`
          : quoted.message;
      return refuse(boxes.length === 1 ? message : `Box ${index + 1}: ${message}`);
    }
    parcels.push({ ...box, quoted });
  }
  const shipmentIds = await recordReturnQuotes(ctx, parcels);
  return {
    ok: true,
    boxes: parcels.map(({ quoted: { pick, chosen } }, index) => ({
      shipmentId: shipmentIds[index]!,
      reason: pick.reason,
      totalAmount: chosen.totalAmount,
      currency: chosen.currency,
      scanBased: pick.scanBased,
    })),
  };
}

/**
 * One return parcel's quote request, without a service: from the customer to the shop's return address, weighing
 * `lines` (their weights as stored) plus the packaging, in the default box.
 */
function returnParcelRequest(
  ctx: Pick<ShippingContext, "now">,
  settings: ShippingSettings,
  { sender, receiver }: { sender: Address; receiver: Address },
  orderName: string,
  contentDescription: string,
  lines: ReturnLine[],
): BatchQuoteShipment {
  const unit = parcelUnit(settings.packagingWeight.unit);
  const total = lines.reduce(
    (sum, line) => sum + toNanograms(line.weight!.value, line.weight!.unit),
    toNanograms(settings.packagingWeight.value, settings.packagingWeight.unit),
  );
  const box = defaultBox(settings);
  return {
    shipmentDate: shipmentDateOf(ctx.now()),
    shipmentReference: orderName,
    contentDescription,
    sender,
    receiver,
    residential: false,
    signatureOptionCode: null,
    weightUnit: unit,
    dimUnit: box.kind === "custom" ? box.dimUnit : null,
    currency: "USD",
    pieces: [
      {
        weight: formatWeight(total, unit),
        length: box.kind === "custom" ? box.length : null,
        width: box.kind === "custom" ? box.width : null,
        height: box.kind === "custom" ? box.height : null,
        insuranceAmount: null,
        declaredValue: null,
        lineItems: lines.map((line) => ({ sku: line.sku ?? "", productName: line.title, quantity: line.quantity })),
      },
    ],
    commercialInvoice: null,
  };
}

/** What a return label's shipment is for: a return (returnId), or the box of an outbound shipment (inBoxOf; docs/decisions/044). */
export interface ReturnLabelOwner {
  returnId: string | null;
  inBoxOf: string | null;
  orderId: string;
  orderName: string;
  /** The reverse fulfillment order; "" for a label in a box, until a return is attached to it. */
  fulfillmentOrderId: string;
  lines: string;
  /** The voided label of the same return whose reverse delivery this one takes over (docs/decisions/041). */
  replacesId?: string | null;
}

/** Records a quoted return label (a RETURN shipment with its rates and the rule's pick), replacing its owner's earlier quote never booked. */
export async function recordReturnQuote(
  ctx: ShippingContext,
  owner: ReturnLabelOwner,
  request: BatchQuoteShipment,
  quoted: { quotes: Quote[]; pick: ReturnPick },
): Promise<string> {
  const [shipmentId] = await recordReturnQuotes(ctx, [{ owner, request, quoted }]);
  return shipmentId!;
}

/**
 * Records the quoted labels of one owner's boxes in one transaction, replacing its earlier quotes never booked: the
 * ids in box order. Each box is created a millisecond after the one before it, so the boxes read back in order (a box
 * quoted again keeps its place: `createdAt` of the one it replaces).
 */
async function recordReturnQuotes(
  ctx: ShippingContext,
  parcels: Array<{ owner: ReturnLabelOwner; request: BatchQuoteShipment; quoted: { quotes: Quote[]; pick: ReturnPick }; createdAt?: Date }>,
): Promise<string[]> {
  const quotedAt = ctx.now();
  const first = parcels[0]!.owner;
  const ownedBy = first.inBoxOf ? { inBoxOf: first.inBoxOf } : { returnId: first.returnId };
  return ctx.db.$transaction(async (tx) => {
    await tx.shipment.deleteMany({ where: { shop: ctx.shop, kind: "RETURN", ...ownedBy, bookingStatus: { in: ["NONE", "FAILED"] } } });
    const ids: string[] = [];
    for (const [index, { owner, request, quoted, createdAt }] of parcels.entries()) {
      const created = await tx.shipment.create({
        data: {
          id: timeOrderedId(),
          shop: ctx.shop,
          kind: "RETURN",
          ...owner,
          request: JSON.stringify(request),
          quoteStatus: "QUOTED",
          quotedAt,
          rates: ratesColumn(quoted.quotes),
          createdAt: createdAt ?? new Date(quotedAt.getTime() + index),
          selectedQuoteId: quoted.pick.quoteId,
          selectionReason: quoted.pick.reason,
          selectedBy: "RULE",
          scanBased: quoted.pick.scanBased,
        },
        select: { id: true },
      });
      ids.push(created.id);
    }
    return ids;
  });
}

/** Booked (its tracking number), or not: `pending` while the outcome of a booking is not known yet. */
export type ReturnBookingOutcome = Outcome<{ trackingNumber: string }, { reason: "refused" | "pending" }>;

/** Books a quoted return label with its picked rate, exactly once (see the module comment), and queues its reverse delivery. */
export async function bookReturnLabel(ctx: ShippingContext, shipmentId: string): Promise<ReturnBookingOutcome> {
  const refused = (message: string): ReturnBookingOutcome => ({ ok: false, reason: "refused", message });
  const pending = (message: string): ReturnBookingOutcome => ({ ok: false, reason: "pending", message });
  let shipment = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop, kind: "RETURN" } });
  if (!shipment) return refused("This return label is not in this shop any more. Reload the page.");
  if (shipment.bookingStatus === "BOOKING") {
    const settled = await reconcileSingleBooking(ctx, shipment);
    if (settled.status === "booked") {
      await afterBooking(ctx, shipmentId);
      return { ok: true, trackingNumber: settled.trackingNumber };
    }
    if (settled.status === "unconfirmed") return pending(settled.message);
    shipment = (await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop } }))!;
  }
  if (shipment.bookingStatus === "BOOKED") return { ok: true, trackingNumber: shipment.trackingNumber ?? "" };
  const quote = pickedQuote(shipment);
  if (!quote) return refused(`The return label of ${shipment.orderName} has no rate. Get the return label again.`);
  if (quote.expiresAt <= ctx.now()) return refused(`The return label's rate for ${shipment.orderName} has expired. Get the return label again.`);
  const settings = await loadSettings(ctx);
  const body = BookShipmentRequest.safeParse({
    ...buildBookRequest(
      JSON.parse(shipment.request) as BatchQuoteShipment,
      quote,
      { signatureOptionCode: null, insuranceAmount: null, saturdayDelivery: false, labelFormat: "PDF", approvePrepayRecharge: false },
      { returnTo: null, providerAccountId: settings.providerAccountId },
      { shipmentId, orderName: shipment.orderName },
    ),
    ...(shipment.scanBased ? { scanBasedReturnLabel: true } : {}),
  });
  if (!body.success) return refused(`The return label of ${shipment.orderName} cannot be booked as it was quoted. Get the return label again.`);

  if (!(await claimSingleBooking(ctx, shipmentId))) return pending("This return label is being booked already. Reload this page in a minute.");
  crashPoint("return-booking:before-call");
  const booked = await ctx.client.bookShipment({ body: body.data });
  crashPoint("return-booking:after-call");
  if (booked.ok) {
    // A scan-based label is charged only when first scanned: until then it has cost nothing.
    await recordBooked(ctx, shipmentId, bookedFieldsOf(booked.value, quote, shipment.scanBased ? "0.00" : quote.totalAmount));
    await recordPrepayBalance(ctx, booked.value.prepayBalance);
    await afterBooking(ctx, shipmentId);
    return { ok: true, trackingNumber: booked.value.trackingNumber };
  }
  if (!outcomeUnknown(booked.error)) {
    const message = explainShippingError("book-shipment", booked.error);
    await ctx.db.shipment.updateMany({ where: { id: shipmentId, bookingStatus: "BOOKING" }, data: { bookingStatus: "FAILED", bookingError: message } });
    return refused(message);
  }
  const settled = await reconcileSingleBooking(ctx, { ...shipment, bookingStatus: "BOOKING", updatedAt: ctx.now() });
  if (settled.status === "booked") {
    await afterBooking(ctx, shipmentId);
    return { ok: true, trackingNumber: settled.trackingNumber };
  }
  return pending(explainShippingError("book-shipment", booked.error));
}

/** A booked return label gets its unguessable link (once) and its reverse delivery queued. */
async function afterBooking(ctx: ShippingContext, shipmentId: string): Promise<void> {
  await ensureLabelLink(ctx, shipmentId);
  await queueReturnAttach(ctx);
  // recordBooked made the label's signal due: the "Return label bought" Flow trigger (docs/decisions/043).
  await queueOrderSignals(ctx);
}

/** Return labels booked in one run of the job: a page's selection at most. */
export const MAX_RETURN_LABELS = 100;

/**
 * Booking many return labels at once (the Returns page's selection, after its spend checkpoint): one job per shop
 * books them one by one, each exactly once as bookReturnLabel does, while the page shows them being booked.
 */
export const returnLabelsJob = defineJob({
  name: "return-labels",
  data: z.object({ shop: z.string().min(1), shipmentIds: z.array(z.string().min(1)).max(MAX_RETURN_LABELS) }),
  key: ({ shop }) => shop,
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  expireInSeconds: 15 * 60,
  run: async ({ shop, shipmentIds }, job) => {
    const ctx = await withShipping(job.services.context(shop));
    for (const shipmentId of shipmentIds) {
      const outcome = await bookReturnLabel(ctx, shipmentId);
      if (!outcome.ok) ctx.log.warn({ shipmentId, reason: outcome.reason }, `return label not booked: ${outcome.message}`);
    }
  },
});

/** Queues the booking of the quoted return labels named; resolves once queued. */
export async function startReturnBooking(ctx: Pick<Context, "shop" | "jobs">, shipmentIds: readonly string[]): Promise<void> {
  await ctx.jobs.send(returnLabelsJob, { shop: ctx.shop, shipmentIds: [...shipmentIds].slice(0, MAX_RETURN_LABELS) });
}

/** Quotes each return named (the Returns page's selection); each outcome says what was picked or what to fix, by return name. */
export async function quoteReturnLabels(
  ctx: ShippingContext,
  returnIds: readonly string[],
): Promise<Array<{ returnId: string; name: string; outcome: ReturnQuoteOutcome }>> {
  const names = new Map(
    (await ctx.db.shopReturn.findMany({ where: { shop: ctx.shop, id: { in: [...returnIds] } }, select: { id: true, name: true } })).map((row) => [
      row.id,
      row.name,
    ]),
  );
  const results = [];
  for (const returnId of returnIds.slice(0, MAX_RETURN_LABELS))
    results.push({ returnId, name: names.get(returnId) ?? "A return", outcome: await quoteReturnLabel(ctx, returnId) });
  return results;
}
