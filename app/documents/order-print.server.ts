import type { Shipment } from "@prisma/client";
import { z } from "zod";
import { PdfBuilder } from "../../lib/pdf/page-content";
import { withSelectedQuotes } from "../batches/batch-store.server";
import type { Context } from "../context";
import { loadMirroredOrders } from "../orders/mirror.server";
import { orderNumbersQuery } from "../orders/selection";
import type { Outcome } from "../outcome";
import type { ShippingContext } from "../shipping/context.server";
import { orderNumber, shopifyGid } from "../shopify/gid";
import { addLabelWithBoxReturn, bookedLabelPdf, boxReturnLabelsOf, invoicePages } from "./label-pdf.server";
import { MAX_PRINT_ORDERS, PRINT_DOCUMENT_NAMES, PrintDocument, type PrintableOrder, type PrintableOrdersView } from "./print-actions-view";
import { printJob } from "./print-job.server";

/**
 * What Shopify's Print menu prints through Consign's print actions (extensions/order-print-action on an order,
 * extensions/orders-print-action on a selection): the orders' shipping labels, packing slips, commercial
 * invoices or pick list, from the shipments Consign booked for them, in the order the admin gave the orders.
 * An order the shop has neither mirrored nor shipped is not found, as for the order-details block.
 */

/** Why nothing printed: an order not the shop's (`not-found`), one without the document (`nothing-to-print`), a Shipping API failure. */
export type OrderPrintOutcome = Outcome<{ pdf: Buffer; filename: string }, { reason: "not-found" | "nothing-to-print" | "failed" }>;
export type PrintableOrdersOutcome = Outcome<{ view: PrintableOrdersView }, { reason: "not-found" }>;

/** The print routes' `?orders=1001,1002`: one to {@link MAX_PRINT_ORDERS} numeric order ids, each once, in the order given. */
export const PrintOrdersQuery = orderNumbersQuery(MAX_PRINT_ORDERS);

/** Enough of the stored quote request to tell an international parcel (it travels with a commercial invoice). */
const StoredRoute = z.object({ sender: z.object({ country: z.string() }), receiver: z.object({ country: z.string() }) });

function crossesBorder(shipment: Pick<Shipment, "request">): boolean {
  const route = StoredRoute.safeParse(JSON.parse(shipment.request));
  return route.success && route.data.sender.country !== route.data.receiver.country;
}

interface OrderShipments {
  id: string;
  name: string;
  booked: Shipment[];
  /** Shipments of the order Consign has started but not booked (booking, failed, quoted). */
  others: Shipment[];
}

