import type { Shipment, ShopReturn } from "@prisma/client";
import { bound, sqlTemplate } from "../db/sql-template";
import { z } from "zod";
import type { Context } from "../context";
import { orderNumber } from "../shopify/gid";
import { loadPrepayOnFile } from "../settings/account.server";
import { prepayOutlook, prepaySentence } from "../settings/prepay";
import { TrackingState } from "../tracking/tracking-states";
import { RETURN_ARRIVED } from "../tracking/tracking-views.server";
import { boxLabelsFor, type BoxLabel } from "./box-label-use.server";
import { storedReturnLines } from "./return-node";
import { returnLabelsJob } from "./return-label.server";
import { returnsReconcileJob } from "./returns.server";
import { pickedQuote } from "../shipping/stored-rates";

/**
 * The Returns page (docs/decisions/041): the shop's returns, newest first, fifty a page, filtered on the server by
 * what is left to do; each with its order, customer, items and quantities, reasons, and its label.
 */

const FILTERS = z.enum(["all", "to_approve", "needs_label", "on_the_way", "arrived", "done"]);
/** The page's tabs; an unknown one in the URL is All. */
export const ReturnsFilter = FILTERS.catch("all");
export type ReturnsFilter = z.infer<typeof FILTERS>;

const PAGE_ROWS = 50;

/** What is left to do, in the merchant's words, and the step's code the page keys its action on. */
export type ReturnStep =
  "approve" | "get_label" | "book_label" | "booking" | "attaching" | "attach_failed" | "waiting" | "arrived" | "closed" | "declined" | "cancelled";

export interface ReturnLabelView {
  shipmentId: string;
  bookingStatus: string;
  trackingNumber: string | null;
  carrierCode: string | null;
  serviceCode: string | null;
  /** The rule's reason for this service ("Scan-based: …"). */
  reason: string | null;
  /** What the picked rate costs (before booking), or what the label cost. */
  amount: string | null;
  currency: string | null;
  scanBased: boolean;
  /** A scan-based label the carrier has not scanned yet: unused, and it has cost nothing. */
  unused: boolean;
  /** When a used scan-based label was charged (ISO), `amount` being the charge; null before, and for any other label. */
  chargedAt: string | null;
  carrierStatus: string | null;
  error: string | null;
}

export interface ReturnView {
  id: string;
  name: string;
  orderName: string;
  /** The order in Shopify admin. */
  orderUrl: string;
  customerName: string | null;
  status: string;
  items: Array<{ title: string; quantity: number; reason: string | null; note: string | null }>;
  customerNote: string | null;
  createdAt: string;
  step: ReturnStep;
  todo: string;
  /** Its labels, one a box in box order (one box unless the merchant split it); empty before any is quoted. */
  labels: ReturnLabelView[];
  /** Its returned lines as the split's form names them (the line's id, what and how many); OPEN with no label booked only. */
  splittable: Array<{ lineId: string; title: string; quantity: number }> | null;
  /** A return needing a label whose items all shipped in a parcel carrying a return label: offered first (docs/decisions/044). */
  boxLabel: BoxLabel | null;
}

export interface ReturnsPage {
  filter: ReturnsFilter;
  counts: Record<ReturnsFilter, number>;
  rows: ReturnView[];
  page: number;
  pages: number;
  /** Whether the reconcile or a booking of many labels is running (the page follows it). */
  running: boolean;
  /**
   * The spend checkpoint of the quoted labels on this page, before they are booked (the same projection of the
   * prepay balance as a batch's): the labels it books and the sentence; null when none is quoted.
   */
  checkpoint: { shipmentIds: string[]; sentence: string } | null;
}

const DONE = ["CLOSED", "DECLINED", "CANCELED"];

