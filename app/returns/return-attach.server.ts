import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Context } from "../context";
import { config } from "../config.server";
import { crashPoint } from "../crash-points.server";
import { FulfillmentStatus, OUTSTANDING } from "../fulfillment/write-back.server";
import { trackingPageUrl } from "../fulfillment/tracking-link.server";
import { defineJob, type JobServices } from "../jobs/job";
import { AdminApiError, adminQuery, isTransient } from "../shopify/gateway.server";
import { startTracking } from "../tracking/following.server";
import { ATTACH_RETURN_LABEL, AttachReturnLabelData, type DeliveryPayload, UPDATE_RETURN_TRACKING, UpdateReturnTrackingData } from "./return-documents";
import { storedReverseLines } from "./return-node";
import { refreshReturn } from "./returns.server";

/**
 * A booked return label attached to Shopify's return as a reverse delivery with shipping
 * (reverseDeliveryCreateWithShipping: the label's link and the tracking number; Shopify emails the customer the
 * label), exactly once, as the write-back writes a fulfillment (docs/decisions/005, 008, 041): the label's
 * Shipment waits fulfillmentStatus PENDING; the job records CREATING and counts the attempt before the mutation,
 * and the outcome (FULFILLED with the reverse delivery's id) after it. A label found CREATING, or sent before, is
 * looked for on the return first (a reverse delivery with its tracking number) and linked instead of created again.
 * A label booked in place of a voided one (`replacesId`) updates the voided label's reverse delivery instead
 * (reverseDeliveryShippingUpdate: the new number, tracking page and label link; Shopify emails the customer the new
 * label), with the same intent, outcome and read-back. Once attached, tracking sync follows the parcel.
 */

/** How long a return label's link stays valid after booking: longer than any return window a label is used in. */
export const LABEL_LINK_VALID_MS = 120 * 24 * 60 * 60 * 1000;

/** Gives a booked return label its link token (24 random bytes), valid LABEL_LINK_VALID_MS from now, unless it has one. */
export async function ensureLabelLink(ctx: Pick<Context, "db" | "shop" | "now">, shipmentId: string): Promise<void> {
  await ctx.db.shipment.updateMany({
    where: { id: shipmentId, shop: ctx.shop, labelToken: null },
    data: { labelToken: randomBytes(24).toString("base64url"), labelTokenExpiresAt: new Date(ctx.now().getTime() + LABEL_LINK_VALID_MS) },
  });
}

/** The label's address: an app route with a random, unguessable token (app/routes/returns.label.$token.tsx). */
export function returnLabelUrl(token: string): string {
  return new URL(`/returns/label/${token}`, config().SHOPIFY_APP_URL).toString();
}

type Attached = "attached" | "linked" | "failed" | "busy";

/**
 * How long a claimed attach may be in flight (the Admin API call and its retries) before another caller may take
 * it over, reading the return first: the recorded-work sweep sends the job again every minute.
 */
export const ATTACH_IN_FLIGHT_MS = 2 * 60 * 1000;

/** Attaches one booked return label (claimed here), or links the reverse delivery Shopify already has. */
async function attachOne(ctx: Context, shipmentId: string): Promise<Attached> {
  // A booking settled by the recorded-work sweep has no link yet.
  await ensureLabelLink(ctx, shipmentId);
  const row = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop, kind: "RETURN" } });
  if (!row || !row.returnId || !row.trackingNumber || !row.labelToken || !OUTSTANDING.includes(row.fulfillmentStatus as never)) return "busy";
  const now = ctx.now();
  const sentBefore = row.fulfillmentStatus === FulfillmentStatus.CREATING || row.fulfillmentAttempts > 0;
  // One writer at a time: a PENDING label, or one left CREATING longer than a write can take (its writer died or
  // lost the answer), is claimed by moving updatedAt to now; a second caller's claim then finds it taken.
  const claimed = await ctx.db.shipment.updateMany({
    where: {
      id: row.id,
      OR: [
        { fulfillmentStatus: FulfillmentStatus.PENDING },
        { fulfillmentStatus: FulfillmentStatus.CREATING, updatedAt: { lte: new Date(now.getTime() - ATTACH_IN_FLIGHT_MS) } },
      ],
    },
    data: { fulfillmentStatus: FulfillmentStatus.CREATING, fulfillmentError: null, updatedAt: now },
  });
  if (claimed.count !== 1) return "busy";
  const attached = (reverseDeliveryId: string) =>
    ctx.db.$transaction(
      startTracking(ctx.db, { id: row.id, shop: ctx.shop }, now, {
        fulfillmentStatus: FulfillmentStatus.FULFILLED,
        fulfillmentId: reverseDeliveryId,
        fulfilledAt: now,
        fulfillmentError: null,
      }),
    );
  const failed = (message: string) =>
    ctx.db.shipment.update({ where: { id: row.id }, data: { fulfillmentStatus: FulfillmentStatus.FAILED, fulfillmentError: message } });

  // Read first whenever a create may have reached Shopify: the return as it is now, its deliveries with their numbers.
  const current = await refreshReturn(ctx, row.returnId);
  if (!current) {
    await failed("Shopify no longer has this return, so the label was not attached.");
    return "failed";
  }
  if (sentBefore) {
    const found = current.reverseDeliveries.find((delivery) => delivery.trackingNumber === row.trackingNumber);
    if (found) {
      await attached(found.id);
      return "linked";
    }
  }
  // A label booked in place of a voided one: the voided label's reverse delivery, when the return still has it.
  const replaced = row.replacesId
    ? await ctx.db.shipment.findFirst({ where: { id: row.replacesId, shop: ctx.shop, kind: "RETURN" }, select: { fulfillmentId: true } })
    : null;
  const toUpdate = replaced?.fulfillmentId ? current.reverseDeliveries.find((delivery) => delivery.id === replaced.fulfillmentId) : undefined;
  if (current.status !== "OPEN" || !current.reverseFulfillmentOrderId) {
    await failed(
      `Return ${current.name} is no longer open in Shopify, so the label was not attached. The label still works; send it to the customer yourself if they need it.`,
    );
    return "failed";
  }
  // The label's own box: its reverse lines and quantities (docs/decisions/041 "a return's boxes"); a label with
  // none recorded (a label in a box, docs/decisions/044) carries every line of the return.
  const own = storedReverseLines(row.lines);
  const lines = own.length > 0 ? own : current.reverseLines;
  await ctx.db.shipment.update({ where: { id: row.id }, data: { fulfillmentAttempts: { increment: 1 } } });
  const label = { trackingNumber: row.trackingNumber, shipmentId: row.id, labelToken: row.labelToken };
  let payload: z.infer<typeof DeliveryPayload>;
  try {
    if (toUpdate) {
      crashPoint("reverse-delivery-update:before-call");
      payload = await updateReturnTracking(ctx, toUpdate.id, label);
      crashPoint("reverse-delivery-update:after-call");
    } else {
      crashPoint("reverse-delivery:before-call");
      const admin = await ctx.shopify();
      const data = await adminQuery(admin, ATTACH_RETURN_LABEL, AttachReturnLabelData, {
        reverseFulfillmentOrderId: current.reverseFulfillmentOrderId,
        lines: lines.map((line) => ({ reverseFulfillmentOrderLineItemId: line.id, quantity: line.quantity })),
        tracking: { number: row.trackingNumber, url: trackingPageUrl(row.id) },
        label: { fileUrl: returnLabelUrl(row.labelToken) },
      });
      crashPoint("reverse-delivery:after-call");
      payload = data.reverseDeliveryCreateWithShipping;
    }
  } catch (error) {
    // The answer is unknown: the row stays CREATING and the job's retry reads the return before sending again.
    if (error instanceof AdminApiError && !isTransient(error)) {
      await failed(`Shopify did not take the return label: ${error.message}`);
      return "failed";
    }
    throw error;
  }
  if (!payload?.reverseDelivery) {
    await failed(
      `Shopify did not take the return label: ${payload?.userErrors.map((error) => error.message).join("; ") || "no answer"}. Get the return's label again or attach it in Shopify.`,
    );
    return "failed";
  }
  await attached(payload.reverseDelivery.id);
  return "attached";
}

