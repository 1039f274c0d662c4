import type { Batch, Shipment } from "@prisma/client";
import { BookShipmentRequest, type CommercialInvoice, type LabelImageFormat, type Service } from "../../shipping-api/contract";
import { crashPoint } from "../crash-points.server";
import type { Outcome } from "../outcome";
import { batchGuard } from "../batches/batch-store.server";
import type { ShippingContext } from "../shipping/context.server";
import type { BatchGuard } from "../batches/eligibility";
import { explainShippingError, outcomeUnknown } from "../shipping/errors";
import { sumAmounts } from "../shipping/money";
import { clientFailure, describeQuoteFailure } from "../shipping/quote-failure";
import { rateOf, type Rate } from "../quoting/rate-fields";
import { loadSettings, recordPrepayBalance } from "../settings/account.server";
import { chargeOf } from "../shipping/scan-charge";
import { describeIssues, inMerchantWords, type FieldErrors } from "../field-errors";
import { shopifyGid } from "../shopify/gid";
import { bookingFieldNames, buildBookRequest, surchargesInWords, optionsQuoteRequest, storedRequest, type BookingForm } from "./book-request";
import { currentPackages, packingFacts, type PackageChoice, type PackingFacts } from "../quoting/packages";
import { loadShipmentLines } from "../orders/shipment-lines.server";
import { NO_NAMES, serviceNamesOf, type ServiceNames } from "../shipping/service-names";
import { afterBooked, bookedFieldsOf, recordBooked } from "./record-booked.server";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import { bookedRates, storedQuote, storedQuotes } from "../shipping/stored-rates";

/**
 * Booking one order's shipment on its own (Book Shipment), from the order's page. The intent is recorded
 * first (the shipment BOOKING, with its id sent as shipmentReference2); a booking whose answer was lost is
 * looked up with Search Shipments by that reference before anything is booked again.
 */

/**
 * A BOOKING intent younger than this may still have its call in flight (the client waits 30 s), so an
 * empty search does not yet prove the booking never happened.
 */
export const IN_FLIGHT_GRACE_MS = 2 * 60 * 1000;

export class OrderNotFoundError extends Error {
  override name = "OrderNotFoundError";
  constructor(readonly orderId: string) {
    super(`Consign has no rates for order ${orderId}. Get rates for it first.`);
  }
}

/** A quoted rate the merchant may book with, and what its service offers. */
export interface RateChoice extends Rate {
  signatureOptions: Array<{ code: string; label: string }>;
  saturdayDelivery: boolean;
}

export interface ShipmentBooking {
  shipmentId: string;
  fulfillmentOrderId: string;
  destination: string;
  international: boolean;
  bookingStatus: string;
  bookingError: string | null;
  booked: {
    bookNumber: string;
    trackingNumber: string;
    /** Every box's number (see Shipment.trackingNumbers). */
    trackingNumbers: string[];
    carrierCode: string | null;
    serviceCode: string | null;
    shippingCost: string | null;
    currency: string | null;
    bookedAt: string | null;
  } | null;
  /** Why it cannot be booked here (in a batch, booked through another rate run…); null when it can. */
  blocked: string | null;
  rates: RateChoice[];
  selectedQuoteId: number | null;
  defaults: { signatureOptionCode: string | null; insuranceAmount: string | null; labelFormat: LabelImageFormat };
  invoice: CommercialInvoice | null;
  returnTo: string | null;
  /** The packages it ships in (a box and a weight each), which the merchant can change before booking. */
  packages: PackageChoice[];
  /** Its items that go in the parcel and the packaging every box adds: what the packages editor puts in each box. */
  packing: PackingFacts;
  weightUnit: string;
}

export interface OrderBookingView {
  orderId: string;
  orderNumber: string;
  orderName: string;
  shipments: ShipmentBooking[];
  /** The shop's box names, for changing a shipment's packages. */
  boxes: string[];
  /** Carrier and service names from the List Services answer read here. */
  names: ServiceNames;
}

