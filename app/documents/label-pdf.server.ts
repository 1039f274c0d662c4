import type { Shipment } from "@prisma/client";
import type { PdfBuilder } from "../../lib/pdf/page-content";
import type { Outcome } from "../outcome";
import type { ShippingContext } from "../shipping/context.server";
import { explainShippingError } from "../shipping/errors";
import { pieceCountOf } from "../shipping/tracking-numbers";

/**
 * A booked shipment's label document as a PDF (Get Shipment Label), for print jobs that put pages of it
 * beside the app's own: refused in `notPdf`'s words when the shipment was booked with a thermal or image label.
 */
export async function bookedLabelPdf(
  ctx: ShippingContext,
  shipment: Pick<Shipment, "bookNumber" | "orderName">,
  notPdf: (format: string) => string,
): Promise<Outcome<{ pdf: Buffer }>> {
  if (!shipment.bookNumber) return { ok: false, message: `${shipment.orderName} has no label yet. Book it first.` };
  const label = await ctx.client.getShipmentLabel({ bookNumber: shipment.bookNumber });
  if (!label.ok) return { ok: false, message: `${shipment.orderName}: ${explainShippingError("shipment-label", label.error)}` };
  if (label.value.labelImageFormat !== "PDF") return { ok: false, message: notPdf(label.value.labelImageFormat) };
  return { ok: true, pdf: Buffer.from(label.value.labelImage, "base64") };
}

/**
 * Which pages of a shipment's label document are its commercial invoice: the service draws the first box's
 * label, then the invoice, then the other boxes' labels (docs/decisions/014, 022), so of `pageCount` pages the
 * invoice is what follows the first page and is not one of the shipment's `pieces` labels.
 */
export function invoicePages(shipment: Pick<Shipment, "request">): (pageCount: number) => number[] {
  const pieces = pieceCountOf(shipment.request);
  return (pageCount) => Array.from({ length: Math.max(0, pageCount - pieces) }, (_, index) => index + 1);
}

/**
 * The return labels booked to go in these outbound shipments' boxes (docs/decisions/044), by the outbound
 * shipment's id; a voided one is left out.
 */
export async function boxReturnLabelsOf(ctx: Pick<ShippingContext, "db" | "shop">, outboundIds: readonly string[]): Promise<Map<string, Shipment>> {
  if (outboundIds.length === 0) return new Map();
  const rows = await ctx.db.shipment.findMany({
    where: { shop: ctx.shop, kind: "RETURN", inBoxOf: { in: [...outboundIds] }, bookingStatus: "BOOKED", bookNumber: { not: null } },
  });
  return new Map(rows.filter((row) => row.trackingStopReason !== "VOIDED").map((row) => [row.inBoxOf!, row]));
}

/**
 * Adds a shipment's label pages (`outbound`, fetched already) and then the return label going in its box, if
 * any: a return label that cannot be fetched is left out rather than holding up the outbound one.
 */
export async function addLabelWithBoxReturn(ctx: ShippingContext, builder: PdfBuilder, outbound: Buffer, boxReturn: Shipment | undefined): Promise<void> {
  await builder.addPdf(outbound);
  if (!boxReturn) return;
  const label = await bookedLabelPdf(ctx, boxReturn, () => "");
  if (label.ok) await builder.addPdf(label.pdf);
  else ctx.log.warn({ shipmentId: boxReturn.id }, `return label in the box left out of the labels: ${label.message}`);
}
