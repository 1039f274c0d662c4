import type { ShopifyWeightUnit } from "./weights";

/**
 * What the app knows of an order awaiting shipment: the mirror's shape (filled from the Admin API and kept
 * current by webhooks), independent of how it was read. Mapping and pre-flight checks work on this alone.
 */
export interface OrderAddress {
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  /** The province's name as Shopify gives it ("Tokyo" for "JP-13"); absent on an order mirrored before it was read. */
  province?: string | null;
  provinceCode: string | null;
  zip: string | null;
  countryCode: string | null;
  phone: string | null;
}

/** The shipping the customer chose and paid for at checkout (the order's shipping line), in the shop's currency. */
export interface OrderShippingLine {
  title: string;
  amount: string;
  currency: string;
}

export interface FulfillmentOrderLine {
  /** FulfillmentOrderLineItem GID: what fulfillmentCreate takes. */
  id: string;
  lineItemId: string;
  sku: string | null;
  productTitle: string;
  variantTitle: string | null;
  remainingQuantity: number;
  totalQuantity: number;
  /** Per unit; null when the product has no weight. */
  weight: { unit: ShopifyWeightUnit; value: number } | null;
  /** Per-unit price in the order's currency, a decimal string. */
  unitPrice: string;
  hsCode: string | null;
  countryOfOrigin: string | null;
  /** The line's ProductVariant and Product GIDs, for product presets; absent on lines mirrored before they were kept. */
  variantId?: string | null;
  productId?: string | null;
  /** The customs description of the line's product preset, used on the invoice over the product's name. */
  customsDescription?: string | null;
  /**
   * False for lines that need no shipping (gift cards, digital products): left out of the parcel, its weight and
   * the invoice, and never a blocker. Lines mirrored before it was read have none: they are taken as shipped.
   */
  requiresShipping?: boolean;
}

export type DeliveryMethodType = "SHIPPING" | "PICK_UP" | "LOCAL" | "PICKUP_POINT" | "RETAIL" | "NONE";

export interface FulfillmentOrderForShipping {
  id: string;
  status: string;
  requestStatus: string;
  deliveryMethod: DeliveryMethodType | null;
  /** The assigned location is a fulfillment service (a 3PL ships it, not the merchant). */
  assignedToFulfillmentService: boolean;
  supportedActions: string[];
  holds: Array<{ reason: string; reasonNotes: string | null }>;
  lines: FulfillmentOrderLine[];
}

export interface OrderForShipping {
  id: string;
  name: string;
  email: string | null;
  currencyCode: string;
  shippingAddress: OrderAddress | null;
  fulfillmentOrders: FulfillmentOrderForShipping[];
}
