import * as z from "zod/mini";

/**
 * What the print actions (extensions/order-print-action, extensions/orders-print-action) offer for the orders
 * they were opened on, as `/api/printable-orders` answers it; and the documents `/api/print/:document` prints.
 * zod/mini, shared by the app and the extensions, as the order-details block's view is.
 */

/** The documents a print action offers. */
export const PrintDocument = z.enum(["labels", "slips", "invoices", "pick-list"]);
export type PrintDocument = z.infer<typeof PrintDocument>;

/** The documents as the Print menu names them. */
export const PRINT_DOCUMENT_NAMES: Record<PrintDocument, string> = {
  labels: "Shipping labels",
  slips: "Packing slips",
  invoices: "Commercial invoices",
  "pick-list": "Pick list",
};

export const PrintableOrder = z.object({
  /** The order's number, as the print route takes it ("1001"). */
  id: z.string(),
  name: z.string(),
  /** The documents Consign can print for it now, in PrintDocument's order. */
  documents: z.array(PrintDocument),
  /** Why it has no shipping label (and so nothing prints), or why it needs no commercial invoice; in the merchant's words. */
  missing: z.array(z.object({ document: PrintDocument, reason: z.string() })),
});
export type PrintableOrder = z.infer<typeof PrintableOrder>;

export const PrintableOrdersView = z.object({ orders: z.array(PrintableOrder) });
export type PrintableOrdersView = z.infer<typeof PrintableOrdersView>;

/** The most orders one print takes: Shopify's order list selects at most 250 at once. */
export const MAX_PRINT_ORDERS = 250;

/** The print route's address for `document` of these orders (their numbers), relative to the app's URL. */
export function printPath(document: PrintDocument, orderIds: readonly string[]): string {
  return `/api/print/${document}?${new URLSearchParams({ orders: orderIds.join(",") }).toString()}`;
}
