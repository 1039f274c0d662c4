import { z } from "zod";
import type { Surcharge } from "../../shipping-api/contract";
import type { Context } from "../context";
import { loadSettings } from "../settings/account.server";
import { QuotingInputError } from "./errors";
import { compareAmounts, sumAmounts } from "../shipping/money";
import { orderLabel } from "./quote-run.server";
import { pricedRateOf, type PricedRate } from "./rate-fields";
import { observedTransitLookup } from "../tracking/tracking-views.server";
import type { ObservedTransit } from "../tracking/transit-times";
import { describeTransit, type TransitStats } from "../tracking/transit-times";
import { describeRule } from "./rate-rule";
import { billedWeight, deliverySpeed, formatWeight, surchargesText } from "./rate-display";
import { ratesTableHeight } from "./rates-table-size";
import { filterCounts, isFiltered, matchesFilter, type FilterCounts, type OrderFacts, type RatesFilter } from "./rates-filter";
import { loadServiceNames } from "./service-names.server";
import { compareWithPaid, NO_FLAGS, type ChoiceComparison, type PaidShipping } from "./customer-choice";
import { paidShippingByOrder } from "./customer-choice.server";
import { currentPackages, packingFacts, type PackageChoice, type PackingFacts } from "./packages";
import { linesOfShipments } from "../orders/shipment-lines";
import type { MirroredOrder } from "../orders/order-node";
import { loadOrdersWithCustoms } from "../orders/customs.server";
import { placeName } from "../locale/places";
import { productName, shipsInParcel } from "../orders/shipment-mapping";
import type { ShopifyWeightUnit } from "../orders/weights";
import { loadShopSummary } from "../settings/shop-profile.server";
import { carrierName, serviceName, type ServiceNames } from "../shipping/service-names";
import { isBooked } from "./rate-pick.server";
import { orderNumber } from "../shopify/gid";
import { carrierTotals, currencyTotals, type CarrierTotal, type CurrencyTotal } from "./totals";
import { jsonArrayElementWhere, jsonFieldsEqual } from "../db/sql-json";
import { QUOTE_VALIDITY_MS, storedQuotes, type StoredQuote } from "../shipping/stored-rates";
import { bound, sqlTemplate } from "../db/sql-template";
import { databaseOf } from "../db/db-client.server";

/**
 * What the rates page shows for one run: progress, then per order its shipments with every rate, the pick
 * and why, what blocks or failed and what to do, whole-run totals by carrier, and which shipments are ready
 * for a batch or need a re-quote. Orders are paged in the merchant's order; totals and the id lists cover
 * the whole run.
 */

export const ORDERS_PER_PAGE = 50;

const describeObserved = (stats: TransitStats | null) => (stats ? describeTransit(stats) : null);

export interface RateOption extends PricedRate {
  /** "usually 2–3 days (41 deliveries)" from the shop's own deliveries of this service to this zone, when enough. */
  observedTransit: string | null;
  /** The observed transit, else the speed class judged by the service's name. */
  speed: string;
  /** "3 lb billed (dimensional)" */
  billedWeight: string;
  surcharges: Surcharge[];
  expiresAt: string;
  expired: boolean;
}

