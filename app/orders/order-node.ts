import { z } from "zod";
import { schemaFor } from "../shopify/admin-document";
import type { FulfillmentOrdersToShipBulkQuery } from "../types/admin.generated";
import type { FulfillmentOrderForShipping, OrderAddress, OrderForShipping, OrderShippingLine } from "./types";

/**
 * Parses an order as the mirror documents select it (order-documents.ts) into the app's own shape.
 * Shopify responses the app depends on are validated here, once.
 */
/** A MailingAddress as the MirroredAddressFields fragment selects it (app/orders/order-documents.ts). */
export const MailingAddressNode = z.object({
  name: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  provinceCode: z.string().nullable(),
  zip: z.string().nullable(),
  countryCodeV2: z.string().nullable(),
  phone: z.string().nullable(),
});

const edges = <T extends z.ZodType>(node: T) => z.object({ edges: z.array(z.object({ node })) });

const LineNode = z.object({
  id: z.string(),
  sku: z.string().nullable(),
  productTitle: z.string(),
  variantTitle: z.string().nullable(),
  remainingQuantity: z.number().int(),
  totalQuantity: z.number().int(),
  /** Absent from exports started before the mirror read it: the line is taken as shipped. */
  requiresShipping: z.boolean().nullish(),
  weight: z.object({ unit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]), value: z.number() }).nullable(),
  originalUnitPriceSet: z.object({ shopMoney: z.object({ amount: z.string() }) }),
  lineItem: z.object({ id: z.string() }),
  variant: z
    .object({
      /** Absent from exports started before the mirror kept it: no product preset applies. */
      id: z.string().optional(),
      product: z.object({ id: z.string() }).nullish(),
      inventoryItem: z.object({ harmonizedSystemCode: z.string().nullable(), countryCodeOfOrigin: z.string().nullable() }).nullable(),
    })
    .nullable(),
});

const FulfillmentOrderNode = z.object({
  id: z.string(),
  status: z.string(),
  requestStatus: z.string(),
  deliveryMethod: z.object({ methodType: z.enum(["SHIPPING", "PICK_UP", "LOCAL", "PICKUP_POINT", "RETAIL", "NONE"]) }).nullable(),
  assignedLocation: z.object({ location: z.object({ id: z.string(), isFulfillmentService: z.boolean() }).nullable() }),
  supportedActions: z.array(z.object({ action: z.string() })),
  fulfillmentHolds: z.array(z.object({ reason: z.string(), reasonNotes: z.string().nullable() })),
  lineItems: edges(LineNode),
});

type BulkFulfillmentOrder = FulfillmentOrdersToShipBulkQuery["fulfillmentOrders"]["edges"][number]["node"];
/** An order of the bulk export as reassembleBulkOrders rebuilds it: the single-order read's shape. */
type ReassembledBulkOrder = BulkFulfillmentOrder["order"] & { fulfillmentOrders: { edges: Array<{ node: Omit<BulkFulfillmentOrder, "order"> }> } };

/** Checked against both reads: ORDER_FOR_SHIPPING through adminQuery, the bulk export here. */
export const OrderNode = schemaFor<ReassembledBulkOrder>()(
  z.object({
    id: z.string(),
    name: z.string(),
    createdAt: z.string(),
    /** Absent from exports started before the mirror kept it: the row is then as fresh as its write. */
    updatedAt: z.string().nullish(),
    cancelledAt: z.string().nullable(),
    email: z.string().nullable(),
    /** Absent from exports started before the mirror kept it; null for a guest's order. */
    customer: z.object({ id: z.string() }).nullish(),
    currencyCode: z.string(),
    tags: z.array(z.string()),
    displayFulfillmentStatus: z.string(),
    /** Absent from exports started before the mirror kept them: no note, no attributes known. */
    note: z.string().nullish(),
    customAttributes: z.array(z.object({ key: z.string(), value: z.string().nullable() })).nullish(),
    /** Absent from documents that do not select it (older bulk exports): no shipping line known. */
    shippingLine: z
      .object({ title: z.string(), originalPriceSet: z.object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) }) })
      .nullish(),
    shippingAddress: MailingAddressNode.nullable(),
    fulfillmentOrders: edges(FulfillmentOrderNode),
  }),
);
export type OrderNode = z.infer<typeof OrderNode>;