/** The order's latest shipment per fulfillment order, with what the booking form needs. Settles pending bookings first. */
export async function loadOrderBooking(ctx: ShippingContext, orderNumericId: string): Promise<OrderBookingView> {
  const orderId = shopifyGid("Order", orderNumericId);
  const read = () =>
    ctx.db.shipment.findMany({
      where: { shop: ctx.shop, orderId, kind: "OUTBOUND" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      include: { batch: true },
    });
  let rows = await read();
  if (rows.length === 0) throw new OrderNotFoundError(orderNumericId);
  const pending = rows.filter((entry) => entry.bookingStatus === "BOOKING");
  for (const row of pending) await settleShipment(ctx, row);
  // Settling rewrote the rows it settled.
  if (pending.length > 0) rows = await read();
  // One line per fulfillment order: a booked shipment if there is one, else the newest.
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const current = latest.get(row.fulfillmentOrderId);
    if (!current || (row.bookingStatus === "BOOKED" && current.bookingStatus !== "BOOKED")) latest.set(row.fulfillmentOrderId, row);
  }
  const [settings, services, guard, linesOf] = await Promise.all([
    loadSettings(ctx),
    ctx.client.listServices(),
    batchGuard(ctx, [...latest.keys()]),
    loadShipmentLines(ctx, [...latest.values()]),
  ]);
  const serviceByCode = new Map<string, Service>(services.ok ? services.value.services.map((service) => [service.serviceCode, service]) : []);
  const returnTo = settings.returnAddress
    ? [settings.returnAddress.name, settings.returnAddress.city, settings.returnAddress.country].filter(Boolean).join(", ")
    : null;

  const shipments = [...latest.values()].map((row): ShipmentBooking => {
    const request = storedRequest(row.request);
    const international = request ? request.sender.country !== request.receiver.country : false;
    const rates = storedQuotes(row)
      .map((quote): RateChoice => {
        const service = serviceByCode.get(quote.serviceCode);
        return {
          ...rateOf(quote),
          signatureOptions: service?.signatureOptions.map((option) => ({ code: option.signatureOptionCode, label: option.signatureOptionLabel })) ?? [],
          saturdayDelivery: service?.saturdayDelivery === true,
        };
      })
      .sort((a, b) => Number(a.totalAmount) - Number(b.totalAmount));
    return {
      shipmentId: row.id,
      fulfillmentOrderId: row.fulfillmentOrderId,
      destination: request ? [request.receiver.city, request.receiver.country].join(", ") : "",
      international,
      bookingStatus: row.bookingStatus,
      bookingError: row.bookingError,
      booked:
        row.bookingStatus === "BOOKED" && row.bookNumber
          ? {
              bookNumber: row.bookNumber,
              trackingNumber: row.trackingNumber ?? "",
              trackingNumbers: trackingNumbersOf(row),
              carrierCode: row.carrierCode,
              serviceCode: row.serviceCode,
              shippingCost: row.shippingCost,
              currency: row.currency,
              bookedAt: row.bookedAt?.toISOString() ?? null,
            }
          : null,
      blocked: bookingBlocker(row, guard, request !== null, rates.length),
      rates,
      selectedQuoteId: row.selectedQuoteId,
      defaults: {
        signatureOptionCode: request?.signatureOptionCode ?? settings.signatureOptionCode,
        insuranceAmount: request?.pieces[0]?.insuranceAmount ?? null,
        labelFormat: settings.labelFormat,
      },
      invoice: international ? (request?.commercialInvoice ?? null) : null,
      returnTo,
      packages: request ? currentPackages(row.packages, request, settings.defaultBox) : [],
      packing: packingFacts(linesOf.get(row.id) ?? [], settings.packagingWeight),
      weightUnit: request?.weightUnit ?? "",
    };
  });
  return {
    orderId,
    orderNumber: orderNumericId,
    orderName: rows[0]!.orderName,
    shipments,
    boxes: settings.boxes.map((box) => box.name),
    names: services.ok ? serviceNamesOf(services.value.services) : NO_NAMES,
  };
}

/** What the chosen service costs with the chosen options, before booking (Batch Quote narrowed to it), or why it cannot be priced. */
export type OptionsPrice = Outcome<{
  total: string;
  base: string;
  currency: string;
  surcharges: Array<{ description: string; amount: string }>;
  quotedTotal: string;
}>;

/**
 * Prices the chosen service with the chosen signature and insurance, so the page shows what booking will
 * charge before anything is spent: the quote on file was made without them.
 */