export interface ShipmentView {
  id: string;
  fulfillmentOrderId: string;
  destination: string;
  country: string;
  /** Ships to another country than it ships from. */
  international: boolean;
  /** "2.5 lb": the pieces' weight with its unit. */
  weight: string;
  weightUnit: string;
  /** The packages it ships in: as the merchant set them, else the default box with the whole weight. */
  packages: PackageChoice[];
  /** Its items that go in the parcel and the packaging every box adds: what the packages editor puts in each box. */
  packing: PackingFacts;
  status: "PENDING" | "QUOTED" | "FAILED";
  /** Why quoting (or the last re-quote) failed, with what to do. */
  error: string | null;
  selectedQuoteId: number | null;
  selectionReason: string | null;
  /** How it was packed when not simply as Settings say: a product preset's or a shipping rule's box, what rules changed. */
  packingNote: string | null;
  selectedBy: "RULE" | "MERCHANT" | null;
  /** The picked rate expired: re-quote before booking. */
  selectedExpired: boolean;
  /** Why the rate cannot change here (in a batch, booked), or null. */
  locked: string | null;
  /** Quoted, picked, unexpired and free to go into a batch. */
  ready: boolean;
  /** The picked rate beside the shipping the customer paid for: slower or cheaper, in words. */
  choice: ChoiceComparison;
  /**
   * The picked rate alone (none before a pick): the page's compact line. Every rate of the shipment is read when
   * its order is expanded (loadShipmentRates), so a page of 50 orders does not carry hundreds of rates.
   */
  options: RateOption[];
  /** How many rates the shipment has. */
  rateCount: number;
  /** How tall the table of every rate will be (px), kept while it loads (rates-table-size.ts). */
  ratesHeight: number;
}

export interface OrderView {
  orderId: string;
  /** The number in the order's id: its single-booking page is /app/orders/<number>/book. */
  orderNumber: string;
  orderName: string;
  /** The shipping the customer chose and paid for at checkout, when the order has a shipping line. */
  paidShipping: PaidShipping | null;
  shipments: ShipmentView[];
  /** Why (part of) the order is not quoted (BlockIssue of quote-run.server.ts). */
  blocked: Array<{ code: string; message: string }>;
  /** Every shipment of this order was quoted again in a later run. */
  movedToLaterRun: boolean;
  /**
   * Blocked for what a line lacks (an HS code, an origin, a weight): those lines, which the merchant can complete
   * here for this order. `fields` says which the order was blocked for.
   */
  lineFixes: LineFixes | null;
}

export interface LineFixes {
  fields: { customs: boolean; weight: boolean };
  /** The unit a weight is typed in: the shop's. */
  weightUnit: ShopifyWeightUnit;
  lines: Array<{ lineId: string; product: string; hsCode: string | null; countryOfOrigin: string | null; weight: string | null }>;
}

export interface QuoteRunView {
  run: {
    id: string;
    status: RunStatus;
    startedAt: string;
    finishedAt: string | null;
    shipmentsTotal: number;
    shipmentsDone: number;
    error: string | null;
    orderCount: number;
  };
  rule: string;
  /** How many shipping rules the shop has: they pick before the rule (app/quoting/shipping-rules.ts). */
  shippingRules: number;
  /** Carrier and service names from List Services (codes and descriptions where it cannot be read). */
  names: ServiceNames;
  /** The shop's box names, for repacking a shipment. */
  boxes: string[];
  filter: RatesFilter;
  /** Orders each filter shows (over the whole run). */
  filterCounts: FilterCounts;
  /** Orders the filter shows, over all pages. */
  filteredOrderCount: number;
  /** The ready shipments' picked rates summed per currency: the grand total of what goes into a batch. */
  readyTotals: CurrencyTotal[];
  counts: { quoted: number; failed: number; pending: number; blockedOrders: number; expired: number; ready: number };
  totals: CarrierTotal[];
  page: number;
  pages: number;
  orders: OrderView[];
}

const StoredRequest = z.object({
  sender: z.object({ country: z.string() }),
  receiver: z.object({ city: z.string(), state: z.string().nullish(), country: z.string() }),
  weightUnit: z.string(),
  pieces: z.array(z.object({ weight: z.string() })).min(1),
});
const OrderIds = z.array(z.string());
const Issues = z.array(z.object({ code: z.string(), message: z.string() }));

function lockedReason(shipment: { bookingStatus: string; batch: { name: string } | null }): string | null {
  if (isBooked(shipment.bookingStatus)) return "Booked";
  return shipment.batch ? `In batch “${shipment.batch.name}”` : null;
}

export type RunStatus = "RUNNING" | "COMPLETED" | "FAILED";

