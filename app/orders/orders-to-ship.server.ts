import type { Prisma, PrismaClient } from "@prisma/client";
import type { Context } from "../context";
import { loadMirroredOrders } from "./mirror.server";
import type { MirroredOrder } from "./order-node";
import type { OrderListQuery } from "./order-list-query";
import { countryName, placeName } from "../locale/places";
import { withCustoms } from "./customs.server";
import { goodsWeight, shipsInParcel, unshippableIssues } from "./shipment-mapping";
import type { OrderShippingLine } from "./types";
import { API_WEIGHT_UNIT, formatWeight, type ShopifyWeightUnit } from "./weights";

/**
 * The "Orders to ship" list: mirrored orders with a fulfillment order still open, newest first, each with
 * whether the app can ship it and, if not, why (on hold, fulfilled by a service, picked up, nothing left) — so
 * no order silently goes missing. An order whose fulfillment orders are all closed has shipped: it leaves the
 * list (and its count) as soon as a webhook refreshes it, as the next full sync would drop it from the mirror.
 * Each row says who it goes to, the shipping the customer paid for and what its parcels' contents weigh.
 */

type Db = Pick<PrismaClient, "shipment">;

export interface OrderListFilters extends OrderListQuery {
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
  /** Who it goes to: the shipping address's name, else the order's email; null when neither is known. */
  customer: string | null;
  /** The shipping the customer chose and paid for at checkout, null for none. */
  shippingLine: OrderShippingLine | null;
  country: string | null;
  items: number;
  /**
   * What the items still to ship weigh ("2.75 lb", in the shop's unit, weights the merchant typed for the order
   * included); null when an item has no weight yet.
   */
  weight: string | null;
  tags: string[];
  fulfillmentStatus: string;
  shippable: boolean;
  reason: string | null;
  /** It has rates waiting to be booked. */
  quoted: boolean;
}

/** The list's filters for a shop: "domestic" is the shop's own country, the US while Shopify has none on file. */
export function orderListFilters(query: OrderListQuery, shop: { countryCode: string | null }, now: Date): OrderListFilters {
  return { ...query, homeCountry: shop.countryCode ?? "US", now };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Fulfillment orders with nothing left to do: what the sync's `fulfillmentOrders(includeClosed: false)` leaves out. */
const CLOSED_FULFILLMENT_ORDER_STATUSES = ["CLOSED", "CANCELLED", "INCOMPLETE"] as const;

/** Orders with rates picked and not booked yet: what "already quoted" means to a merchant. */
async function quotedOrderIds(db: Db, shop: string, among?: readonly string[]): Promise<Set<string>> {
  const rows = await db.shipment.findMany({
    where: { shop, quoteStatus: "QUOTED", bookingStatus: "NONE", ...(among ? { orderId: { in: [...among] } } : {}) },
    distinct: ["orderId"],
    select: { orderId: true },
  });
  return new Set(rows.map((row) => row.orderId));
}

function orderWhere(shop: string, filters: OrderListFilters): Prisma.MirrorOrderWhereInput {
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
  return { AND: and };
}

/**
 * The ids of every order the filters match, newest first. The "Rates" filter is applied here rather than in
 * SQL: the orders with rates are a set as large as the shop's runs (5,000 after one big run), past what one
 * `IN (…)` list can bind, and the mirror has no relation to shipments to join on.
 */
async function matchingOrderIds(
  db: Pick<PrismaClient, "mirrorOrder">,
  shop: string,
  filters: OrderListFilters,
  quoted: ReadonlySet<string>,
): Promise<string[]> {
  const rows = await db.mirrorOrder.findMany({ where: orderWhere(shop, filters), orderBy: { orderCreatedAt: "desc" }, select: { id: true } });
  const wanted = filters.quoted === "quoted" ? true : filters.quoted === "not-quoted" ? false : null;
  return rows.flatMap((row) => (wanted === null || quoted.has(row.id) === wanted ? [row.id] : []));
}

export const PAGE_SIZE = 50;

export interface OrderListPage {
  rows: OrderListRow[];
  /** Orders the filters match, over every page. */
  total: number;
  /** The page shown: the one asked for, or the last when it asked past the end. */
  page: number;
  pages: number;
  /** The destination countries to filter by, by name. */
  countries: Array<{ code: string; name: string }>;
  tags: string[];
}

/**
 * One page of Orders to ship. Without the Rates filter the database counts and pages (`LIMIT`/`OFFSET` on the
 * shop's `orderCreatedAt` index); with it, the matching ids are paged here. Only the page's orders are read whole.
 */
export async function listOrdersToShip(
  ctx: Pick<Context, "db" | "shop">,
  filters: OrderListFilters & { page: number; weightUnit: ShopifyWeightUnit },
): Promise<OrderListPage> {
  const { db, shop } = ctx;
  const where = orderWhere(shop, filters);
  const [total, facets] = await Promise.all([filters.quoted === "any" ? db.mirrorOrder.count({ where }) : null, listFacets(db, shop)]);
  // Which orders have rates: all of them to filter by it, else only the page's (at most 50 bound values).
  const quotedEverywhere = total === null ? await quotedOrderIds(db, shop) : null;
  const ids = quotedEverywhere ? await matchingOrderIds(db, shop, filters, quotedEverywhere) : null;
  const matched = total ?? ids!.length;
  const pages = Math.max(1, Math.ceil(matched / PAGE_SIZE));
  const page = Math.min(Math.max(1, filters.page), pages);
  const pageIds =
    ids?.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) ??
    (await db.mirrorOrder.findMany({ where, orderBy: { orderCreatedAt: "desc" }, skip: (page - 1) * PAGE_SIZE, take: PAGE_SIZE, select: { id: true } })).map(
      (row) => row.id,
    );
  const [mirrored, quoted] = await Promise.all([loadMirroredOrders(ctx, pageIds), quotedEverywhere ?? quotedOrderIds(db, shop, pageIds)]);
  const orders = await withCustoms(ctx, mirrored);
  const rows = orders.map((order): OrderListRow => {
    const reason = unshippableReason(order);
    const address = order.shippingAddress;
    return {
      id: order.id,
      name: order.name,
      createdAt: order.createdAt,
      destination: address ? placeName(address) || "No shipping address" : "No shipping address",
      customer: customerName(order),
      shippingLine: order.shippingLine,
      country: address?.countryCode ?? null,
      items: order.fulfillmentOrders.reduce((sum, fo) => sum + fo.lines.reduce((lines, line) => lines + line.remainingQuantity, 0), 0),
      weight: contentsWeight(order, filters.weightUnit),
      tags: order.tags,
      fulfillmentStatus: order.displayFulfillmentStatus,
      shippable: reason === null,
      reason,
      quoted: quoted.has(order.id),
    };
  });
  return { rows, total: matched, page, pages, ...facets };
}

