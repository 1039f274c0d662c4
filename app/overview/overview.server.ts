import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { Context } from "../context";
import { loadMirroredOrders } from "../orders/mirror.server";
import { unshippableReason } from "../orders/orders-to-ship.server";
import { sumAmounts } from "../shipping/money";
import { carrierPerformance, type DeliveredShipment } from "./carrier-performance";
import type { Overview, SpendRow } from "./overview";
import { readByIds } from "../db/id-lists.server";
import { countryName } from "../locale/places";
import { dayInZone } from "../locale/shop-time";
import { carrierAndService, carrierName, NO_NAMES, type ServiceNames } from "../shipping/service-names";

/**
 * The Shipping overview: what labels cost over a period, where they went, how carriers performed, and what
 * is still waiting to ship. Read from Consign's own database (booked Shipment rows, the order mirror); the
 * same figures feed the page and its CSV export.
 */

/** Shipments delivered in the period with a pickup scan, as tracking sync recorded them, with their service's name. */
async function deliveredShipments(db: PrismaClient, shop: string, from: Date, to: Date): Promise<DeliveredShipment[]> {
  const rows = await db.shipment.findMany({
    where: { shop, deliveredAt: { gte: from, lte: to }, inTransitAt: { not: null }, carrierCode: { not: null }, serviceCode: { not: null } },
    select: { carrierCode: true, serviceCode: true, selectedQuoteId: true, inTransitAt: true, deliveredAt: true },
  });
  const quoteIds = rows.flatMap((row) => (row.selectedQuoteId === null ? [] : [row.selectedQuoteId]));
  const names = new Map(
    (
      await readByIds({ db }, quoteIds, (chunk) =>
        db.quote.findMany({ where: { shop, quoteId: { in: chunk } }, select: { quoteId: true, serviceDescription: true } }),
      )
    ).map((quote) => [quote.quoteId, quote.serviceDescription]),
  );
  return rows.map((row) => ({
    carrierCode: row.carrierCode!,
    serviceCode: row.serviceCode!,
    serviceDescription: row.selectedQuoteId === null ? null : (names.get(row.selectedQuoteId) ?? null),
    inTransitAt: row.inTransitAt!,
    deliveredAt: row.deliveredAt!,
  }));
}

const DAY_MS = 24 * 60 * 60 * 1000;
const Destination = z.object({ receiver: z.object({ country: z.string() }) });

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

/** Age buckets of orders waiting to ship, in whole days since the order was placed. */
const AGE_BUCKETS = [
  { label: "Under 1 day", upTo: 1 },
  { label: "1–2 days", upTo: 3 },
  { label: "3–7 days", upTo: 8 },
  { label: "Over 7 days", upTo: Number.POSITIVE_INFINITY },
];

async function waitingOrders(db: PrismaClient, shop: string, now: Date): Promise<Overview["waiting"]> {
  const [mirrored, booked] = await Promise.all([
    db.mirrorOrder.findMany({ where: { shop, cancelledAt: null }, select: { id: true }, orderBy: { orderCreatedAt: "asc" } }),
    db.shipment.findMany({ where: { shop, bookingStatus: { in: ["BOOKED", "BOOKING"] } }, select: { orderId: true }, distinct: ["orderId"] }),
  ]);
  const labelled = new Set(booked.map((row) => row.orderId));
  const ages: number[] = [];
  const ids = mirrored.map((row) => row.id).filter((id) => !labelled.has(id));
  for (let start = 0; start < ids.length; start += 500) {
    for (const order of await loadMirroredOrders({ db, shop }, ids.slice(start, start + 500))) {
      if (unshippableReason(order) === null) ages.push(Math.floor((now.getTime() - Date.parse(order.createdAt)) / DAY_MS));
    }
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
  const { db, shop } = ctx;
  const now = ctx.now();
  const from = new Date(now.getTime() - days * DAY_MS);
  const [rows, waiting, delivered] = await Promise.all([
    db.shipment.findMany({
      where: { shop, bookingStatus: "BOOKED", bookedAt: { gte: from, lte: now } },
      select: { carrierCode: true, serviceCode: true, shippingCost: true, currency: true, request: true, selectedQuoteId: true },
    }),
    waitingOrders(db, shop, now),
    deliveredShipments(db, shop, from, now),
  ]);
  const quoteIds = rows.flatMap((row) => (row.selectedQuoteId === null ? [] : [row.selectedQuoteId]));
  const descriptions = new Map(
    (
      await readByIds({ db }, quoteIds, (chunk) =>
        db.quote.findMany({ where: { shop, quoteId: { in: chunk } }, select: { carrierCode: true, serviceCode: true, serviceDescription: true } }),
      )
    ).map((quote) => [`${quote.carrierCode}/${quote.serviceCode}`, quote.serviceDescription]),
  );

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
    const destination = Destination.safeParse(JSON.parse(row.request));
    const country = destination.success ? destination.data.receiver.country : "Unknown";
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
