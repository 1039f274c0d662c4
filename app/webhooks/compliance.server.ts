import { z } from "zod";
import type { Context } from "../context";
import { ShopifyId, shopifyGid } from "../shopify/gid";
import { parseWebhookPayload } from "./webhook-payload";

/**
 * Shopify's mandatory compliance webhooks. What the app holds about a customer is the mirror's copy of
 * their orders (name, email, shipping address, lines) and the shipments made for those orders (the quote
 * request with the receiver's address, tracking and book numbers); about a shop, everything keyed by its
 * domain.
 */

/**
 * Shipments whose booking or fulfillment is under way keep their row (it is what stops a second label or
 * fulfillment) with the receiver's details replaced; the others are erased with their quotes.
 */
const IN_FLIGHT = { OR: [{ bookingStatus: "BOOKING" }, { fulfillmentStatus: { in: ["PENDING", "CREATING"] } }] };
const REDACTED = "[redacted]";

function withoutReceiver(request: string): string {
  const parsed = z.looseObject({ receiver: z.record(z.string(), z.unknown()).optional() }).parse(JSON.parse(request));
  if (!parsed.receiver) return request;
  return JSON.stringify({
    ...parsed,
    receiver: { ...parsed.receiver, name: REDACTED, company: "", address1: REDACTED, address2: "", phone: "", email: undefined },
  });
}

const orderGids = z.array(ShopifyId("Order")).default([]);

const Customer = z.object({ id: z.union([z.number(), z.string()]), email: z.string().nullish(), phone: z.string().nullish() });

export const DataRequestPayload = z.object({ shop_domain: z.string(), customer: Customer, orders_requested: orderGids });
export const CustomerRedactPayload = z.object({ shop_domain: z.string(), customer: Customer, orders_to_redact: orderGids });

function customerOrders(shop: string, customer: z.infer<typeof Customer>, orderIds: string[]) {
  return {
    shop,
    // Named in the payload, placed by the customer (the mirror keeps who), or under their email.
    OR: [{ id: { in: orderIds } }, { customerId: shopifyGid("Customer", String(customer.id)) }, ...(customer.email ? [{ email: customer.email }] : [])],
  };
}

export interface CustomerDataReport {
  customerId: string;
  /** Each order with its note and custom attributes (a gift message is the customer's words). */
  orders: Array<{ id: string; name: string; email: string | null; shippingAddress: unknown; note: string | null; customAttributes: unknown }>;
  shipments: Array<{
    orderId: string;
    orderName: string;
    receiver: unknown;
    carrierCode: string | null;
    trackingNumber: string | null;
    bookNumber: string | null;
  }>;
}

/** The customer's orders in this shop: those named in the payload and those the mirror has under their email. */
function customerOrderIds(orderIds: readonly string[], mirrored: ReadonlyArray<{ id: string }>): string[] {
  return [...new Set([...orderIds, ...mirrored.map((order) => order.id)])];
}

/** customers/data_request: everything the app holds about the customer, for the merchant to pass on. */
export async function reportCustomerData({ db, shop }: Pick<Context, "db" | "shop">, payload: unknown): Promise<CustomerDataReport> {
  const request = parseWebhookPayload(DataRequestPayload, payload);
  const orders = await db.mirrorOrder.findMany({
    where: customerOrders(shop, request.customer, request.orders_requested),
    select: { id: true, name: true, email: true, shippingAddress: true, note: true, customAttributes: true },
    orderBy: { orderCreatedAt: "asc" },
  });
  const shipments = await db.shipment.findMany({
    where: { shop, orderId: { in: customerOrderIds(request.orders_requested, orders) } },
    select: { orderId: true, orderName: true, request: true, carrierCode: true, trackingNumber: true, bookNumber: true },
    orderBy: { createdAt: "asc" },
  });
  return {
    customerId: String(request.customer.id),
    orders: orders.map((order) => ({
      ...order,
      shippingAddress: order.shippingAddress ? JSON.parse(order.shippingAddress) : null,
      customAttributes: order.customAttributes ? JSON.parse(order.customAttributes) : [],
    })),
    shipments: shipments.map(({ request: sent, ...shipment }) => ({ ...shipment, receiver: (JSON.parse(sent) as { receiver?: unknown }).receiver ?? null })),
  };
}

/**
 * customers/redact: erases the customer's orders from the mirror and their shipments (in-flight ones keep
 * their row without the receiver). Returns how many mirrored orders were erased.
 */
export async function redactCustomer({ db, shop }: Pick<Context, "db" | "shop">, payload: unknown): Promise<number> {
  const request = parseWebhookPayload(CustomerRedactPayload, payload);
  const mirrored = await db.mirrorOrder.findMany({ where: customerOrders(shop, request.customer, request.orders_to_redact), select: { id: true } });
  const orderIds = customerOrderIds(request.orders_to_redact, mirrored);
  const inFlight = await db.shipment.findMany({ where: { shop, orderId: { in: orderIds }, ...IN_FLIGHT }, select: { id: true, request: true } });
  const [erased] = await db.$transaction([
    db.mirrorOrder.deleteMany({ where: { shop, id: { in: orderIds } } }),
    db.orderCustoms.deleteMany({ where: { shop, orderId: { in: orderIds } } }),
    db.shipment.deleteMany({ where: { shop, orderId: { in: orderIds }, NOT: IN_FLIGHT } }),
    ...inFlight.map((shipment) => db.shipment.update({ where: { id: shipment.id }, data: { request: withoutReceiver(shipment.request) } })),
  ]);
  return erased.count;
}

/** shop/redact (48 hours after uninstall): erases everything the app holds for the shop. */
export async function redactShop({ db, shop }: Pick<Context, "db" | "shop">): Promise<void> {
  await db.$transaction([
    db.mirrorFulfillmentOrder.deleteMany({ where: { shop } }),
    db.mirrorOrder.deleteMany({ where: { shop } }),
    db.mirrorSync.deleteMany({ where: { shop } }),
    db.orderCustoms.deleteMany({ where: { shop } }),
    db.session.deleteMany({ where: { shop } }),
    db.shipment.deleteMany({ where: { shop } }),
    db.batch.deleteMany({ where: { shop } }),
    db.quoteRun.deleteMany({ where: { shop } }),
    db.shippingAccount.deleteMany({ where: { shop } }),
    db.shopSettings.deleteMany({ where: { shop } }),
    db.shippingRule.deleteMany({ where: { shop } }),
    db.productPreset.deleteMany({ where: { shop } }),
    db.shopProfile.deleteMany({ where: { shop } }),
    db.flowTriggerWorkflow.deleteMany({ where: { shop } }),
  ]);
}