/**
 * Where each tab's returns are, in SQL over a return `r` and the shop's return labels: a return's stage is whether
 * a label (a box) of it is booked (and not voided at the carrier: then it needs a new one) and whether every booked
 * one arrived: On the way while any booked box is not delivered, Arrived once all are. Asked of the database in the
 * same statement as the returns, never read out as lists of return ids, which a shop has as many of as it has return
 * labels (SQLite binds 999 values).
 */
const BOOKED_LABEL = `SELECT 1 FROM "Shipment" s WHERE s."shop" = r."shop" AND s."kind" = 'RETURN' AND s."returnId" = r."id" AND s."bookingStatus" IN ('BOOKING', 'BOOKED') AND (s."trackingStopReason" IS NULL OR s."trackingStopReason" <> 'VOIDED')`;
const LABELLED = `EXISTS (${BOOKED_LABEL})`;
const ARRIVED = `(${LABELLED} AND NOT EXISTS (${BOOKED_LABEL} AND s."trackingState" <> '${TrackingState.DELIVERED}'))`;
const IN_TAB: Record<ReturnsFilter, string> = {
  all: "1 = 1",
  to_approve: `r."status" = 'REQUESTED'`,
  needs_label: `r."status" = 'OPEN' AND NOT ${LABELLED}`,
  on_the_way: `r."status" = 'OPEN' AND ${LABELLED} AND NOT ${ARRIVED}`,
  arrived: `r."status" = 'OPEN' AND ${ARRIVED}`,
  done: `r."status" IN (${DONE.map((status) => `'${status}'`).join(", ")})`,
};

/** How many of the shop's returns each tab holds, in one statement. */
async function tabCounts({ db, shop }: Pick<Context, "db" | "shop">): Promise<Record<ReturnsFilter, number>> {
  const sums = FILTERS.options.map((filter) => `SUM(CASE WHEN ${IN_TAB[filter]} THEN 1 ELSE 0 END) AS "${filter}"`).join(", ");
  const [row] = await db.$queryRaw<Array<Record<ReturnsFilter, number | bigint | null>>>(
    ...sqlTemplate([`SELECT ${sums} FROM "ShopReturn" r WHERE r."shop" = `, bound(shop)]),
  );
  return Object.fromEntries(FILTERS.options.map((filter) => [filter, Number(row?.[filter] ?? 0)])) as Record<ReturnsFilter, number>;
}

/** One page of a tab's returns, newest first. */
async function tabPage({ db, shop }: Pick<Context, "db" | "shop">, filter: ReturnsFilter, page: number): Promise<ShopReturn[]> {
  const ids = await db.$queryRaw<Array<{ id: string }>>(
    ...sqlTemplate([
      `SELECT r."id" FROM "ShopReturn" r WHERE r."shop" = `,
      bound(shop),
      ` AND ${IN_TAB[filter]} ORDER BY r."returnCreatedAt" DESC, r."id" ASC LIMIT `,
      bound(PAGE_ROWS),
      ` OFFSET `,
      bound((page - 1) * PAGE_ROWS),
    ]),
  );
  const rows = new Map((await db.shopReturn.findMany({ where: { shop, id: { in: ids.map((row) => row.id) } } })).map((row) => [row.id, row]));
  return ids.flatMap(({ id }) => rows.get(id) ?? []);
}

/** A return whose label was voided at the carrier (the tracking pass found it voided): Get label books a new one. */
export const LABEL_VOIDED = "Label voided at the carrier — get a new label";

