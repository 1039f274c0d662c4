import type { Shipment } from "@prisma/client";
import { z } from "zod";
import { A4, FOUR_BY_SIX, LETTER, type PageSize, PdfBuilder } from "../../lib/pdf/page-content";
import { type ShipmentWithQuote, batchMembers, withSelectedQuotes } from "../batches/batch-store.server";
import { batchLabels, batchFileName } from "../booking/batch-booking.server";
import { shipmentLabel } from "../booking/single-booking.server";
import { loadMirroredOrders } from "../orders/mirror.server";
import { type MirroredOrder, giftMessageOf } from "../orders/order-node";
import type { Outcome } from "../outcome";
import { loadServiceNames } from "../quoting/service-names.server";
import { loadSettings } from "../settings/account.server";
import { loadSenderLocations } from "../settings/shop-profile.server";
import { keptShopTimeZone } from "../settings/shop-time-zone.server";
import { formatDate } from "../locale/shop-time";
import type { PackingSlipSize, ShippingSettings } from "../settings/settings";
import type { ShippingContext } from "../shipping/context.server";
import { carrierAndService } from "../shipping/service-names";
import { addLabelWithBoxReturn, bookedLabelPdf, boxReturnLabelsOf } from "./label-pdf.server";
import { type ShipmentLine, shipmentLines } from "../orders/shipment-lines";
import { linesPerBox } from "../quoting/packages";
import { type PackingSlip, addPackingSlipPages } from "./packing-slip";
import { type PickListEntry, renderPickList } from "./pick-list";
import type { PrintChoice } from "./print-choice";

export { PrintChoice } from "./print-choice";

/** A batch's print job (print-choice.ts), one PDF in the batch's order: the order the batch page lists. */
export type PrintJobOutcome = Outcome<{ pdf: Buffer; filename: string }>;

const PAPER: Record<PackingSlipSize, PageSize> = { "4x6": FOUR_BY_SIX, letter: LETTER, a4: A4 };

/** What the stored quote request says about the parcel: who it goes to and how many boxes. */
const StoredRequest = z.object({
  receiver: z.object({
    name: z.string(),
    company: z.string().nullish(),
    address1: z.string(),
    address2: z.string().nullish(),
    city: z.string(),
    state: z.string().nullish(),
    zip: z.string().nullish(),
    country: z.string(),
    phone: z.string().nullish(),
  }),
  pieces: z.array(z.object({})).min(1),
});

export async function batchPrintJob(ctx: ShippingContext, batchId: string, choice: PrintChoice): Promise<PrintJobOutcome> {
  if (choice === "labels") return batchLabelsWithBoxReturns(ctx, batchId);
  const booked = (await batchMembers(ctx, batchId)).filter((shipment) => shipment.bookingStatus === "BOOKED" && shipment.bookNumber);
  if (booked.length === 0) return { ok: false, message: "Packing slips and the pick list print once the batch is booked." };
  const batch = await ctx.db.batch.findFirstOrThrow({ where: { id: batchId, shop: ctx.shop } });
  return printJob(ctx, booked, choice, { title: batch.name, file: batchFileName(batch.name) });
}

/**
 * A batch's combined labels (View Batch Labels). When return labels were booked to go in its boxes
 * (docs/decisions/044) the document is put together here instead, in the batch's order: each order's label, then
 * its return label; should an order's own label not come as a PDF, the service's combined document is given as it is.
 */
async function batchLabelsWithBoxReturns(ctx: ShippingContext, batchId: string): Promise<PrintJobOutcome> {
  const combined = await batchLabels(ctx, batchId);
  if (!combined.ok) return combined;
  const booked = (await batchMembers(ctx, batchId)).filter((shipment) => shipment.bookingStatus === "BOOKED" && shipment.bookNumber);
  const boxReturns = await boxReturnLabelsOf(
    ctx,
    booked.map((shipment) => shipment.id),
  );
  if (boxReturns.size === 0) return combined;
  const batch = await ctx.db.batch.findFirstOrThrow({ where: { id: batchId, shop: ctx.shop } });
  const builder = await PdfBuilder.create({ title: `${batch.name}: labels`, producer: "Consign", created: ctx.now() });
  for (const shipment of booked) {
    const label = await bookedLabelPdf(ctx, shipment, (format) => format);
    if (!label.ok) return combined;
    await addLabelWithBoxReturn(ctx, builder, label.pdf, boxReturns.get(shipment.id));
  }
  return { ok: true, pdf: Buffer.from(await builder.save()), filename: combined.filename };
}

/**
 * One booked shipment's print job, as a single booking offers it: its label as booked (in any format), or its
 * label with its packing slip, its slip alone, or its pick list.
 */
export async function shipmentPrintJob(
  ctx: ShippingContext,
  shipmentId: string,
  choice: PrintChoice,
): Promise<Outcome<{ body: Buffer; contentType: string; filename: string }>> {
  if (choice === "labels") return shipmentLabel(ctx, shipmentId);
  const shipment = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop } });
  if (!shipment) return { ok: false, message: "This shipment is not in this shop." };
  if (shipment.bookingStatus !== "BOOKED" || !shipment.bookNumber) return { ok: false, message: "This shipment has no label yet. Book it first." };
  const [withQuote] = withSelectedQuotes([shipment]);
  const job = await printJob(ctx, [withQuote!], choice, { title: shipment.orderName, file: shipment.orderName.replace(/[^A-Za-z0-9]+/g, "") || "order" });
  return job.ok ? { ok: true, body: job.pdf, contentType: "application/pdf", filename: job.filename } : job;
}