/** Attaches every booked return label of the shop waiting for Shopify; answers how many were attached or linked. */
export async function attachReturnLabels(ctx: Context): Promise<{ attached: number; failed: number }> {
  const rows = await ctx.db.shipment.findMany({
    // A return label in a box (docs/decisions/044) waits for a return to be attached to.
    where: { shop: ctx.shop, kind: "RETURN", returnId: { not: null }, bookingStatus: "BOOKED", fulfillmentStatus: { in: OUTSTANDING } },
    select: { id: true },
    orderBy: [{ bookedAt: "asc" }, { id: "asc" }],
  });
  const summary = { attached: 0, failed: 0 };
  for (const { id } of rows) {
    const outcome = await attachOne(ctx, id);
    if (outcome === "attached" || outcome === "linked") summary.attached++;
    else if (outcome === "failed") summary.failed++;
  }
  return summary;
}

/** The attach job: one shop's booked return labels, once at a time per shop; sent by each booking and by the recorded-work sweep. */
export const returnAttachJob = defineJob({
  name: "return-label-attach",
  data: z.object({ shop: z.string().min(1) }),
  key: ({ shop }) => shop,
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  expireInSeconds: 10 * 60,
  run: async ({ shop }, job) => {
    await attachReturnLabels(job.services.context(shop));
  },
});

export function queueReturnAttach(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  return ctx.jobs.send(returnAttachJob, { shop: ctx.shop });
}

/** Sends the attach job of every shop with a booked return label still waiting for Shopify (start-up and the minute sweep). */
export async function queueOutstandingReturnAttach(services: Pick<JobServices, "db" | "context">): Promise<string[]> {
  const shops = await services.db.shipment.findMany({
    where: { kind: "RETURN", returnId: { not: null }, bookingStatus: "BOOKED", fulfillmentStatus: { in: OUTSTANDING } },
    distinct: ["shop"],
    select: { shop: true },
  });
  await Promise.all(shops.map(({ shop }) => queueReturnAttach(services.context(shop))));
  return shops.map(({ shop }) => shop);
}

/**
 * Points an existing reverse delivery at a new label (reverseDeliveryShippingUpdate): its tracking number, the
 * tracking page and the label's link, emailing the customer the new label. Used when a label is booked in place of
 * one voided at the carrier (attachOne, with its intent and read-back); the answer is Shopify's payload.
 */
async function updateReturnTracking(
  ctx: Pick<Context, "shopify">,
  reverseDeliveryId: string,
  label: { trackingNumber: string; shipmentId: string; labelToken: string },
): Promise<z.infer<typeof DeliveryPayload>> {
  const admin = await ctx.shopify();
  const data = await adminQuery(admin, UPDATE_RETURN_TRACKING, UpdateReturnTrackingData, {
    reverseDeliveryId,
    tracking: { number: label.trackingNumber, url: trackingPageUrl(label.shipmentId) },
    label: { fileUrl: returnLabelUrl(label.labelToken) },
  });
  return data.reverseDeliveryShippingUpdate;
}