export interface MirroredFulfillmentOrder extends FulfillmentOrderForShipping {
  assignedLocationId: string | null;
}

/** An order as the mirror keeps it: what mapping needs, plus what the order list filters on. */
export interface MirroredOrder extends OrderForShipping {
  /** The customer who placed it (Customer GID): whose customer account shows it. Null for a guest, or not yet read. */
  customerId: string | null;
  createdAt: string;
  /** Shopify's updatedAt of this read of the order (ISO), or null when not known. */
  updatedAt: string | null;
  cancelledAt: string | null;
  tags: string[];
  displayFulfillmentStatus: string;
  /** The shipping the customer chose and paid for at checkout, in the shop's currency. */
  shippingLine: OrderShippingLine | null;
  /** The order's note, or null for none (bounded: MIRRORED_TEXT_LIMITS). */
  note: string | null;
  /** The order's custom attributes ("Gift message", delivery instructions), bounded: MIRRORED_TEXT_LIMITS. */
  customAttributes: OrderAttribute[];
  fulfillmentOrders: MirroredFulfillmentOrder[];
}

export interface OrderAttribute {
  key: string;
  value: string;
}

/**
 * What the mirror keeps of an order's free text: Shopify's own limit for a note (5,000 characters) for the note
 * and each attribute's value, 255 for a key, 50 attributes. Nothing real reaches them; a row stays bounded if
 * something does.
 */
export const MIRRORED_TEXT_LIMITS = { note: 5000, attributes: 50, key: 255, value: 5000 } as const;

const bounded = (text: string, limit: number) => [...text].slice(0, limit).join("");

/** The attributes with a value, bounded as the mirror keeps them. */
export function mirroredAttributes(attributes: ReadonlyArray<{ key: string; value: string | null }>): OrderAttribute[] {
  return attributes
    .filter((attribute) => attribute.key.trim() && attribute.value?.trim())
    .slice(0, MIRRORED_TEXT_LIMITS.attributes)
    .map((attribute) => ({ key: bounded(attribute.key, MIRRORED_TEXT_LIMITS.key), value: bounded(attribute.value!, MIRRORED_TEXT_LIMITS.value) }));
}

/**
 * The gift message among an order's attributes: the first whose name speaks of a gift message or note ("Gift
 * message", "gift_message", "Gift note", "Geschenknachricht"), else null. Shopify has no field of its own for it;
 * themes and gift apps put it in a cart attribute, named as they like.
 */
export function giftMessageOf(attributes: readonly OrderAttribute[]): string | null {
  const gift = attributes.find(({ key }) => /gift[\s_-]*(message|note|card)|geschenk|cadeau|regalo/i.test(key));
  return gift?.value.trim() || null;
}

