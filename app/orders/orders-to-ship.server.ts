import type { Prisma, PrismaClient } from "@prisma/client";
import type { Context } from "../context";
import { loadMirroredOrders } from "./mirror.server";
import type { MirroredOrder } from "./order-node";
import type { OrderListQuery } from "./order-list-query";
import { fulfillmentOrderIssue } from "./shipment-mapping";

/**
 * The "Orders to ship" list: mirrored orders with a fulfillment order still open, newest first, each with
 * whether the app can ship it and, if not, why (on hold, fulfilled by a service, picked up, nothing left) — so
 * no order silently goes missing. An order whose fulfillment orders are all closed has shipped: it leaves the
 * list (and its count) as soon as a webhook refreshes it, as the next full sync would drop it from the mirror.
 */

type Db = Pick<PrismaClient, "shipment">;

export interface OrderListFilters extends Omit<OrderListQuery, "page"> {
  /** The shop's own country, for domestic/international. */
  homeCountry: string;
  /** For the age filter. */
  now: Date;
}

export interface OrderListRow {
  id: string;
  name: string;
  createdAt: string;
  destination: string;
  country: string | null;
  items: number;
  tags: string[];
  fulfillmentStatus: string;
  shippable: boolean;
  reason: string | null;
  /** It has rates waiting to be booked. */
  quoted: boolean;
}

/** The list's filters for a shop: "domestic" is the shop's own country, the US while Shopify has none on file. */
export function orderListFilters(query: OrderListQuery, shop: { countryCode: string | null }, now: Date): OrderListFilters & { page: number } {
  return { ...query, homeCountry: shop.countryCode ?? "US", now };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Fulfillment orders with nothing left to do: what the sync's `fulfillmentOrders(includeClosed: false)` leaves out. */
const CLOSED_FULFILLMENT_ORDER_STATUSES = ["CLOSED", "CANCELLED", "INCOMPLETE"] as const;

/** Orders with rates picked and not booked yet: what "already quoted" means to a merchant. */
async function quotedOrderIds(db: Db, shop: string): Promise<Set<string>> {
  const rows = await db.shipment.findMany({
    where: { shop, quoteStatus: "QUOTED", bookingStatus: "NONE" },
    distinct: ["orderId"],
    select: { orderId: true },
  });
  return new Set(rows.map((row) => row.orderId));
}

function orderWhere(shop: string, filters: OrderListFilters, quoted: ReadonlySet<string>): Prisma.MirrorOrderWhereInput {
  const search = filters.q?.trim();
  const and: Prisma.MirrorOrderWhereInput[] = [
    { shop, cancelledAt: null, fulfillmentOrders: { some: { status: { notIn: [...CLOSED_FULFILLMENT_ORDER_STATUSES] } } } },
  ];
  if (search) and.push({ OR: [{ name: { contains: search } }, { email: { contains: search } }, { shippingAddress: { contains: search } }] });
  if (filters.country) and.push({ destinationCountry: filters.country });
  if (filters.scope === "domestic") and.push({ destinationCountry: filters.homeCountry });
  if (filters.scope === "international") and.push({ NOT: { destinationCountry: filters.homeCountry } });
  // Tags are stored as a JSON array: the quoted tag matches one element exactly.
  if (filters.tag) and.push({ tags: { contains: JSON.stringify(filters.tag) } });
  if (filters.age) and.push({ orderCreatedAt: { lt: new Date(filters.now.getTime() - Number(filters.age) * DAY_MS) } });
  if (filters.quoted === "quoted") and.push({ id: { in: [...quoted] } });
  if (filters.quoted === "not-quoted") and.push({ id: { notIn: [...quoted] } });
  return { AND: and };
}

export const PAGE_SIZE = 50;

export async function listOrdersToShip(
  ctx: Pick<Context, "db" | "shop">,
  filters: OrderListFilters & { page: number },
): Promise<{ rows: OrderListRow[]; total: number; page: number; pages: number; countries: string[]; tags: string[] }> {
  const { db, shop } = ctx;
  const quoted = await quotedOrderIds(db, shop);
  const where = orderWhere(shop, filters, quoted);
  const [total, page, facets] = await Promise.all([
    db.mirrorOrder.count({ where }),
    db.mirrorOrder.findMany({
      where,
      orderBy: { orderCreatedAt: "desc" },
      skip: (Math.max(1, filters.page) - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
      select: { id: true },
    }),
    db.mirrorOrder.findMany({ where: { shop, cancelledAt: null }, select: { destinationCountry: true, tags: true } }),
  ]);
  const orders = await loadMirroredOrders(
    ctx,
    page.map((row) => row.id),
  );
  const rows = orders.map((order): OrderListRow => {
    const reason = unshippableReason(order);
    const address = order.shippingAddress;
    return {
      id: order.id,
      name: order.name,
      createdAt: order.createdAt,
      destination: address ? [address.city, address.provinceCode, address.countryCode].filter(Boolean).join(", ") : "No shipping address",
      country: address?.countryCode ?? null,
      items: order.fulfillmentOrders.reduce((sum, fo) => sum + fo.lines.reduce((lines, line) => lines + line.remainingQuantity, 0), 0),
      tags: order.tags,
      fulfillmentStatus: order.displayFulfillmentStatus,
      shippable: reason === null,
      reason,
      quoted: quoted.has(order.id),
    };
  });
  return {
    rows,
    total,
    page: Math.max(1, filters.page),
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    countries: [...new Set(facets.flatMap((row) => (row.destinationCountry ? [row.destinationCountry] : [])))].sort(),
    tags: [...new Set(facets.flatMap((row) => JSON.parse(row.tags) as string[]))].sort((a, b) => a.localeCompare(b)),
  };
}

/** Why none of the order's fulfillment orders can be shipped with a label now, or null when one can. */
export function unshippableReason(order: MirroredOrder): string | null {
  const issues = order.fulfillmentOrders.map(fulfillmentOrderIssue);
  if (issues.some((issue) => issue === null)) return null;
  return issues.find((issue) => issue !== null)?.message ?? "Nothing to ship.";
}

/**
 * Every shippable order matching the filters, newest first: "select all matching orders" across pages. Orders
 * the app cannot ship are left out, as the list does not let them be selected.
 */
export async function matchingShippableOrderIds(ctx: Pick<Context, "db" | "shop">, filters: OrderListFilters): Promise<string[]> {
  const { db, shop } = ctx;
  const matching = await db.mirrorOrder.findMany({
    where: orderWhere(shop, filters, await quotedOrderIds(db, shop)),
    orderBy: { orderCreatedAt: "desc" },
    select: { id: true },
  });
  const ids: string[] = [];
  for (let start = 0; start < matching.length; start += PAGE_SIZE * 10) {
    const orders = await loadMirroredOrders(
      ctx,
      matching.slice(start, start + PAGE_SIZE * 10).map((row) => row.id),
    );
    for (const order of orders) if (unshippableReason(order) === null) ids.push(order.id);
  }
  return ids;
}