function runStatus(value: string): RunStatus {
  return value === "COMPLETED" || value === "FAILED" ? value : "RUNNING";
}

function quoteStatus(value: string): ShipmentView["status"] {
  return value === "QUOTED" || value === "FAILED" ? value : "PENDING";
}

/**
 * Every shipment of a run with its pick, sorted into ready (quoted, picked, unexpired, free to go into a batch),
 * expired (picked rate expired, free) and failed, as of `now`: what the page counts and totals, and what its
 * whole-run actions (Create batch, Re-quote expired or failed) act on, read on the server so the page need not
 * carry a run's thousands of ids.
 */
async function runShipments(ctx: Pick<Context, "db" | "shop">, runId: string, now: Date, { withDestination = false } = {}) {
  // One statement, its rows small: the shipments with their batch's name and their picked rate's fields (the element
  // of the shipment's rates whose quoteId its pick names, found by the database), its expiry (quoted 30 days ago or
  // earlier) judged by the database, and (for the page's International filter) whether each leaves its country,
  // compared by the database from the stored request. Every row read through Prisma costs tens of microseconds: a
  // run of 5,000 orders read as three lists (shipments, picked rates, destinations) took three times as long.
  const pick = jsonArrayElementWhere(ctx, {
    column: `"s"."rates"`,
    key: "quoteId",
    equals: `"s"."selectedQuoteId"`,
    alias: "q",
    fields: ["carrierCode", "serviceCode", "serviceDescription", "currency", "totalAmount"],
  });
  const { field } = pick;
  const international = withDestination
    ? `CASE WHEN ${jsonFieldsEqual(ctx, `"s"."request"`, ["sender", "country"], ["receiver", "country"])} THEN 0 ELSE 1 END`
    : `0`;
  // On PostgreSQL the statement is read in two halves at once, each shipment in one by its id's last character, on
  // two connections: parsing the rates and requests is most of a big run's page (140 ms of the server at 5,000
  // orders), and the page waits on it while the server has a second core.
  const halves = databaseOf(ctx) === "postgresql" ? [[` AND ascii(right("s"."id", 1)) % 2 = 0`], [` AND ascii(right("s"."id", 1)) % 2 = 1`]] : [[]];
  const statement = (half: readonly string[]) =>
    sqlTemplate([
      `SELECT "s"."id" AS "id", "s"."orderId" AS "orderId", "s"."quoteStatus" AS "quoteStatus", "s"."quoteError" AS "quoteError", `,
      `"s"."selectedQuoteId" AS "selectedQuoteId", "s"."bookingStatus" AS "bookingStatus", "b"."name" AS "batchName", ${international} AS "international", `,
      `${field("quoteId")} AS "pickQuoteId", ${field("carrierCode")} AS "carrierCode", ${field("serviceCode")} AS "serviceCode", `,
      `${field("serviceDescription")} AS "serviceDescription", ${field("currency")} AS "currency", ${field("totalAmount")} AS "totalAmount", `,
      `CASE WHEN "s"."quotedAt" <= `,
      bound(new Date(now.getTime() - QUOTE_VALIDITY_MS)),
      ` THEN 1 ELSE 0 END AS "pickExpired" FROM "Shipment" AS "s" LEFT JOIN "Batch" AS "b" ON "b"."id" = "s"."batchId" `,
      `${pick.join} WHERE "s"."runId" = `,
      bound(runId),
      ` AND "s"."shop" = `,
      bound(ctx.shop),
      ...half,
    ]);
  const rows = (
    await Promise.all(
      halves.map((half) => {
        const [strings, ...values] = statement(half);
        return ctx.db.$queryRaw<RunShipmentRow[]>(strings, ...values);
      }),
    )
  ).flat();
  const all = rows.map((row) => {
    const picked = row.pickQuoteId !== null && row.quoteStatus === "QUOTED";
    return {
      id: row.id,
      orderId: row.orderId,
      quoteStatus: row.quoteStatus,
      quoteError: row.quoteError,
      selectedQuoteId: row.selectedQuoteId === null ? null : Number(row.selectedQuoteId),
      bookingStatus: row.bookingStatus,
      batch: row.batchName === null ? null : { name: row.batchName },
      international: Number(row.international) === 1,
      pick: picked
        ? {
            quoteId: Number(row.pickQuoteId),
            carrierCode: row.carrierCode!,
            serviceCode: row.serviceCode!,
            serviceDescription: row.serviceDescription!,
            currency: row.currency!,
            totalAmount: row.totalAmount!,
            expired: Number(row.pickExpired) === 1,
          }
        : undefined,
      /** A rate's currency, picked or not: what the rule's description is written in. */
      currency: row.currency,
    };
  });
  const expired = all.filter((shipment) => shipment.pick?.expired === true && !lockedReason(shipment));
  const ready = all.filter((shipment) => shipment.pick?.expired === false && !lockedReason(shipment));
  const failed = all.filter((shipment) => shipment.quoteStatus === "FAILED");
  return { all, ready, expired, failed };
}

