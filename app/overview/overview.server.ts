import type { Context } from "../context";
import { loadMirroredFulfillmentOrders } from "../orders/mirror.server";
import { unshippableReason } from "../orders/orders-to-ship.server";
import { sumAmounts } from "../shipping/money";
import { carrierPerformance, type DeliveredShipment } from "./carrier-performance";
import type { Overview, SpendRow } from "./overview";
import { jsonTextAt } from "../db/sql-json";
import { bound, sqlTemplate } from "../db/sql-template";
import { countryName } from "../locale/places";
import { dayInZone } from "../locale/shop-time";
import { carrierAndService, carrierName, NO_NAMES, type ServiceNames } from "../shipping/service-names";

/**
 * The Shipping overview: what labels cost over a period, where they went, how carriers performed, and what
 * is still waiting to ship. Read from Consign's own database (booked Shipment rows, the order mirror); the
 * same figures feed the page and its CSV export.
 */

/** Shipments delivered in the period with a pickup scan, as tracking sync recorded them, with their service's name. */
async function deliveredShipments(ctx: Pick<Context, "db" | "shop">, from: Date, to: Date): Promise<DeliveredShipment[]> {
  const { db, shop } = ctx;
  const [rows, descriptions] = await Promise.all([
    db.shipment.findMany({
      where: { shop, deliveredAt: { gte: from, lte: to }, inTransitAt: { not: null }, carrierCode: { not: null }, serviceCode: { not: null } },
      select: { carrierCode: true, serviceCode: true, inTransitAt: true, deliveredAt: true },
    }),
    serviceDescriptions(ctx, "deliveredAt", from, to),
  ]);
  return rows.map((row) => ({
    carrierCode: row.carrierCode!,
    serviceCode: row.serviceCode!,
    serviceDescription: descriptions.get(`${row.carrierCode}/${row.serviceCode}`) ?? null,
    inTransitAt: row.inTransitAt!,
    deliveredAt: row.deliveredAt!,
  }));
}

/**
 * The name the Shipping API gave each carrier's service ("carrier/service") on the rates picked for the shop's
 * shipments booked (or delivered) in the period: one grouped read, however many shipments.
 */
