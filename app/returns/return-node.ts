import { z } from "zod";
import { toOrderAddress } from "../orders/order-node";
import type { OrderAddress } from "../orders/types";
import type { ShopifyWeightUnit } from "../orders/weights";
import type { ReturnNode } from "./return-documents";

/**
 * A return as Shopify answers it → what Consign keeps of it (ShopReturn), pure. Its lines name the items, how
 * many are coming back, why (the reason's name and the customer's words) and what they weigh; its open reverse
 * fulfillment order is what a label is attached to.
 */

/** Shopify's ReturnStatus. */
export const ReturnStatus = z.enum(["REQUESTED", "OPEN", "DECLINED", "CANCELED", "CLOSED"]);
export type ReturnStatus = z.infer<typeof ReturnStatus>;

export const ReturnLine = z.object({
  id: z.string(),
  /** The fulfilled line it returns (FulfillmentLineItem GID): how a reverse fulfillment order's line names it. */
  fulfillmentLineItemId: z.string().nullable(),
  /**
   * The fulfillment (GID) the item shipped in, i.e. the parcel it was in: a label in that parcel's box fits the return
   * when every line's is the same (docs/decisions/044). Absent on returns stored before it was read.
   */
  fulfillmentId: z.string().nullable().optional(),
  title: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  /** The weight of all `quantity` items, as Shopify gives it; null when the product has none. */
  weight: z.object({ unit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]), value: z.number() }).nullable(),
});
export type ReturnLine = z.infer<typeof ReturnLine> & { weight: { unit: ShopifyWeightUnit; value: number } | null };

export const ReverseLine = z.object({ id: z.string(), fulfillmentLineItemId: z.string().nullable(), quantity: z.number().int() });
export type ReverseLine = z.infer<typeof ReverseLine>;

/** What ShopReturn stores of a return read at `readAt`. */
export interface ReturnRecord {
  id: string;
  orderId: string;
  orderName: string;
  name: string;
  status: ReturnStatus;
  customerName: string | null;
  lines: ReturnLine[];
  customerAddress: OrderAddress | null;
  customerNote: string | null;
  reverseFulfillmentOrderId: string | null;
  reverseLines: ReverseLine[];
  /** Reverse deliveries Shopify already has on the open reverse fulfillment order, with their tracking numbers. */
  reverseDeliveries: Array<{ id: string; trackingNumber: string | null }>;
  returnCreatedAt: Date;
  requestApprovedAt: Date | null;
  closedAt: Date | null;
}

const productTitle = (line: { title: string; variantTitle: string | null }) =>
  line.variantTitle && line.variantTitle !== "Default Title" ? `${line.title} - ${line.variantTitle}` : line.title;

export function toReturnRecord(node: ReturnNode): ReturnRecord {
  const address = node.order.shippingAddress;
  const customerAddress = address ? toOrderAddress(address) : null;
  const open = node.reverseFulfillmentOrders.nodes.find((order) => order.status === "OPEN") ?? null;
  const shippedIn = new Map(node.order.fulfillments.flatMap((fulfillment) => fulfillment.fulfillmentLineItems.nodes.map((line) => [line.id, fulfillment.id])));
  const notes = node.returnLineItems.nodes.map((line) => line.customerNote?.trim()).filter((note): note is string => Boolean(note));
  return {
    id: node.id,
    orderId: node.order.id,
    orderName: node.order.name,
    name: node.name,
    status: ReturnStatus.catch("OPEN").parse(node.status),
    customerName: address ? address.name?.trim() || [address.firstName, address.lastName].filter(Boolean).join(" ").trim() || null : null,
    lines: node.returnLineItems.nodes.map((line) => ({
      id: line.id,
      fulfillmentLineItemId: line.fulfillmentLineItem?.id ?? null,
      fulfillmentId: (line.fulfillmentLineItem && shippedIn.get(line.fulfillmentLineItem.id)) ?? null,
      title: line.fulfillmentLineItem ? productTitle(line.fulfillmentLineItem.lineItem) : "Item",
      sku: line.fulfillmentLineItem?.lineItem.sku || null,
      quantity: line.quantity,
      reason: line.returnReasonDefinition?.name ?? null,
      note: line.returnReasonNote?.trim() || null,
      weight: line.totalWeight && line.totalWeight.value > 0 ? line.totalWeight : null,
    })),
    customerAddress,
    customerNote: notes.length > 0 ? [...new Set(notes)].join(" · ") : null,
    reverseFulfillmentOrderId: open?.id ?? null,
    reverseLines: open
      ? open.lineItems.nodes.map((line) => ({ id: line.id, fulfillmentLineItemId: line.fulfillmentLineItem?.id ?? null, quantity: line.totalQuantity }))
      : [],
    reverseDeliveries: open
      ? open.reverseDeliveries.nodes.map((delivery) => ({ id: delivery.id, trackingNumber: delivery.deliverable?.tracking?.number ?? null }))
      : [],
    returnCreatedAt: new Date(node.createdAt),
    requestApprovedAt: node.requestApprovedAt ? new Date(node.requestApprovedAt) : null,
    closedAt: node.closedAt ? new Date(node.closedAt) : null,
  };
}

/** A stored JSON column read back; a row that does not parse reads as empty rather than failing a page. */
export function storedReturnLines(stored: string): ReturnLine[] {
  const parsed = z.array(ReturnLine).safeParse(JSON.parse(stored));
  return parsed.success ? (parsed.data as ReturnLine[]) : [];
}

export function storedReverseLines(stored: string): ReverseLine[] {
  const parsed = z.array(ReverseLine).safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : [];
}