interface RunShipmentRow {
  id: string;
  orderId: string;
  quoteStatus: string;
  quoteError: string | null;
  selectedQuoteId: number | bigint | null;
  bookingStatus: string;
  batchName: string | null;
  international: number | bigint;
  pickQuoteId: number | bigint | null;
  carrierCode: string | null;
  serviceCode: string | null;
  serviceDescription: string | null;
  currency: string | null;
  totalAmount: string | null;
  pickExpired: number | bigint;
}

/** Which of a run's shipments a whole-run action takes: ready ones (Create batch), expired or failed ones (Re-quote). */
export type RunShipmentKind = "ready" | "expired" | "failed";

/**
 * The ids of the run's shipments of that kind as of `ctx.now()`, without those in `except` (ready shipments the
 * merchant left out of the batch); none for a run that is not this shop's.
 */
export async function runShipmentIds(
  ctx: Pick<Context, "db" | "shop" | "now">,
  runId: string,
  kind: RunShipmentKind,
  except: readonly string[] = [],
): Promise<string[]> {
  const left = new Set(except);
  const sorted = await runShipments(ctx, runId, ctx.now());
  return sorted[kind].map((shipment) => shipment.id).filter((id) => !left.has(id));
}

/**
 * Loads one page of a run; it only reads (a run a restart cut short is queued again at start-up). Rates are
 * expired as of `ctx.now()`. Throws QuotingInputError 404 for a run that is not this shop's.
 */