/** The step a return is at, and what to do, from its status and its latest label. */
export function stepOf(status: string, label: Shipment | null): { step: ReturnStep; todo: string } {
  if (status === "REQUESTED") return { step: "approve", todo: "Approve in Shopify or here" };
  if (status === "DECLINED") return { step: "declined", todo: "Declined" };
  if (status === "CANCELED") return { step: "cancelled", todo: "Cancelled in Shopify" };
  if (status === "CLOSED") return { step: "closed", todo: "Closed in Shopify" };
  if (!label || label.bookingStatus === "NONE" || label.bookingStatus === "FAILED")
    return label && label.bookingStatus !== "FAILED"
      ? { step: "book_label", todo: "Book the return label" }
      : { step: "get_label", todo: "Get a return label" };
  if (label.trackingStopReason === "VOIDED") return { step: "get_label", todo: LABEL_VOIDED };
  if (label.bookingStatus === "BOOKING") return { step: "booking", todo: "Booking the return label" };
  if (label.fulfillmentStatus === "FAILED") return { step: "attach_failed", todo: label.fulfillmentError ?? "The label could not be attached in Shopify" };
  if (label.fulfillmentStatus !== "FULFILLED") return { step: "attaching", todo: "Label booked — sending it to Shopify" };
  if (label.trackingState === TrackingState.DELIVERED) return { step: "arrived", todo: RETURN_ARRIVED.replace(/\.$/, "") };
  return { step: "waiting", todo: "Label sent — waiting for the parcel" };
}

/** What is left to do for a return in boxes where it reads differently from one label. */
const BOXES_TODO: Partial<Record<ReturnStep, string>> = {
  get_label: "Get a return label for the boxes not booked",
  book_label: "Book the boxes' return labels",
  booking: "Booking the boxes' return labels",
  attaching: "Labels booked — sending them to Shopify",
  waiting: "Labels sent — waiting for the boxes",
};
const BOX_ORDER: ReturnStep[] = ["booking", "attach_failed", "get_label", "book_label", "attaching", "waiting", "arrived"];

/**
 * The step of a return in boxes: that of the box furthest behind (a box booking, failed, to book, being sent to
 * Shopify, on its way), Arrived once every box is; while some have arrived, the page says how many.
 */
export function stepOfBoxes(status: string, labels: Shipment[]): { step: ReturnStep; todo: string } {
  if (labels.length <= 1) return stepOf(status, labels[0] ?? null);
  const steps = labels.map((label) => stepOf(status, label));
  const behind = steps.reduce((worst, each) => (BOX_ORDER.indexOf(each.step) < BOX_ORDER.indexOf(worst.step) ? each : worst));
  const arrived = steps.filter((each) => each.step === "arrived").length;
  if (behind.step === "waiting" && arrived > 0) return { step: "waiting", todo: `${arrived} of ${labels.length} boxes arrived — waiting for the rest` };
  return { step: behind.step, todo: behind.todo === LABEL_VOIDED ? behind.todo : (BOXES_TODO[behind.step] ?? behind.todo) };
}

/** A return's label as the page shows it: once booked, what was booked; before, the rule's pick (its service and price). */
function labelView(label: Shipment, pick: { carrierCode: string; serviceCode: string; totalAmount: string; currency: string } | null): ReturnLabelView {
  const booked = label.bookingStatus === "BOOKED";
  return {
    shipmentId: label.id,
    bookingStatus: label.bookingStatus,
    trackingNumber: label.trackingNumber,
    carrierCode: label.carrierCode ?? pick?.carrierCode ?? null,
    serviceCode: label.serviceCode ?? pick?.serviceCode ?? null,
    reason: label.selectionReason,
    amount: booked ? label.shippingCost : (pick?.totalAmount ?? null),
    currency: booked ? label.currency : (pick?.currency ?? null),
    scanBased: label.scanBased,
    unused: booked && label.scanBased && !label.carrierStatus && !label.chargedAt,
    chargedAt: label.chargedAt?.toISOString() ?? null,
    carrierStatus: label.carrierStatus,
    error: label.bookingError,
  };
}

