import type { ShopReturn } from "@prisma/client";
import type { Context } from "../context";
import { FulfillmentStatus } from "../fulfillment/write-back.server";
import type { Outcome } from "../outcome";
import { queueReturnAttach } from "./return-attach.server";
import { hasLabelAlready, labelInUse, NOT_VOIDED, voidedLabelOf } from "./return-label.server";
import { storedReturnLines, type ReturnLine } from "./return-node";

/**
 * The return label in the box used for a return (docs/decisions/044): an open return whose items all shipped in one
 * parcel that carries a booked scan-based return label (a RETURN shipment with `inBoxOf`, no return yet, not voided,
 * its link not expired) is offered that label instead of a new one. Using it claims the label for the return once
 * (a conditional update where returnId is null: two returns, or two clicks, cannot both take it), gives it the
 * return's reverse fulfillment order and lines, and leaves it to the attach job, which sends it to Shopify as the
 * return's reverse delivery (the customer is emailed the same label's link) exactly once, as any return label.
 */

/** A label in a parcel's box that fits a return: its shipment and tracking number. */
export interface BoxLabel {
  shipmentId: string;
  trackingNumber: string;
}

/** Whether every returned item shipped in the parcel written to Shopify as `fulfillmentId`; a return of nothing fits none. */
export function returnFitsParcel(lines: readonly ReturnLine[], fulfillmentId: string | null): boolean {
  return fulfillmentId !== null && lines.length > 0 && lines.every((line) => line.fulfillmentId === fulfillmentId);
}

/** For each open return given (a page's at most), the label in its order's box that fits it, if any. */
export async function boxLabelsFor(ctx: Pick<Context, "db" | "shop" | "now">, returns: readonly ShopReturn[]): Promise<Map<string, BoxLabel>> {
  const open = returns.filter((entry) => entry.status === "OPEN" && entry.reverseFulfillmentOrderId);
  const fitting = new Map<string, BoxLabel>();
  if (open.length === 0) return fitting;
  const labels = await ctx.db.shipment.findMany({
    where: {
      shop: ctx.shop,
      kind: "RETURN",
      returnId: null,
      inBoxOf: { not: null },
      bookingStatus: "BOOKED",
      trackingNumber: { not: null },
      labelTokenExpiresAt: { gt: ctx.now() },
      orderId: { in: [...new Set(open.map((entry) => entry.orderId))] },
      ...NOT_VOIDED,
    },
    select: { id: true, orderId: true, inBoxOf: true, trackingNumber: true },
    orderBy: [{ bookedAt: "asc" }, { id: "asc" }],
  });
  if (labels.length === 0) return fitting;
  const parcels = await ctx.db.shipment.findMany({
    where: { shop: ctx.shop, kind: "OUTBOUND", id: { in: labels.map((label) => label.inBoxOf!) } },
    select: { id: true, fulfillmentId: true },
  });
  const writtenAs = new Map(parcels.map((parcel) => [parcel.id, parcel.fulfillmentId]));
  for (const entry of open) {
    const lines = storedReturnLines(entry.lines);
    const label = labels.find((candidate) => candidate.orderId === entry.orderId && returnFitsParcel(lines, writtenAs.get(candidate.inBoxOf!) ?? null));
    if (label) fitting.set(entry.id, { shipmentId: label.id, trackingNumber: label.trackingNumber! });
  }
  return fitting;
}

/** The label in the box now the return's (its tracking number), or why not, saying what to do instead. */
export type BoxLabelUseOutcome = Outcome<{ trackingNumber: string }>;

/** Uses the label in the box `shipmentId` for the return: claimed once (see the module comment), then queued for Shopify. */
export async function useBoxLabel(ctx: Pick<Context, "db" | "shop" | "now" | "jobs">, returnId: string, shipmentId: string): Promise<BoxLabelUseOutcome> {
  const refuse = (message: string): BoxLabelUseOutcome => ({ ok: false, message });
  const stored = await ctx.db.shopReturn.findFirst({ where: { id: returnId, shop: ctx.shop } });
  if (!stored) return refuse("Consign does not know this return. Check Shopify for returns, then try again.");
  if (stored.status === "REQUESTED") return refuse(`Return ${stored.name} is waiting for approval. Approve it first, here or in Shopify.`);
  if (stored.status !== "OPEN" || !stored.reverseFulfillmentOrderId) return refuse(`Return ${stored.name} is not open, so it needs no label.`);
  const existing = await labelInUse(ctx, returnId);
  // A second click of the same choice finds the label already this return's.
  if (existing)
    return existing.id === shipmentId ? { ok: true, trackingNumber: existing.trackingNumber ?? "" } : refuse(hasLabelAlready(stored.name, existing));
  const gone = refuse(
    `The return label in the box of ${stored.orderName} can no longer be used for return ${stored.name} (another return took it, or it was voided or expired). Get a new label for it.`,
  );
  const fitting = (await boxLabelsFor(ctx, [stored])).get(returnId);
  if (fitting?.shipmentId !== shipmentId) return gone;
  const voided = await voidedLabelOf(ctx, returnId);
  const reverseFulfillmentOrderId = stored.reverseFulfillmentOrderId;
  const claimed = await ctx.db.$transaction(async (tx) => {
    const taken = await tx.shipment.updateMany({
      where: { id: shipmentId, shop: ctx.shop, kind: "RETURN", returnId: null, bookingStatus: "BOOKED" },
      data: {
        returnId,
        fulfillmentOrderId: reverseFulfillmentOrderId,
        lines: stored.reverseLines,
        replacesId: voided?.id ?? null,
        fulfillmentStatus: FulfillmentStatus.PENDING,
        fulfillmentError: null,
      },
    });
    // A new label quoted for the return and never booked (another page, or before the choice) is not wanted now:
    // left, it would be offered for booking beside the label in the box.
    if (taken.count === 1) await tx.shipment.deleteMany({ where: { shop: ctx.shop, kind: "RETURN", returnId, bookingStatus: { in: ["NONE", "FAILED"] } } });
    return taken;
  });
  if (claimed.count !== 1) {
    const now = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop }, select: { returnId: true } });
    if (now?.returnId !== returnId) return gone;
  }
  await queueReturnAttach(ctx);
  return { ok: true, trackingNumber: fitting.trackingNumber };
}