export async function loadQuoteRunView(
  ctx: Context,
  runId: string,
  { page = 1, filter = {} }: { page?: number; filter?: RatesFilter } = {},
): Promise<QuoteRunView> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const run = await db.quoteRun.findFirst({ where: { id: runId, shop } });
  if (!run) throw new QuotingInputError(404, "runId", "No such quote run in this store.");

  const orderIds = OrderIds.parse(JSON.parse(run.orderIds));
  // Without a filter the page's orders are known now, so its own reads start with the run's: on PostgreSQL the page
  // waits on the server, not on the app, and the run's statement at 5,000 orders takes it most of 150 ms.
  const upFront = isFiltered(filter) ? null : readPage(ctx, runId, pageOf(orderIds, page));
  upFront?.catch(() => undefined); // awaited below, unless the run's own reads fail first

  const [settings, names, { all, ready, expired: expiredIds, failed }, blockedIds, shippingRules, paid, observed] = await Promise.all([
    loadSettings(ctx),
    loadServiceNames(ctx),
    // Where each shipment goes (the International filter) too: the page reads it, the run's whole-run actions
    // (runShipmentIds) do not.
    runShipments(ctx, runId, now, { withDestination: true }),
    db.blockedOrder.findMany({ where: { runId }, select: { orderId: true } }),
    db.shippingRule.count({ where: { shop } }),
    paidShippingByOrder(ctx, orderIds),
    observedTransitLookup(ctx),
  ]);

  // What the filters look at, for every order of the run, so they work across pages.
  const blockedOrderIds = new Set(blockedIds.map((row) => row.orderId));
  const expiredSet = new Set(expiredIds.map((shipment) => shipment.id));
  const facts = new Map<string, OrderFacts>(
    orderIds.map((orderId) => [orderId, { orderId, attention: blockedOrderIds.has(orderId), international: false, carriers: [] }]),
  );
  for (const shipment of all) {
    const order = facts.get(shipment.orderId);
    if (!order) continue;
    const pick = shipment.pick;
    facts.set(shipment.orderId, {
      ...order,
      attention:
        order.attention ||
        shipment.quoteStatus === "FAILED" ||
        shipment.quoteError !== null ||
        expiredSet.has(shipment.id) ||
        (pick !== undefined && compareWithPaid(pick, paid.get(shipment.orderId) ?? null).flag !== null),
      international: order.international || shipment.international,
      carriers: pick ? [...order.carriers, pick.carrierCode] : order.carriers,
    });
  }
  const filteredIds = upFront ? orderIds : orderIds.filter((orderId) => matchesFilter(facts.get(orderId)!, filter));
  const { current, pages, pageIds } = pageOf(filteredIds, page);
  const { shipments: pageShipments, blocked: pageBlocked, linesOf, lineFixes } = await (upFront ?? readPage(ctx, runId, { pageIds }));

  const shipmentViews = new Map<string, ShipmentView[]>();
  for (const shipment of pageShipments) {
    const request = StoredRequest.parse(JSON.parse(shipment.request));
    const receiver = request.receiver;
    const options = rateOptions(storedQuotes(shipment), request.weightUnit, observed, now);
    const pick = options.find((option) => option.quoteId === shipment.selectedQuoteId);
    const locked = lockedReason(shipment);
    const view: ShipmentView = {
      id: shipment.id,
      fulfillmentOrderId: shipment.fulfillmentOrderId,
      destination: placeName({ city: receiver.city, provinceCode: receiver.state, countryCode: receiver.country }),
      country: receiver.country,
      international: request.sender.country !== receiver.country,
      weight: formatWeight(sumAmounts(request.pieces.map((piece) => piece.weight)), request.weightUnit),
      weightUnit: request.weightUnit,
      packages: currentPackages(shipment.packages, request, settings.defaultBox),
      packing: packingFacts(linesOf.get(shipment.id) ?? [], settings.packagingWeight),
      status: quoteStatus(shipment.quoteStatus),
      error: shipment.quoteError,
      selectedQuoteId: pick ? pick.quoteId : null,
      selectionReason: pick ? shipment.selectionReason : null,
      packingNote: shipment.packingNote,
      selectedBy: pick ? (shipment.selectedBy === "MERCHANT" ? "MERCHANT" : "RULE") : null,
      selectedExpired: pick?.expired ?? false,
      locked,
      ready: shipment.quoteStatus === "QUOTED" && pick !== undefined && !pick.expired && locked === null,
      choice: pick ? compareWithPaid(pick, paid.get(shipment.orderId) ?? null) : NO_FLAGS,
      options: pick ? [pick] : [],
      rateCount: options.length,
      ratesHeight: ratesTableHeight(
        options.map((option) => ({
          carrier: carrierName(names, option.carrierCode),
          service: serviceName(names, option),
          speed: option.observedTransit ? null : option.speed,
          surcharges: surchargesText(option.surcharges, option.currency),
          expired: option.expired,
        })),
      ),
    };
    shipmentViews.set(shipment.orderId, [...(shipmentViews.get(shipment.orderId) ?? []), view]);
  }
  const blockedByOrder = new Map(pageBlocked.map((row) => [row.orderId, row]));
  const orders = pageIds.map((orderId): OrderView => {
    const shipments = shipmentViews.get(orderId) ?? [];
    const blocked = blockedByOrder.get(orderId);
    return {
      orderId,
      orderNumber: orderNumber(orderId),
      paidShipping: paid.get(orderId) ?? null,
      orderName: blocked?.orderName ?? pageShipments.find((shipment) => shipment.orderId === orderId)?.orderName ?? orderLabel(orderId),
      shipments,
      blocked: blocked ? Issues.parse(JSON.parse(blocked.issues)) : [],
      movedToLaterRun: shipments.length === 0 && !blocked,
      lineFixes: lineFixes.get(orderId) ?? null,
    };
  });

  return {
    run: {
      id: run.id,
      status: runStatus(run.status),
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      shipmentsTotal: run.shipmentsTotal,
      shipmentsDone: run.shipmentsDone,
      error: run.error,
      orderCount: orderIds.length,
    },
    rule: describeRule(settings.rateRule, { names, currency: all.find((shipment) => shipment.currency !== null)?.currency ?? "USD" }),
    shippingRules,
    names,
    boxes: settings.boxes.map((box) => box.name),
    filter,
    filterCounts: filterCounts([...facts.values()]),
    filteredOrderCount: filteredIds.length,
    readyTotals: currencyTotals(ready.map((shipment) => shipment.pick!)),
    counts: {
      quoted: all.filter((shipment) => shipment.quoteStatus === "QUOTED").length,
      failed: failed.length,
      pending: all.filter((shipment) => shipment.quoteStatus === "PENDING").length,
      blockedOrders: blockedIds.length,
      expired: expiredIds.length,
      ready: ready.length,
    },
    totals: carrierTotals(ready.map((shipment) => shipment.pick!)),
    page: current,
    pages,
    orders,
  };
}