export async function priceBookingOptions(
  ctx: ShippingContext,
  form: Pick<BookingForm, "shipmentId" | "quoteId" | "signatureOptionCode" | "insuranceAmount">,
): Promise<OptionsPrice> {
  const unavailable = (message: string): OptionsPrice => ({ ok: false, message });
  const shipment = await ctx.db.shipment.findFirst({
    where: { id: form.shipmentId, shop: ctx.shop },
    select: { id: true, request: true, rates: true, quotedAt: true },
  });
  const request = shipment ? storedRequest(shipment.request) : null;
  if (!shipment || !request) return unavailable("This order's stored details are out of date. Get rates for the order again.");
  const quote = storedQuote(shipment, form.quoteId);
  if (!quote) return unavailable("That service is not among this order's rates. Choose one of the listed services.");

  const [outcome] = await ctx.client.quoteShipments([optionsQuoteRequest(request, quote, form)]);
  if (!outcome) return unavailable("The Shipping API did not answer. Try again in a minute.");
  if (outcome.status !== "success") {
    const failure = outcome.status === "failed" ? clientFailure(outcome.error) : { category: outcome.errorCategory, message: outcome.error };
    return unavailable(describeQuoteFailure(failure));
  }
  const priced = outcome.quotes.find(
    (entry) => entry.carrierCode === quote.carrierCode && entry.serviceCode === quote.serviceCode && entry.packageTypeCode === quote.packageTypeCode,
  );
  if (!priced)
    return unavailable(
      `The Shipping API cannot price these options for this service${outcome.quoteErrors[0] ? ` (${outcome.quoteErrors[0].error.replace(/\.$/, "")})` : ""}. Choose other options or another service.`,
    );
  return {
    ok: true,
    total: priced.totalAmount,
    base: priced.baseAmount,
    currency: priced.currency,
    surcharges: surchargesInWords(priced.surcharges, form.insuranceAmount, priced.currency),
    quotedTotal: quote.totalAmount,
  };
}

function bookingBlocker(
  row: Shipment & { batch: { name: string; status: string } | null },
  guard: BatchGuard,
  requestOk: boolean,
  rates: number,
): string | null {
  if (row.bookingStatus === "BOOKED") return null;
  if (row.bookingStatus === "BOOKING") return "A booking of this shipment is not confirmed yet. Reload this page in a minute.";
  const labelled = guard.labelled.get(row.fulfillmentOrderId);
  if (labelled?.bookingStatus === "BOOKED")
    return `These items already have a label${labelled.trackingNumber ? ` (tracking ${labelled.trackingNumber})` : ""}.`;
  if (labelled) return "A booking of these items is not confirmed yet. Reload this page in a minute.";
  const batched = guard.batched.get(row.fulfillmentOrderId);
  if (batched) return `These items are in batch “${batched.batchName}”. Book them with the batch, or remove them from it to book them here.`;
  if (!requestOk) return "Its stored details are out of date. Get rates for the order again.";
  if (rates === 0) return "It has no rates. Get rates for the order first.";
  return null;
}

/**
 * Booked, or not: `refused` when the merchant must change something first (with the form's problems on their
 * fields when the details cannot be booked), `pending` while a booking's outcome is not known yet.
 */
export type SingleBookingOutcome = Outcome<
  { bookNumber: string; trackingNumber: string; prepayBalance: string | null; label: { format: LabelImageFormat; base64: string } | null },
  { reason: "refused"; fieldErrors?: FieldErrors } | { reason: "pending" }
>;