/** The countries and tags to filter by: the distinct values, not a row per order. */
async function listFacets(db: Pick<PrismaClient, "mirrorOrder">, shop: string): Promise<{ countries: Array<{ code: string; name: string }>; tags: string[] }> {
  const where = { shop, cancelledAt: null };
  const [countries, tagLists] = await Promise.all([
    db.mirrorOrder.findMany({ where: { ...where, destinationCountry: { not: null } }, distinct: ["destinationCountry"], select: { destinationCountry: true } }),
    db.mirrorOrder.findMany({ where: { ...where, NOT: { tags: "[]" } }, distinct: ["tags"], select: { tags: true } }),
  ]);
  return {
    countries: countries
      .flatMap((row) => (row.destinationCountry ? [{ code: row.destinationCountry, name: countryName(row.destinationCountry) }] : []))
      .sort((a, b) => a.name.localeCompare(b.name)),
    tags: [...new Set(tagLists.flatMap((row) => JSON.parse(row.tags) as string[]))].sort((a, b) => a.localeCompare(b)),
  };
}

/** Who the order goes to: the shipping address's name (its first and last name when it has no whole one), else the order's email. */
function customerName(order: Pick<MirroredOrder, "shippingAddress" | "email">): string | null {
  const address = order.shippingAddress;
  const name =
    address?.name?.trim() ||
    [address?.firstName, address?.lastName]
      .map((part) => part?.trim())
      .filter(Boolean)
      .join(" ");
  return name || order.email?.trim() || null;
}

/** What the order's items still to ship weigh, in `unit` ("2.75 lb"); null when one of them has no weight. */
function contentsWeight(order: Pick<MirroredOrder, "fulfillmentOrders">, unit: ShopifyWeightUnit): string | null {
  const lines = order.fulfillmentOrders.flatMap((fo) => fo.lines.filter(shipsInParcel));
  if (lines.length === 0 || lines.some((line) => !line.weight || line.weight.value <= 0)) return null;
  const apiUnit = API_WEIGHT_UNIT[unit];
  return `${formatWeight(goodsWeight(lines), apiUnit)} ${apiUnit}`;
}

/** Why none of the order's fulfillment orders can be shipped with a label now, or null when one can. */
export function unshippableReason(order: Pick<MirroredOrder, "fulfillmentOrders">): string | null {
  return unshippableIssues(order)?.[0]?.message ?? null;
}

/**
 * Every shippable order matching the filters, newest first: "select all matching orders" across pages. Orders
 * the app cannot ship are left out, as the list does not let them be selected.
 */
export async function matchingShippableOrderIds(ctx: Pick<Context, "db" | "shop">, filters: OrderListFilters): Promise<string[]> {
  const { db, shop } = ctx;
  const matching = await matchingOrderIds(db, shop, filters, await quotedOrderIds(db, shop));
  const ids: string[] = [];
  for (let start = 0; start < matching.length; start += READ_CHUNK) {
    const orders = await loadMirroredOrders(ctx, matching.slice(start, start + READ_CHUNK));
    for (const order of orders) if (unshippableReason(order) === null) ids.push(order.id);
  }
  return ids;
}

/** Orders held whole at a time while checking which can ship (loadMirroredOrders reads them in pieces each database binds). */
const READ_CHUNK = 500;