/** The run's page `page` (clamped to the pages there are) of `orderIds`: its number, how many pages, its orders. */
function pageOf(orderIds: readonly string[], page: number): { current: number; pages: number; pageIds: string[] } {
  const pages = Math.max(1, Math.ceil(orderIds.length / ORDERS_PER_PAGE));
  const current = Math.min(Math.max(1, page), pages);
  return { current, pages, pageIds: orderIds.slice((current - 1) * ORDERS_PER_PAGE, current * ORDERS_PER_PAGE) };
}

/** What a page of a run shows of its orders beside the run's figures: their shipments, blocked rows, lines, and the lines a blocked order lacks. */
async function readPage(ctx: Context, runId: string, { pageIds }: { pageIds: readonly string[] }) {
  // The page's orders are read beside its shipments and blocked orders, once, for the shipments' lines and the blocked
  // orders' missing details (an order of the page moved to a later run is read for nothing: at most a page of them).
  const [shipments, blocked, mirrored] = await Promise.all([
    ctx.db.shipment.findMany({
      where: { runId, orderId: { in: [...pageIds] } },
      include: { batch: { select: { name: true } } },
      orderBy: { fulfillmentOrderId: "asc" },
    }),
    ctx.db.blockedOrder.findMany({ where: { runId, orderId: { in: [...pageIds] } } }),
    loadOrdersWithCustoms(ctx, pageIds),
  ]);
  const blockedFor = blocked.map((row) => ({ orderId: row.orderId, codes: new Set(Issues.parse(JSON.parse(row.issues)).map((issue) => issue.code)) }));
  // The shop's weight unit only when a weight is missing.
  const weightUnit = blockedFor.some(({ codes }) => codes.has(WEIGHT_ISSUE)) ? (await loadShopSummary(ctx)).weightUnit : undefined;
  const orders = new Map(mirrored.map((order) => [order.id, order]));
  return { shipments, blocked, linesOf: linesOfShipments(shipments, orders), lineFixes: linesToComplete(orders, weightUnit ?? "POUNDS", blockedFor) };
}