/** Books one shipment with the chosen rate and options; never books it twice (see the module comment). */
export async function bookSingleShipment(ctx: ShippingContext, form: BookingForm): Promise<SingleBookingOutcome> {
  const refuse = (message: string, errors?: FieldErrors): SingleBookingOutcome => ({
    ok: false,
    reason: "refused",
    message,
    ...(errors ? { fieldErrors: errors } : {}),
  });
  const pending = (message: string): SingleBookingOutcome => ({ ok: false, reason: "pending", message });
  let shipment = await ctx.db.shipment.findFirst({ where: { id: form.shipmentId, shop: ctx.shop }, include: { batch: true } });
  if (!shipment) return refuse("This shipment is not in this shop any more. Reload the page.");
  if (shipment.bookingStatus === "BOOKING") {
    const settled = await settleShipment(ctx, shipment);
    if (settled.status !== "released")
      return settled.status === "booked" ? refuse(`Already booked (tracking ${settled.trackingNumber}).`) : pending(settled.message);
    shipment = (await ctx.db.shipment.findFirst({ where: { id: form.shipmentId, shop: ctx.shop }, include: { batch: true } }))!;
  }
  if (shipment.bookingStatus === "BOOKED") return refuse(`Already booked (tracking ${shipment.trackingNumber ?? "unknown"}).`);
  const request = storedRequest(shipment.request);
  const blocker = bookingBlocker(shipment, await batchGuard(ctx, [shipment.fulfillmentOrderId]), request !== null, 1);
  if (blocker || !request) return refuse(blocker ?? "Its stored details are out of date. Get rates for the order again.");
  const quote = storedQuote(shipment, form.quoteId);
  if (!quote)
    return refuse("That service is not among this order's rates. Choose one of the listed services.", { quoteId: "Choose one of the listed services." });

  const settings = await loadSettings(ctx);
  const body = BookShipmentRequest.safeParse(
    buildBookRequest(
      request,
      quote,
      form,
      { returnTo: settings.returnAddress, providerAccountId: settings.providerAccountId },
      { shipmentId: shipment.id, orderName: shipment.orderName },
    ),
    { error: inMerchantWords },
  );
  if (!body.success) {
    const refused = describeIssues(
      body.error.issues.map((issue) => ({ ...issue, path: formPath(issue.path) })),
      bookingFieldNames(form.items ?? request.commercialInvoice?.items ?? []),
    );
    return refuse(`Some details cannot be booked: ${refused.message}. Correct them and book again.`, refused.fieldErrors);
  }

  if (!(await claimSingleBooking(ctx, shipment.id))) return pending("This shipment is being booked already. Reload this page in a minute.");

  crashPoint("booking:before-call");
  const booked = await ctx.client.bookShipment({ body: body.data });
  crashPoint("booking:after-call");
  if (booked.ok) {
    const pieceCosts = booked.value.pieces?.map((piece) => piece.shippingCost);
    await recordBooked(ctx, shipment.id, bookedFieldsOf(booked.value, quote, null));
    await afterBooked(ctx);
    await recordPrepayBalance(ctx, booked.value.prepayBalance);
    // The answer has no total; the booked record has it. A failed look-up only leaves the cost blank.
    await fillCost(ctx, shipment.id, booked.value.bookNumber, pieceCosts);
    const label = booked.value.labelImage && booked.value.labelImageFormat ? { format: booked.value.labelImageFormat, base64: booked.value.labelImage } : null;
    return {
      ok: true,
      bookNumber: booked.value.bookNumber,
      trackingNumber: booked.value.trackingNumber,
      prepayBalance: booked.value.prepayBalance,
      label,
    };
  }
  if (!outcomeUnknown(booked.error)) {
    const message = explainShippingError("book-shipment", booked.error);
    await ctx.db.shipment.updateMany({ where: { id: shipment.id, bookingStatus: "BOOKING" }, data: { bookingStatus: "FAILED", bookingError: message } });
    return refuse(message);
  }
  const settled = await reconcileSingleBooking(ctx, { ...shipment, bookingStatus: "BOOKING", updatedAt: ctx.now() });
  if (settled.status === "booked") {
    return { ok: true, bookNumber: settled.bookNumber, trackingNumber: settled.trackingNumber, prepayBalance: null, label: null };
  }
  return pending(explainShippingError("book-shipment", booked.error));
}

/**
 * Records a booking's intent (BOOKING, dated now: the in-flight grace counts from it), conditional on the shipment
 * not being booked or booking: of two clicks (or a click and a job), one books. Answers whether this caller claimed it.
 */
export async function claimSingleBooking(ctx: Pick<ShippingContext, "db" | "shop" | "now">, shipmentId: string): Promise<boolean> {
  const claimed = await ctx.db.shipment.updateMany({
    where: { id: shipmentId, shop: ctx.shop, bookingStatus: { in: ["NONE", "FAILED"] } },
    data: { bookingStatus: "BOOKING", bookingError: null, updatedAt: ctx.now() },
  });
  return claimed.count === 1;
}

/** Zod paths of the request → the form's field names, where the merchant can fix them. */
function formPath(path: ReadonlyArray<PropertyKey>): PropertyKey[] {
  const [head, index, field] = path;
  if (head === "commercialInvoice" && index === "items") return ["items", ...path.slice(2)];
  if (head === "commercialInvoice" && index === "termsOfTrade") return ["termsOfTrade"];
  if (head === "pieces" && field === "insuranceAmount") return ["insuranceAmount"];
  return [...path];
}

async function fillCost(ctx: ShippingContext, shipmentId: string, bookNumber: string, pieceCosts: string[] | undefined): Promise<void> {
  const found = await ctx.client.searchShipments({ body: { keyword: bookNumber } });
  const record = found.ok ? found.value.shipments.find((entry) => entry.bookNumber === bookNumber) : undefined;
  const cost = record?.totalShippingCost ?? (pieceCosts && pieceCosts.length > 0 ? sumAmounts(pieceCosts) : null);
  if (cost) await ctx.db.shipment.update({ where: { id: shipmentId }, data: { shippingCost: cost } });
}