/** Slips, labels with slips, or the pick list of booked shipments, in the given order (a batch's, or the orders a print action was opened on). */
export async function printJob(
  ctx: ShippingContext,
  booked: readonly ShipmentWithQuote[],
  choice: Exclude<PrintChoice, "labels">,
  name: { title: string; file: string },
): Promise<PrintJobOutcome> {
  const orders = new Map((await loadMirroredOrders(ctx, [...new Set(booked.map((shipment) => shipment.orderId))])).map((order) => [order.id, order]));
  const created = ctx.now();
  // Dates as every page writes them: the shop's day, "Nov 27, 2026" (app/locale/shop-time.ts).
  const timeZone = await keptShopTimeZone(ctx);
  const base = name.file;
  if (choice === "pick-list") {
    const entries = booked.flatMap((shipment) =>
      boxLines(shipment, orders.get(shipment.orderId)).all.map((line) => ({ ...line, orderName: shipment.orderName })),
    );
    const locations = new Set(booked.map((shipment) => locationOf(shipment, orders.get(shipment.orderId))));
    // Headed by location only when the batch ships from several; then by the locations' names, read from Shopify.
    const locationNames =
      locations.size > 1 ? new Map((await loadSenderLocations(ctx)).map((location) => [location.id, location.name])) : new Map<string, string>();
    const pickEntries: PickListEntry[] = entries.map((entry) => ({
      sku: entry.sku,
      product: entry.product,
      variant: entry.variant,
      quantity: entry.quantity,
      orderName: entry.orderName,
      location: locations.size > 1 ? (entry.location ? (locationNames.get(entry.location) ?? "Another location") : "No location") : null,
    }));
    const pdf = await renderPickList(LETTER, { title: name.title, printed: formatDate(created, timeZone), entries: pickEntries }, created);
    return { ok: true, pdf: Buffer.from(pdf), filename: `${base}-pick-list.pdf` };
  }

  const settings = await loadSettings(ctx);
  const names = await loadServiceNames(ctx);
  const paper = PAPER[settings.packingSlipSize];
  const builder = await PdfBuilder.create({
    title: `${name.title}: ${choice === "slips" ? "packing slips" : "labels and packing slips"}`,
    producer: "Consign",
    created,
  });
  for (const shipment of booked) {
    if (choice === "labels-and-slips") {
      const label = await bookedLabelPdf(
        ctx,
        shipment,
        (format) => `${shipment.orderName} was booked with a ${format} label; print its labels alone, or book it with PDF labels.`,
      );
      if (!label.ok) return label;
      await builder.addPdf(label.pdf);
    }
    addPackingSlipPages(
      builder,
      paper,
      packingSlip(
        shipment,
        orders.get(shipment.orderId),
        settings,
        carrierAndService(names, shipment.selectedQuote ?? { carrierCode: shipment.carrierCode ?? "", serviceCode: shipment.serviceCode ?? "" }),
        timeZone,
      ),
    );
  }
  return { ok: true, pdf: Buffer.from(await builder.save()), filename: `${base}-${choice}.pdf` };
}

/**
 * The shipment's lines from the mirror, and each box's: its own lines as the merchant put them in the boxes,
 * or (`assigned` false) the whole shipment in every box when the packages do not say which box holds which.
 */
function boxLines(shipment: Shipment, order: MirroredOrder | undefined): { all: ShipmentLine[]; boxes: ShipmentLine[][]; assigned: boolean } {
  const request = StoredRequest.parse(JSON.parse(shipment.request));
  const all = shipmentLines(shipment, order);
  const own = linesPerBox(shipment.packages, request.pieces.length, all);
  return { all, boxes: own ?? request.pieces.map(() => all), assigned: own !== null };
}

function locationOf(shipment: Shipment, order: MirroredOrder | undefined): string | null {
  return order?.fulfillmentOrders.find((fo) => fo.id === shipment.fulfillmentOrderId)?.assignedLocationId ?? null;
}

function packingSlip(shipment: Shipment, order: MirroredOrder | undefined, settings: ShippingSettings, service: string, timeZone: string): PackingSlip {
  const request = StoredRequest.parse(JSON.parse(shipment.request));
  const receiver = request.receiver;
  const sender = settings.sender;
  const boxes = boxLines(shipment, order);
  return {
    shop: {
      name: sender?.company || sender?.name || "",
      address: {
        name: "",
        company: "",
        address1: sender?.address1 ?? "",
        address2: sender?.address2 ?? "",
        city: sender?.city ?? "",
        state: sender?.state ?? "",
        zip: sender?.zip ?? "",
        country: sender?.country ?? "",
      },
    },
    orderName: shipment.orderName,
    orderDate: formatDate(order ? order.createdAt : (shipment.bookedAt ?? shipment.createdAt), timeZone),
    shipTo: {
      name: receiver.name,
      company: receiver.company ?? "",
      address1: receiver.address1,
      address2: receiver.address2 ?? "",
      city: receiver.city,
      state: receiver.state ?? "",
      zip: receiver.zip ?? "",
      country: receiver.country,
      phone: receiver.phone ?? "",
    },
    service,
    boxes: boxes.boxes,
    linesPerBox: boxes.assigned,
    note: order?.note ?? null,
    giftMessage: giftMessageOf(order?.customAttributes ?? []),
  };
}
