import type { Context } from "../context";
import { loadMirroredFulfillmentOrders } from "../orders/mirror.server";
import { unshippableReason } from "../orders/orders-to-ship.server";
import { sumAmounts } from "../shipping/money";
import { carrierPerformance, type DeliveredShipment } from "./carrier-performance";
import type { Overview, SpendRow } from "./overview";
import { readByIds } from "../db/id-lists.server";
import { jsonTextAt } from "../db/sql-json";
import { pickedQuote } from "../shipping/stored-rates";
import { decimalSum, decimalSumText } from "../db/sql-money";
import { bound, sqlTemplate } from "../db/sql-template";
import { countryName } from "../locale/places";
import { dayInZone } from "../locale/shop-time";
import { carrierAndService, carrierName, NO_NAMES, type ServiceNames } from "../shipping/service-names";

/**
 * The Shipping overview: what labels cost over a period, where they went, how carriers performed, and what
 * is still waiting to ship. Read from Consign's own database (booked Shipment rows, the order mirror); the
 * same figures feed the page and its CSV export.
 */

/** Shipments delivered in the period with a pickup scan, as tracking sync recorded them, with the rate each was booked at. */
async function deliveredShipments(ctx: Pick<Context, "db" | "shop">, from: Date, to: Date) {
  return ctx.db.shipment.findMany({
    where: { shop: ctx.shop, deliveredAt: { gte: from, lte: to }, inTransitAt: { not: null }, carrierCode: { not: null }, serviceCode: { not: null } },
    select: { id: true, carrierCode: true, serviceCode: true, selectedQuoteId: true, inTransitAt: true, deliveredAt: true },
  });
}

/**
 * The name the Shipping API gave each carrier's service ("carrier/service"), read from the picked rate of one
 * shipment of each: `shipmentIds` holds one shipment a service, so this is one small read however many labels
 * the period holds.
 */