export function toMirroredOrder(node: OrderNode): MirroredOrder {
  const address = node.shippingAddress;
  return {
    id: node.id,
    name: node.name,
    email: node.email,
    customerId: node.customer?.id ?? null,
    currencyCode: node.currencyCode,
    createdAt: new Date(node.createdAt).toISOString(),
    updatedAt: node.updatedAt ? new Date(node.updatedAt).toISOString() : null,
    cancelledAt: node.cancelledAt ? new Date(node.cancelledAt).toISOString() : null,
    tags: node.tags,
    displayFulfillmentStatus: node.displayFulfillmentStatus,
    note: node.note?.trim() ? bounded(node.note, MIRRORED_TEXT_LIMITS.note) : null,
    customAttributes: mirroredAttributes(node.customAttributes ?? []),
    shippingLine: node.shippingLine
      ? {
          title: node.shippingLine.title,
          amount: node.shippingLine.originalPriceSet.shopMoney.amount,
          currency: node.shippingLine.originalPriceSet.shopMoney.currencyCode,
        }
      : null,
    shippingAddress: address && toOrderAddress(address),
    fulfillmentOrders: node.fulfillmentOrders.edges.map(({ node: fo }) => ({
      id: fo.id,
      status: fo.status,
      requestStatus: fo.requestStatus,
      deliveryMethod: fo.deliveryMethod?.methodType ?? null,
      assignedLocationId: fo.assignedLocation.location?.id ?? null,
      assignedToFulfillmentService: fo.assignedLocation.location?.isFulfillmentService ?? false,
      supportedActions: fo.supportedActions.map((entry) => entry.action),
      holds: fo.fulfillmentHolds,
      lines: fo.lineItems.edges.map(({ node: line }) => ({
        id: line.id,
        lineItemId: line.lineItem.id,
        sku: line.sku,
        productTitle: line.productTitle,
        variantTitle: line.variantTitle,
        remainingQuantity: line.remainingQuantity,
        totalQuantity: line.totalQuantity,
        requiresShipping: line.requiresShipping !== false,
        weight: line.weight,
        unitPrice: line.originalUnitPriceSet.shopMoney.amount,
        variantId: line.variant?.id ?? null,
        productId: line.variant?.product?.id ?? null,
        hsCode: line.variant?.inventoryItem?.harmonizedSystemCode ?? null,
        countryOfOrigin: line.variant?.inventoryItem?.countryCodeOfOrigin ?? null,
      })),
    })),
  };
}

/**
 * Reassembles lines of the fulfillment-order bulk export (FULFILLMENT_ORDERS_TO_SHIP_BULK: one JSONL line per
 * fulfillment order, each followed by its line items with `__parentId`) into order nodes in the
 * single-order document's shape, fulfillment orders grouped under their order. The lines are a whole export,
 * or a piece of one that starts at a fulfillment order (app/orders/bulk-export.ts): an order whose fulfillment
 * orders fall in several pieces comes out of each with the ones it holds.
 */
export function reassembleBulkOrders(lines: Iterable<Record<string, unknown>>): unknown[] {
  type Json = Record<string, unknown>;
  const fulfillmentOrders = new Map<string, Json & { lineItems: { edges: Array<{ node: Json }> } }>();
  const orders = new Map<string, Json & { fulfillmentOrders: { edges: Array<{ node: Json }> } }>();
  for (const line of lines) {
    const { __parentId: parentId, ...object } = line as Json & { __parentId?: string };
    if (parentId) {
      const parent = fulfillmentOrders.get(parentId);
      if (!parent) throw new Error(`Bulk export line ${String(object.id)} comes before its fulfillment order ${parentId}`);
      parent.lineItems.edges.push({ node: object });
      continue;
    }
    const { order, ...fo } = object as Json & { order: Json & { id: string } };
    const fulfillmentOrder = { ...fo, lineItems: { edges: [] as Array<{ node: Json }> } };
    fulfillmentOrders.set(String(fo.id), fulfillmentOrder);
    const existing = orders.get(order.id) ?? { ...order, fulfillmentOrders: { edges: [] } };
    existing.fulfillmentOrders.edges.push({ node: fulfillmentOrder });
    orders.set(order.id, existing);
  }
  return [...orders.values()];
}

/** A MailingAddress node as Consign keeps an address (countryCodeV2 as countryCode). */
export function toOrderAddress(address: z.infer<typeof MailingAddressNode>): OrderAddress {
  return {
    name: address.name,
    firstName: address.firstName,
    lastName: address.lastName,
    company: address.company,
    address1: address.address1,
    address2: address.address2,
    city: address.city,
    province: address.province,
    provinceCode: address.provinceCode,
    zip: address.zip,
    countryCode: address.countryCodeV2,
    phone: address.phone,
  };
}