/** The orders (their numbers) with their shipments, in the order given; the numbers Consign does not know for the shop. */
async function ordersOfShop(ctx: Pick<Context, "db" | "shop">, numbers: readonly string[]): Promise<{ orders: OrderShipments[]; unknown: string[] }> {
  const ids = numbers.map((number) => shopifyGid("Order", number));
  const [rows, mirrored] = await Promise.all([
    ctx.db.shipment.findMany({ where: { shop: ctx.shop, kind: "OUTBOUND", orderId: { in: ids } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    loadMirroredOrders(ctx, ids),
  ]);
  const names = new Map(mirrored.map((order) => [order.id, order.name]));
  const orders: OrderShipments[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    const own = rows.filter((row) => row.orderId === id);
    const name = names.get(id) ?? own[0]?.orderName;
    if (name === undefined) {
      unknown.push(orderNumber(id));
      continue;
    }
    const booked = own.filter((row) => row.bookingStatus === "BOOKED" && row.bookNumber);
    orders.push({ id: orderNumber(id), name, booked, others: own.filter((row) => !booked.includes(row)) });
  }
  return { orders, unknown };
}

function notFound(shop: string, unknown: readonly string[]): { ok: false; reason: "not-found"; message: string } {
  const which = unknown.length === 1 ? `order ${unknown[0]}` : `orders ${unknown.join(", ")}`;
  return {
    ok: false,
    reason: "not-found",
    message: `Consign has not seen ${which} of ${shop}. Open Consign once so it reads your orders, then print again.`,
  };
}

/** Why an order without a booked label prints nothing, from what Consign did with it so far. */
function unbookedReason(order: OrderShipments): string {
  if (order.others.some((row) => row.bookingStatus === "BOOKING")) return "Its label is being booked. Print again in a minute.";
  const failed = order.others.find((row) => row.bookingStatus === "FAILED");
  if (failed) return `Booking its label failed${failed.bookingError ? ` (${failed.bookingError})` : ""}. Book it again in Consign, then print.`;
  if (order.others.some((row) => row.quoteStatus === "QUOTED")) return "It has rates but no label yet. Book its label in Consign, then print.";
  return "Consign has no shipping label for it yet. Select it and choose Create shipping labels, then print.";
}

function printable(order: OrderShipments): PrintableOrder {
  if (order.booked.length === 0) {
    const reason = unbookedReason(order);
    return { id: order.id, name: order.name, documents: [], missing: PrintDocument.options.map((document) => ({ document, reason })) };
  }
  const international = order.booked.some(crossesBorder);
  return {
    id: order.id,
    name: order.name,
    documents: PrintDocument.options.filter((document) => document !== "invoices" || international),
    missing: international ? [] : [{ document: "invoices", reason: "It ships within the country, so it needs no commercial invoice." }],
  };
}

/** For each order (its number), what Consign can print for it now and why not the rest. */
export async function printableOrders(ctx: Pick<Context, "db" | "shop">, numbers: readonly string[]): Promise<PrintableOrdersOutcome> {
  const { orders, unknown } = await ordersOfShop(ctx, numbers);
  if (unknown.length > 0) return notFound(ctx.shop, unknown);
  return { ok: true, view: { orders: orders.map(printable) } };
}

/** `#1001` → `1001`; several orders: `orders-1001-1003` (first and last). */
function fileBase(orders: readonly OrderShipments[]): string {
  const plain = (order: OrderShipments) => order.name.replace(/[^A-Za-z0-9]+/g, "") || order.id;
  return orders.length === 1 ? plain(orders[0]!) : `orders-${plain(orders[0]!)}-${plain(orders.at(-1)!)}`;
}

/**
 * One PDF of `document` for the orders (their numbers), in their order: every booked shipment's label document
 * (each international label with its commercial invoice, as booked), the invoices alone, the packing slips, or
 * the pick list of everything in them. Every order must have the document: the print action offers it only then.
 */
export async function printOrders(ctx: ShippingContext, document: PrintDocument, numbers: readonly string[]): Promise<OrderPrintOutcome> {
  const { orders, unknown } = await ordersOfShop(ctx, numbers);
  if (unknown.length > 0) return notFound(ctx.shop, unknown);
  const without = orders.map(printable).filter((order) => !order.documents.includes(document));
  if (without.length > 0) {
    const first = without[0]!;
    const reason = first.missing.find((missing) => missing.document === document)?.reason ?? "";
    return {
      ok: false,
      reason: "nothing-to-print",
      message: `${PRINT_DOCUMENT_NAMES[document]} cannot print for ${without.map((order) => order.name).join(", ")}: ${reason}`,
    };
  }
  const shipments = orders.flatMap((order) => order.booked);
  const base = fileBase(orders);
  const title = orders.length === 1 ? orders[0]!.name : `${orders.length} orders`;

  if (document === "slips" || document === "pick-list") {
    const job = await printJob(ctx, withSelectedQuotes(shipments), document, { title, file: base });
    return job.ok ? job : { ...job, reason: "failed" };
  }

  const builder = await PdfBuilder.create({ title: `${title}: ${PRINT_DOCUMENT_NAMES[document].toLowerCase()}`, producer: "Consign", created: ctx.now() });
  // Each label is followed by the return label going in its box, if one was booked (docs/decisions/044).
  const boxReturns =
    document === "labels"
      ? await boxReturnLabelsOf(
          ctx,
          shipments.map((shipment) => shipment.id),
        )
      : new Map<string, Shipment>();
  for (const shipment of document === "invoices" ? shipments.filter(crossesBorder) : shipments) {
    const label = await bookedLabelPdf(
      ctx,
      shipment,
      (format) =>
        `${shipment.orderName} was booked with a ${format} label, which prints on a label printer: download it from the order's booking page in Consign.`,
    );
    if (!label.ok) return { ...label, reason: "failed" };
    if (document === "invoices") await builder.addPdf(label.pdf, invoicePages(shipment));
    else await addLabelWithBoxReturn(ctx, builder, label.pdf, boxReturns.get(shipment.id));
  }
  return { ok: true, pdf: Buffer.from(await builder.save()), filename: `${base}-${document}.pdf` };
}