export type ReconcileSingle =
  { status: "booked"; bookNumber: string; trackingNumber: string } | { status: "released" } | { status: "unconfirmed"; message: string };

/**
 * A BOOKING shipment is settled by whoever booked it: a member of a batch being booked by its batch's job
 * (here it only shows so: the job, sent by the booking and again at start-up, reads Get Batch back);
 * otherwise as a single booking (Search Shipments by its reference).
 */
async function settleShipment(ctx: ShippingContext, shipment: Shipment & { batch: Batch | null }): Promise<ReconcileSingle> {
  if (shipment.batch?.status !== "BOOKING") return reconcileSingleBooking(ctx, shipment);
  return { status: "unconfirmed", message: `It is being booked with batch “${shipment.batch.name}”. Reload this page in a minute.` };
}

/**
 * A shipment found BOOKING: Search Shipments (keyword: the order name) for a booking carrying its id as
 * shipperReference2. Found → recorded BOOKED. Not found → released for booking, once the call cannot be in
 * flight any more (`IN_FLIGHT_GRACE_MS` after the intent).
 */
export async function reconcileSingleBooking(
  ctx: ShippingContext,
  shipment: Pick<Shipment, "id" | "orderName" | "updatedAt" | "bookingStatus" | "rates" | "quotedAt">,
): Promise<ReconcileSingle> {
  const found = await ctx.client.searchShipments({ body: { keyword: shipment.orderName } });
  if (!found.ok) return { status: "unconfirmed", message: `A booking of this shipment is not confirmed yet. ${explainShippingError("search", found.error)}` };
  const record = found.value.shipments.find((entry) => entry.shipperReference2 === shipment.id && !entry.voided);
  if (record) {
    const quote = storedQuotes(shipment).find((rate) => rate.carrierCode === record.carrierCode && rate.serviceCode === record.serviceCode);
    await recordBooked(ctx, shipment.id, {
      bookNumber: record.bookNumber,
      trackingNumber: record.trackingNumber,
      trackingNumbers: record.trackingNumbers,
      carrierCode: record.carrierCode,
      serviceCode: record.serviceCode,
      currency: record.currency,
      zone: quote?.zone ?? null,
      ...(quote ? { selectedQuoteId: quote.quoteId, rates: bookedRates(quote) } : {}),
      // A scan-based return label read back costs nothing until it is scanned, as when its answer arrives (decision 040).
      ...chargeOf(record),
    });
    await afterBooked(ctx);
    return { status: "booked", bookNumber: record.bookNumber, trackingNumber: record.trackingNumber };
  }
  if (ctx.now().getTime() - shipment.updatedAt.getTime() < IN_FLIGHT_GRACE_MS) {
    return {
      status: "unconfirmed",
      message: "The Shipping API has not confirmed this booking yet. Reload this page in a minute; Consign checks before booking again.",
    };
  }
  await ctx.db.shipment.updateMany({ where: { id: shipment.id, bookingStatus: "BOOKING" }, data: { bookingStatus: "NONE" } });
  return { status: "released" };
}

const LABEL_TYPES: Record<LabelImageFormat, { contentType: string; extension: string }> = {
  PDF: { contentType: "application/pdf", extension: "pdf" },
  PNG: { contentType: "image/png", extension: "png" },
  ZPL: { contentType: "text/plain; charset=utf-8", extension: "zpl" },
  EPL2: { contentType: "text/plain; charset=utf-8", extension: "epl" },
};

/** The label of a booked shipment (single or batch booked), redrawn by the service in the format it was booked with. */
export async function shipmentLabel(ctx: ShippingContext, shipmentId: string): Promise<Outcome<{ body: Buffer; contentType: string; filename: string }>> {
  const shipment = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop } });
  if (!shipment) return { ok: false, message: "This shipment is not in this shop." };
  if (shipment.bookingStatus !== "BOOKED" || !shipment.bookNumber) return { ok: false, message: "This shipment has no label yet. Book it first." };
  const label = await ctx.client.getShipmentLabel({ bookNumber: shipment.bookNumber });
  if (!label.ok) return { ok: false, message: explainShippingError("shipment-label", label.error) };
  const type = LABEL_TYPES[label.value.labelImageFormat];
  const name = `${shipment.orderName.replace(/[^A-Za-z0-9]+/g, "")}-${shipment.trackingNumber ?? shipment.bookNumber}`;
  return { ok: true, body: Buffer.from(label.value.labelImage, "base64"), contentType: type.contentType, filename: `${name}.${type.extension}` };
}