/** A shipment's rates as the page lists them, cheapest first, each with its speed, billed weight and whether it expired. */
function rateOptions(quotes: readonly StoredQuote[], weightUnit: string, observed: ObservedTransit, now: Date): RateOption[] {
  return quotes
    .map((quote): RateOption => ({
      ...pricedRateOf(quote),
      observedTransit: describeObserved(observed(quote)),
      speed: deliverySpeed(quote, describeObserved(observed(quote))),
      billedWeight: billedWeight(quote, weightUnit),
      surcharges: quote.surcharges,
      expiresAt: quote.expiresAt.toISOString(),
      expired: quote.expiresAt <= now,
    }))
    .sort((a, b) => compareAmounts(a.totalAmount, b.totalAmount) || a.quoteId - b.quoteId);
}

/**
 * Every rate of one of the shop's shipments, for its order's "All N rates" on the rates page. Throws
 * QuotingInputError 404 for a shipment that is not this shop's.
 */
export async function loadShipmentRates(ctx: Pick<Context, "db" | "shop" | "now">, shipmentId: string): Promise<RateOption[]> {
  const shipment = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop } });
  if (!shipment) throw new QuotingInputError(404, "shipment", "No such shipment in this store.");
  if (shipment.quoteStatus === "PENDING") return [];
  const request = StoredRequest.parse(JSON.parse(shipment.request));
  return rateOptions(storedQuotes(shipment), request.weightUnit, await observedTransitLookup(ctx), ctx.now());
}

const CUSTOMS_ISSUES = new Set(["MISSING_HS_CODE", "MISSING_ORIGIN"]);
const WEIGHT_ISSUE = "ZERO_WEIGHT";

/**
 * Per blocked order of the page (among `orders`, the page's orders with what the merchant typed in Consign), its
 * lines without what it was blocked for (an HS code or a country of origin; a weight, asked in the shop's unit).
 */
function linesToComplete(
  orders: ReadonlyMap<string, MirroredOrder>,
  weightUnit: ShopifyWeightUnit,
  blocked: ReadonlyArray<{ orderId: string; codes: ReadonlySet<string> }>,
): Map<string, LineFixes> {
  const wanted = new Map(
    blocked.flatMap(({ orderId, codes }) => {
      const fields = { customs: [...codes].some((code) => CUSTOMS_ISSUES.has(code)), weight: codes.has(WEIGHT_ISSUE) };
      return fields.customs || fields.weight ? [[orderId, fields] as const] : [];
    }),
  );
  const fixes = new Map<string, LineFixes>();
  for (const [orderId, fields] of wanted) {
    const order = orders.get(orderId);
    if (!order) continue;
    const lines = order.fulfillmentOrders
      .flatMap((fo) => fo.lines)
      .filter(shipsInParcel)
      .filter((line) => (fields.customs && (!line.hsCode?.trim() || !line.countryOfOrigin)) || (fields.weight && (!line.weight || line.weight.value <= 0)))
      .map((line) => ({
        lineId: line.id,
        product: productName(line),
        hsCode: line.hsCode,
        countryOfOrigin: line.countryOfOrigin,
        weight: line.weight && line.weight.value > 0 ? String(line.weight.value) : null,
      }));
    if (lines.length > 0) fixes.set(order.id, { fields, weightUnit, lines });
  }
  return fixes;
}

export interface QuoteRunSummary {
  id: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  orderCount: number;
  shipments: number;
  blockedOrders: number;
}

/** The shop's latest runs, newest first. */
export async function listQuoteRuns(ctx: Pick<Context, "db" | "shop">, { limit = 25 }: { limit?: number } = {}): Promise<QuoteRunSummary[]> {
  const runs = await ctx.db.quoteRun.findMany({
    where: { shop: ctx.shop },
    orderBy: { startedAt: "desc" },
    take: limit,
    include: { _count: { select: { shipments: true, blockedOrders: true } } },
  });
  return runs.map((run) => ({
    id: run.id,
    status: runStatus(run.status),
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    orderCount: OrderIds.parse(JSON.parse(run.orderIds)).length,
    shipments: run._count.shipments,
    blockedOrders: run._count.blockedOrders,
  }));
}