export async function viewReturns(ctx: Pick<Context, "db" | "shop" | "jobs" | "now">, options: { filter: ReturnsFilter; page: number }): Promise<ReturnsPage> {
  const { db, shop } = ctx;
  const counts = await tabCounts(ctx);
  const pages = Math.max(1, Math.ceil(counts[options.filter] / PAGE_ROWS));
  const page = Math.min(options.page, pages);
  const returns = await tabPage(ctx, options.filter, page);
  const labels = await db.shipment.findMany({
    where: { shop, kind: "RETURN", returnId: { in: returns.map((entry) => entry.id) } },
    // Box order: a split's boxes are recorded a millisecond apart (recordReturnQuotes).
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  // A voided label another label took over is history: the return's boxes are the rest.
  const replaced = new Set(labels.map((label) => label.replacesId));
  const boxesOf = new Map<string, Shipment[]>();
  for (const label of labels) if (!replaced.has(label.id)) boxesOf.set(label.returnId!, [...(boxesOf.get(label.returnId!) ?? []), label]);
  const quoted = [...boxesOf.values()].flat().filter((label) => label.bookingStatus === "NONE" && label.selectedQuoteId !== null);
  const pickOf = new Map(
    quoted.flatMap((label) => {
      const pick = pickedQuote(label);
      return pick ? [[label.id, pick] as const] : [];
    }),
  );
  // The label in a parcel's box is offered to a return in one box.
  const needing = returns.filter((entry) => {
    const boxes = boxesOf.get(entry.id) ?? [];
    return boxes.length <= 1 && stepOfBoxes(entry.status, boxes).step === "get_label";
  });
  const boxLabels = await boxLabelsFor(ctx, needing);
  const rows = returns.map((entry): ReturnView => {
    const boxes = boxesOf.get(entry.id) ?? [];
    const lines = storedReturnLines(entry.lines);
    // Split while no label of it is booking or booked (a voided one's reverse delivery still holds the units).
    const open = entry.status === "OPEN" && boxes.every((box) => box.bookingStatus === "NONE" || box.bookingStatus === "FAILED");
    return {
      id: entry.id,
      name: entry.name,
      orderName: entry.orderName,
      orderUrl: `shopify://admin/orders/${orderNumber(entry.orderId)}`,
      customerName: entry.customerName,
      status: entry.status,
      items: lines.map((line) => ({ title: line.title, quantity: line.quantity, reason: line.reason, note: line.note })),
      customerNote: entry.customerNote,
      createdAt: entry.returnCreatedAt.toISOString(),
      ...stepOfBoxes(entry.status, boxes),
      labels: boxes.map((box) => labelView(box, pickOf.get(box.id) ?? null)),
      splittable: open ? lines.map((line) => ({ lineId: line.id, title: line.title, quantity: line.quantity })) : null,
      boxLabel: boxLabels.get(entry.id) ?? null,
    };
  });
  // Scan-based labels cost nothing at booking: the checkpoint projects only what booking charges.
  const charged = quoted.filter((label) => !label.scanBased);
  const costs = charged.flatMap((label) => {
    const pick = pickOf.get(label.id);
    return pick ? [{ amount: pick.totalAmount, currency: pick.currency }] : [];
  });
  const scanBased = quoted.length - charged.length;
  const free =
    scanBased === 0
      ? ""
      : `${scanBased} scan-based ${scanBased === 1 ? "label costs" : "labels cost"} nothing unless the customer uses ${scanBased === 1 ? "it" : "them"}.`;
  const sentence =
    charged.length > 0
      ? [prepaySentence(prepayOutlook(await loadPrepayOnFile(ctx), costs), charged.length), free].filter(Boolean).join(" ")
      : `Book ${scanBased} scan-based return ${scanBased === 1 ? "label" : "labels"}? ${free}`;
  const checkpoint = quoted.length > 0 ? { shipmentIds: quoted.map((label) => label.id), sentence } : null;
  const [reconciling, booking] = await Promise.all([ctx.jobs.busy(returnsReconcileJob, { shop }), ctx.jobs.busy(returnLabelsJob, { shop, shipmentIds: [] })]);
  return {
    filter: options.filter,
    counts,
    rows,
    page,
    pages,
    running: reconciling || booking,
    checkpoint,
  };
}