async function serviceDescriptions(ctx: Pick<Context, "db" | "shop">, when: "bookedAt" | "deliveredAt", from: Date, to: Date): Promise<Map<string, string>> {
  const [strings, ...values] = sqlTemplate([
    `SELECT "s"."carrierCode" AS "carrierCode", "s"."serviceCode" AS "serviceCode", MAX("q"."serviceDescription") AS "description" `,
    `FROM "Shipment" AS "s" JOIN "Quote" AS "q" ON "q"."shop" = "s"."shop" AND "q"."quoteId" = "s"."selectedQuoteId" WHERE "s"."shop" = `,
    bound(ctx.shop),
    ` AND `,
    `"s"."${when}" >= `,
    bound(from),
    ` AND "s"."${when}" <= `,
    bound(to),
    ` GROUP BY "s"."carrierCode", "s"."serviceCode"`,
  ]);
  const rows = await ctx.db.$queryRaw<Array<{ carrierCode: string | null; serviceCode: string | null; description: string | null }>>(strings, ...values);
  return new Map(rows.flatMap((row) => (row.description === null ? [] : [[`${row.carrierCode}/${row.serviceCode}`, row.description] as const])));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The shop's labels booked in the period: carrier, service, cost and the country each went to, which the database
 * reads from the stored request (a shipment's whole request is kilobytes; a busy shop books tens of thousands).
 */
async function bookedShipments(ctx: Pick<Context, "db" | "shop">, from: Date, to: Date) {
  const [strings, ...values] = sqlTemplate([
    `SELECT "carrierCode", "serviceCode", "shippingCost", "currency", ${jsonTextAt(ctx, `"request"`, ["receiver", "country"])} AS "country" `,
    `FROM "Shipment" WHERE "shop" = `,
    bound(ctx.shop),
    ` AND "bookingStatus" = 'BOOKED' AND "bookedAt" >= `,
    bound(from),
    ` AND "bookedAt" <= `,
    bound(to),
  ]);
  return ctx.db.$queryRaw<
    Array<{ carrierCode: string | null; serviceCode: string | null; shippingCost: string | null; currency: string | null; country: string | null }>
  >(strings, ...values);
}

/** `total / count` to the cent, rounding half up: exact on the decimal strings, as every money figure here. */
export function averageAmount(total: string, count: number): string {
  const [whole = "0", fraction = ""] = total.replace("-", "").split(".");
  const cents = BigInt(whole + fraction.padEnd(2, "0").slice(0, 2));
  const rounded = (cents * 2n + BigInt(count)) / (2n * BigInt(count));
  const text = rounded.toString().padStart(3, "0");
  return `${total.startsWith("-") ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}

type SpendGroup = { label: string; carrierCode: string; serviceCode: string | null; amounts: string[] };

function spendRows(groups: Map<string, SpendGroup>): SpendRow[] {
  return [...groups.entries()]
    .map(([key, group]) => ({
      key,
      label: group.label,
      carrierCode: group.carrierCode,
      serviceCode: group.serviceCode,
      labels: group.amounts.length,
      spend: sumAmounts(group.amounts),
    }))
    .sort((a, b) => Number(b.spend) - Number(a.spend) || a.label.localeCompare(b.label));
}

function add(groups: Map<string, SpendGroup>, key: string, named: Omit<SpendGroup, "amounts">, amount: string): void {
  const group = groups.get(key) ?? { ...named, amounts: [] };
  group.amounts.push(amount);
  groups.set(key, group);
}

/** Orders whose fulfillment orders are held at once while their ages are counted. */
const READ_CHUNK = 2_000;

/** Age buckets of orders waiting to ship, in whole days since the order was placed. */
const AGE_BUCKETS = [
  { label: "Under 1 day", upTo: 1 },
  { label: "1–2 days", upTo: 3 },
  { label: "3–7 days", upTo: 8 },
  { label: "Over 7 days", upTo: Number.POSITIVE_INFINITY },
];

/**
 * The mirror's orders that can ship and have no label booked, by age: their fulfillment orders alone are read (not
 * the whole order), and only those of orders without a booked label, which the database finds.
 */
async function waitingOrders(ctx: Pick<Context, "db" | "shop">, now: Date): Promise<Overview["waiting"]> {
  const { db, shop } = ctx;
  const [strings, ...values] = sqlTemplate([
    `SELECT DISTINCT "s"."orderId" AS "orderId" FROM "Shipment" AS "s" JOIN "MirrorOrder" AS "m" ON "m"."id" = "s"."orderId" WHERE "s"."shop" = `,
    bound(shop),
    ` AND "m"."shop" = `,
    bound(shop),
    ` AND "s"."bookingStatus" IN ('BOOKED', 'BOOKING')`,
  ]);
  const [mirrored, booked] = await Promise.all([
    db.mirrorOrder.findMany({ where: { shop, cancelledAt: null }, select: { id: true, orderCreatedAt: true }, orderBy: { orderCreatedAt: "asc" } }),
    db.$queryRaw<Array<{ orderId: string }>>(strings, ...values),
  ]);
  const labelled = new Set(booked.map((row) => row.orderId));
  const waiting = mirrored.filter((row) => !labelled.has(row.id));
  const ages: number[] = [];
  for (let start = 0; start < waiting.length; start += READ_CHUNK) {
    const chunk = waiting.slice(start, start + READ_CHUNK);
    const fulfillmentOrders = await loadMirroredFulfillmentOrders(
      ctx,
      chunk.map((row) => row.id),
    );
    for (const row of chunk)
      if (unshippableReason({ fulfillmentOrders: fulfillmentOrders.get(row.id) ?? [] }) === null)
        ages.push(Math.floor((now.getTime() - row.orderCreatedAt.getTime()) / DAY_MS));
  }
  return {
    orders: ages.length,
    oldestDays: ages.length > 0 ? Math.max(...ages) : null,
    byAge: AGE_BUCKETS.map((bucket, index) => ({
      label: bucket.label,
      orders: ages.filter((age) => age < bucket.upTo && age >= (AGE_BUCKETS[index - 1]?.upTo ?? 0)).length,
    })),
  };
}

/**
 * The overview of the last `days`, carriers and services by the names List Services gives them (`names`;
 * their codes stay beside them for the CSV), countries by name.
 */
export async function shippingOverview(ctx: Pick<Context, "db" | "shop" | "now">, days: number, names: ServiceNames = NO_NAMES): Promise<Overview> {
  const now = ctx.now();
  const from = new Date(now.getTime() - days * DAY_MS);
  const [rows, descriptions, waiting, delivered] = await Promise.all([
    bookedShipments(ctx, from, now),
    serviceDescriptions(ctx, "bookedAt", from, now),
    waitingOrders(ctx, now),
    deliveredShipments(ctx, from, now),
  ]);

  const byCarrier = new Map<string, SpendGroup>();
  const byService = new Map<string, SpendGroup>();
  const byCountry = new Map<string, number>();
  const amounts: string[] = [];
  const currencies = new Set<string>();
  for (const row of rows) {
    const carrier = row.carrierCode ?? "Unknown carrier";
    const service = row.serviceCode ?? "Unknown service";
    const quoted = { carrierCode: carrier, serviceCode: service, serviceDescription: descriptions.get(`${carrier}/${service}`) ?? null };
    const amount = row.shippingCost ?? "0";
    if (row.currency) currencies.add(row.currency);
    amounts.push(amount);
    add(byCarrier, carrier, { label: carrierName(names, carrier), carrierCode: carrier, serviceCode: null }, amount);
    add(byService, `${carrier}/${service}`, { label: carrierAndService(names, quoted), carrierCode: carrier, serviceCode: service }, amount);
    const country = row.country ?? "Unknown";
    byCountry.set(country, (byCountry.get(country) ?? 0) + 1);
  }
  const totalSpend = sumAmounts(amounts);
  return {
    period: { days, from: from.toISOString(), to: now.toISOString() },
    // Consign books in the shop's currency; with several, the figures are sums of their amounts as written.
    currency: currencies.size === 1 ? [...currencies][0]! : null,
    labelsBought: rows.length,
    totalSpend,
    averageCost: rows.length > 0 ? averageAmount(totalSpend, rows.length) : null,
    byCarrier: spendRows(byCarrier),
    byService: spendRows(byService),
    byCountry: [...byCountry.entries()]
      .map(([country, labels]) => ({ country, name: countryName(country) || country, labels }))
      .sort((a, b) => b.labels - a.labels || a.name.localeCompare(b.name)),
    performance: carrierPerformance(delivered, names),
    waiting,
  };
}

/**
 * The overview as CSV: one row per figure, with the section it belongs to, so a spreadsheet can pivot it.
 * Names as the page shows them, the carrier, service and country codes in their own columns beside them, and
 * the period's days in the shop's time zone.
 */
export function overviewCsv(overview: Overview, timeZone: string): string {
  const currency = overview.currency ?? "";
  const rows: Array<Array<string | number>> = [["Section", "Name", "Carrier code", "Service code", "Country code", "Labels", "Amount", "Currency"]];
  const period = `Last ${overview.period.days} days (${dayInZone(overview.period.from, timeZone)} to ${dayInZone(overview.period.to, timeZone)})`;
  rows.push(["Period", period, "", "", "", "", "", ""]);
  rows.push(["Total", "Labels bought", "", "", "", overview.labelsBought, overview.totalSpend, currency]);
  rows.push(["Total", "Average cost per shipment", "", "", "", "", overview.averageCost ?? "", currency]);
  for (const row of overview.byCarrier) rows.push(["Spend by carrier", row.label, row.carrierCode, "", "", row.labels, row.spend, currency]);
  for (const row of overview.byService) rows.push(["Spend by service", row.label, row.carrierCode, row.serviceCode ?? "", "", row.labels, row.spend, currency]);
  for (const row of overview.byCountry) rows.push(["Shipments by country", row.name, "", "", row.country, row.labels, "", ""]);
  for (const row of overview.performance) {
    const rate = row.onTimeRate === null ? "" : row.onTimeRate.toFixed(3);
    rows.push(["On-time rate by carrier", row.carrier, row.carrierCode, "", "", row.delivered, rate, "ratio"]);
    rows.push(["Transit days by carrier", row.carrier, row.carrierCode, "", "", row.delivered, row.averageTransitDays.toFixed(1), "days"]);
  }
  for (const row of overview.waiting.byAge) rows.push(["Orders waiting to ship", row.label, "", "", "", row.orders, "", ""]);
  return `${rows.map((row) => row.map((cell) => csvCell(String(cell))).join(",")).join("\r\n")}\r\n`;
}

function csvCell(value: string): string {
  // Quote when needed, and defuse spreadsheet formulas in text that came from outside (carrier, service names).
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
