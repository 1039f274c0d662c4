import type { PrismaClient } from "@prisma/client";
import { loadMirroredOrders } from "./mirror.server";
import { fulfillmentOrderIssue } from "./shipment-mapping";

/**
 * The "Orders to ship" list: mirrored orders, newest first, each with whether the app can ship it and, if
 * not, why (on hold, fulfilled by a service, picked up, nothing left) — so no order silently goes missing.
 */

type Db = Pick<PrismaClient, "mirrorOrder" | "mirrorFulfillmentOrder" | "mirrorSync" | "$transaction">;

export interface OrderListFilters {
  search?: string;
  country?: string;
  scope?: "all" | "domestic" | "international";
  /** The shop's own country, for domestic/international. */
  homeCountry: string;
  page: number;
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
}

export const PAGE_SIZE = 50;

export async function listOrdersToShip(
  db: Db,
  shop: string,
  filters: OrderListFilters,
): Promise<{ rows: OrderListRow[]; total: number; page: number; pages: number; countries: string[] }> {
  const search = filters.search?.trim();
  const where = {
    shop,
    cancelledAt: null,
    ...(search ? { OR: [{ name: { contains: search } }, { email: { contains: search } }, { shippingAddress: { contains: search } }] } : {}),
    ...(filters.country ? { destinationCountry: filters.country } : {}),
    ...(filters.scope === "domestic" ? { destinationCountry: filters.homeCountry } : {}),
    ...(filters.scope === "international" ? { NOT: { destinationCountry: filters.homeCountry } } : {}),
  };
  const [total, page, countries] = await Promise.all([
    db.mirrorOrder.count({ where }),
    db.mirrorOrder.findMany({
      where,
      orderBy: { orderCreatedAt: "desc" },
      skip: (Math.max(1, filters.page) - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
      select: { id: true },
    }),
    db.mirrorOrder.findMany({ where: { shop }, distinct: ["destinationCountry"], select: { destinationCountry: true } }),
  ]);
  const orders = await loadMirroredOrders(db, shop, page.map((row) => row.id));
  const rows = orders.map((order): OrderListRow => {
    const issues = order.fulfillmentOrders.map(fulfillmentOrderIssue);
    const shippable = issues.some((issue) => issue === null);
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
      shippable,
      reason: shippable ? null : (issues.find((issue) => issue !== null)?.message ?? "Nothing to ship."),
    };
  });
  return {
    rows,
    total,
    page: Math.max(1, filters.page),
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    countries: countries.flatMap((row) => (row.destinationCountry ? [row.destinationCountry] : [])).sort(),
  };
}

/** The shop's latest mirror sync, for the sync banner. */
export async function latestMirrorSync(db: Db, shop: string) {
  return db.mirrorSync.findFirst({ where: { shop }, orderBy: { startedAt: "desc" } });
}