async function serviceDescriptions(ctx: Pick<Context, "db" | "shop">, shipmentIds: ReadonlySet<string>): Promise<Map<string, string>> {
  const shipments = await readByIds(ctx, [...shipmentIds], (chunk) =>
    ctx.db.shipment.findMany({ where: { shop: ctx.shop, id: { in: chunk } }, select: { rates: true, quotedAt: true, selectedQuoteId: true } }),
  );
  const picked = shipments.flatMap((shipment) => pickedQuote(shipment) ?? []);
  return new Map(picked.map((quote) => [`${quote.carrierCode}/${quote.serviceCode}`, quote.serviceDescription]));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The shop's labels booked in the period, counted and summed by the database per carrier, service, currency and
 * the country they went to (read from each stored request): a few rows, however many labels a busy shop booked.
 */
async function bookedGroups(ctx: Pick<Context, "db" | "shop">, from: Date, to: Date) {
  const spend = decimalSum(ctx, `COALESCE("shippingCost", '0')`);
  const [strings, ...values] = sqlTemplate([
    `SELECT "carrierCode", "serviceCode", "currency", ${jsonTextAt(ctx, `"request"`, ["receiver", "country"])} AS "country", `,
    `COUNT(*) AS "labels", ${spend.sum} AS "spend", ${spend.decimals} AS "decimals", `,
    `MAX(CASE WHEN "selectedQuoteId" IS NOT NULL THEN "id" END) AS "namedBy" FROM "Shipment" WHERE "shop" = `,
    bound(ctx.shop),
    ` AND "bookingStatus" = 'BOOKED' AND "bookedAt" >= `,
    bound(from),
    ` AND "bookedAt" <= `,
    bound(to),
    ` GROUP BY 1, 2, 3, 4`,
  ]);
  const rows = await ctx.db.$queryRaw<
    Array<{
      carrierCode: string | null;
      serviceCode: string | null;
      currency: string | null;
      country: string | null;
      labels: number | bigint;
      spend: string;
      decimals: number | bigint;
      /** A shipment of the group with a picked rate, whose rate names its service. */
      namedBy: string | null;
    }>
  >(strings, ...values);
  return rows.map((row) => ({
    ...row,
    labels: Number(row.labels),
    spend: decimalSumText(ctx, row.spend, row.decimals),
  }));
}

/** `total / count` to the cent, rounding half up: exact on the decimal strings, as every money figure here. */
export function averageAmount(total: string, count: number): string {
  const [whole = "0", fraction = ""] = total.replace("-", "").split(".");
  const cents = BigInt(whole + fraction.padEnd(2, "0").slice(0, 2));
  const rounded = (cents * 2n + BigInt(count)) / (2n * BigInt(count));
  const text = rounded.toString().padStart(3, "0");
  return `${total.startsWith("-") ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}

type SpendGroup = { label: string; carrierCode: string; serviceCode: string | null; labels: number; amounts: string[] };

function spendRows(groups: Map<string, SpendGroup>): SpendRow[] {
  return [...groups.entries()]
    .map(([key, group]) => ({
      key,
      label: group.label,
      carrierCode: group.carrierCode,
      serviceCode: group.serviceCode,
      labels: group.labels,
      spend: sumAmounts(group.amounts),
    }))
    .sort((a, b) => Number(b.spend) - Number(a.spend) || a.label.localeCompare(b.label));
}

/** Adds labels and what they cost to their group, made (and named: `named` is called once a group) on its first. */
function add(groups: Map<string, SpendGroup>, key: string, named: () => Omit<SpendGroup, "amounts" | "labels">, labels: number, amount: string): void {
  const group = groups.get(key);
  if (group) {
    group.labels += labels;
    group.amounts.push(amount);
  } else groups.set(key, { ...named(), labels, amounts: [amount] });
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
  // From the mirror's side: one look-up by (shop, orderId) an order, not a pass over every label the shop booked.
  const [strings, ...values] = sqlTemplate([
    `SELECT "m"."id" AS "orderId" FROM "MirrorOrder" AS "m" WHERE "m"."shop" = `,
    bound(shop),
    ` AND "m"."cancelledAt" IS NULL AND EXISTS (SELECT 1 FROM "Shipment" AS "s" WHERE "s"."shop" = "m"."shop" AND "s"."orderId" = "m"."id" AND "s"."bookingStatus" IN ('BOOKED', 'BOOKING'))`,
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
  const [groups, waiting, deliveredRows] = await Promise.all([bookedGroups(ctx, from, now), waitingOrders(ctx, now), deliveredShipments(ctx, from, now)]);
  // One picked rate per service ("carrier/service") booked or delivered in the period names it.
  const naming = new Map<string, string>();
  const nameBy = (carrierCode: string | null, serviceCode: string | null, shipmentId: string | null) => {
    const key = `${carrierCode}/${serviceCode}`;
    if (shipmentId !== null && !naming.has(key)) naming.set(key, shipmentId);
  };
  for (const group of groups) nameBy(group.carrierCode, group.serviceCode, group.namedBy);
  for (const row of deliveredRows) nameBy(row.carrierCode, row.serviceCode, row.selectedQuoteId === null ? null : row.id);
  const descriptions = await serviceDescriptions(ctx, new Set(naming.values()));
  const delivered: DeliveredShipment[] = deliveredRows.map((row) => ({
    carrierCode: row.carrierCode!,
    serviceCode: row.serviceCode!,
    serviceDescription: descriptions.get(`${row.carrierCode}/${row.serviceCode}`) ?? null,
    inTransitAt: row.inTransitAt!,
    deliveredAt: row.deliveredAt!,
  }));

  const byCarrier = new Map<string, SpendGroup>();
  const byService = new Map<string, SpendGroup>();
  const byCountry = new Map<string, number>();
  const currencies = new Set<string>();
  let labelsBought = 0;
  for (const group of groups) {
    const carrier = group.carrierCode ?? "Unknown carrier";
    const service = group.serviceCode ?? "Unknown service";
    if (group.currency) currencies.add(group.currency);
    labelsBought += group.labels;
    add(byCarrier, carrier, () => ({ label: carrierName(names, carrier), carrierCode: carrier, serviceCode: null }), group.labels, group.spend);
    add(
      byService,
      `${carrier}/${service}`,
      () => ({
        label: carrierAndService(names, { carrierCode: carrier, serviceCode: service, serviceDescription: descriptions.get(`${carrier}/${service}`) ?? null }),
        carrierCode: carrier,
        serviceCode: service,
      }),
      group.labels,
      group.spend,
    );
    const country = group.country ?? "Unknown";
    byCountry.set(country, (byCountry.get(country) ?? 0) + group.labels);
  }
  const carrierRows = spendRows(byCarrier);
  // Every amount is in exactly one carrier's group: the total is theirs summed.
  const totalSpend = sumAmounts(carrierRows.map((row) => row.spend));
  return {
    period: { days, from: from.toISOString(), to: now.toISOString() },
    // Consign books in the shop's currency; with several, the figures are sums of their amounts as written.
    currency: currencies.size === 1 ? [...currencies][0]! : null,
    labelsBought,
    totalSpend,
    averageCost: labelsBought > 0 ? averageAmount(totalSpend, labelsBought) : null,
    byCarrier: carrierRows,
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
