import type { PrismaClient } from "@prisma/client";
import { z } from "zod";

/**
 * Shopify's mandatory compliance webhooks. What the app holds about a customer is the mirror's copy of
 * their orders (name, email, shipping address, lines); about a shop, everything keyed by its domain.
 */

type Db = Pick<PrismaClient, "mirrorOrder" | "mirrorFulfillmentOrder" | "mirrorSync" | "session" | "$transaction">;

const orderGids = z.array(z.union([z.number().int(), z.string()])).default([]).transform((ids) => ids.map((id) => (String(id).startsWith("gid://") ? String(id) : `gid://shopify/Order/${id}`)));

const Customer = z.object({ id: z.union([z.number(), z.string()]), email: z.string().nullish(), phone: z.string().nullish() });

export const DataRequestPayload = z.object({ shop_domain: z.string(), customer: Customer, orders_requested: orderGids });
export const CustomerRedactPayload = z.object({ shop_domain: z.string(), customer: Customer, orders_to_redact: orderGids });

function customerOrders(shop: string, customer: z.infer<typeof Customer>, orderIds: string[]) {
  return {
    shop,
    OR: [{ id: { in: orderIds } }, ...(customer.email ? [{ email: customer.email }] : [])],
  };
}

export interface CustomerDataReport {
  customerId: string;
  orders: Array<{ id: string; name: string; email: string | null; shippingAddress: unknown }>;
}

/** customers/data_request: everything the app holds about the customer, for the merchant to pass on. */
export async function reportCustomerData(db: Db, shop: string, payload: unknown): Promise<CustomerDataReport> {
  const request = DataRequestPayload.parse(payload);
  const orders = await db.mirrorOrder.findMany({
    where: customerOrders(shop, request.customer, request.orders_requested),
    select: { id: true, name: true, email: true, shippingAddress: true },
    orderBy: { orderCreatedAt: "asc" },
  });
  return {
    customerId: String(request.customer.id),
    orders: orders.map((order) => ({ ...order, shippingAddress: order.shippingAddress ? JSON.parse(order.shippingAddress) : null })),
  };
}

/** customers/redact: erases the customer's orders from the mirror. Returns how many were erased. */
export async function redactCustomer(db: Db, shop: string, payload: unknown): Promise<number> {
  const request = CustomerRedactPayload.parse(payload);
  const { count } = await db.mirrorOrder.deleteMany({ where: customerOrders(shop, request.customer, request.orders_to_redact) });
  return count;
}

/** shop/redact (48 hours after uninstall): erases everything the app holds for the shop. */
export async function redactShop(db: Db, shop: string): Promise<void> {
  await db.$transaction([
    db.mirrorFulfillmentOrder.deleteMany({ where: { shop } }),
    db.mirrorOrder.deleteMany({ where: { shop } }),
    db.mirrorSync.deleteMany({ where: { shop } }),
    db.session.deleteMany({ where: { shop } }),
  ]);
}
