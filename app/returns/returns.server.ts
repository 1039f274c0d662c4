import { z } from "zod";
import type { Context } from "../context";
import { defineJob } from "../jobs/job";
import type { Outcome } from "../outcome";
import { adminQuery } from "../shopify/gateway.server";
import { ShopifyId } from "../shopify/gid";
import {
  APPROVE_RETURN,
  ApproveReturnData,
  DECLINE_RETURN,
  DeclineReturnData,
  RETURN_FOR_CONSIGN,
  RETURNS_TO_RECONCILE,
  ReturnForConsignData,
  ReturnsToReconcileData,
} from "./return-documents";
import { toReturnRecord, type ReturnRecord } from "./return-node";

/**
 * Consign's mirror of Shopify's returns (docs/decisions/041). A returns webhook names a return and Consign reads it
 * again (so a delivery late, repeated or out of order changes nothing a fresher read did not); the reconcile reads
 * every return Shopify says is requested or in progress. Approving and declining a requested return from Consign
 * are Shopify's own mutations, and the return is read again after them.
 */

/** The returns webhooks' topics (shopify.app.toml → /webhooks/returns). */
export const RETURN_TOPICS: ReadonlySet<string> = new Set([
  "RETURNS_REQUEST",
  "RETURNS_APPROVE",
  "RETURNS_DECLINE",
  "RETURNS_CANCEL",
  "RETURNS_CLOSE",
  "RETURNS_REOPEN",
  "RETURNS_PROCESS",
  "RETURNS_UPDATE",
  "REVERSE_DELIVERIES_ATTACH_DELIVERABLE",
  "REVERSE_FULFILLMENT_ORDERS_DISPOSE",
]);

/**
 * The part of a returns topic's payload Consign reads, as the return it names (GID; the rest is read from
 * Shopify): a return's own topics carry its id; a reverse delivery's and a reverse fulfillment order's name it.
 */
export function returnPayloadSchema(topic: string): z.ZodType<string | null> {
  if (topic === "REVERSE_DELIVERIES_ATTACH_DELIVERABLE" || topic === "REVERSE_FULFILLMENT_ORDERS_DISPOSE")
    return z.object({ return: z.object({ id: ShopifyId("Return") }).nullish() }).transform((payload) => payload.return?.id ?? null);
  return z.object({ id: ShopifyId("Return") }).transform((payload) => payload.id);
}

/**
 * Writes a return as read at `ctx.now()`, unless what is stored was read later (a reconcile's page read before a
 * webhook's re-read). Answers the record written, or null when a fresher read is kept.
 */
export async function saveReturn(ctx: Pick<Context, "db" | "shop" | "now">, record: ReturnRecord): Promise<void> {
  const readAt = ctx.now();
  const data = {
    shop: ctx.shop,
    orderId: record.orderId,
    orderName: record.orderName,
    name: record.name,
    status: record.status,
    customerName: record.customerName,
    lines: JSON.stringify(record.lines),
    customerAddress: record.customerAddress ? JSON.stringify(record.customerAddress) : null,
    customerNote: record.customerNote,
    reverseFulfillmentOrderId: record.reverseFulfillmentOrderId,
    reverseLines: JSON.stringify(record.reverseLines),
    returnCreatedAt: record.returnCreatedAt,
    requestApprovedAt: record.requestApprovedAt,
    closedAt: record.closedAt,
    readAt,
  };
  const updated = await ctx.db.shopReturn.updateMany({ where: { id: record.id, shop: ctx.shop, readAt: { lte: readAt } }, data });
  if (updated.count > 0) return;
  try {
    await ctx.db.shopReturn.create({ data: { id: record.id, ...data } });
  } catch (error) {
    // P2002: the row exists, read later than this read: it stays.
    if (!(typeof error === "object" && error !== null && "code" in error && error.code === "P2002")) throw error;
  }
}

/** Reads one return from Shopify into the mirror; answers what was read, or null when Shopify has no such return. */
export async function refreshReturn(ctx: Context, returnId: string): Promise<ReturnRecord | null> {
  const admin = await ctx.shopify();
  const data = await adminQuery(admin, RETURN_FOR_CONSIGN, ReturnForConsignData, { id: returnId });
  if (!data.return) return null;
  const record = toReturnRecord(data.return);
  await saveReturn(ctx, record);
  return record;
}

/** Shopify's order search for orders whose return is requested or in progress. */
export const RECONCILE_QUERY = "return_status:return_requested OR return_status:in_progress";

/** The most pages of orders one reconcile reads (25 orders a page). */
const RECONCILE_PAGES = 50;

/**
 * Reads every return of the orders Shopify says have one requested or in progress into the mirror; answers how
 * many returns were read. Returns Consign knows that are no longer among them are read one by one, so a return
 * closed or cancelled while a webhook was lost is seen too.
 */
export async function reconcileReturns(ctx: Context): Promise<{ read: number }> {
  const admin = await ctx.shopify();
  const seen = new Set<string>();
  let after: string | null = null;
  for (let page = 0; page < RECONCILE_PAGES; page++) {
    const data: z.infer<typeof ReturnsToReconcileData> = await adminQuery(admin, RETURNS_TO_RECONCILE, ReturnsToReconcileData, {
      after,
      query: RECONCILE_QUERY,
    });
    for (const order of data.orders.nodes) {
      for (const node of order.returns.nodes) {
        if (seen.has(node.id)) continue;
        await refreshReturn(ctx, node.id);
        seen.add(node.id);
      }
    }
    if (!data.orders.pageInfo.hasNextPage) break;
    after = data.orders.pageInfo.endCursor;
  }
  const stillOpen = await ctx.db.shopReturn.findMany({ where: { shop: ctx.shop, status: { in: ["REQUESTED", "OPEN"] } }, select: { id: true } });
  for (const { id } of stillOpen) {
    if (seen.has(id)) continue;
    await refreshReturn(ctx, id);
    seen.add(id);
  }
  return { read: seen.size };
}

/** The reconcile as a named job (the Returns page's "Check Shopify for returns"): one at a time per shop. */
export const returnsReconcileJob = defineJob({
  name: "returns-reconcile",
  data: z.object({ shop: z.string().min(1) }),
  key: ({ shop }) => shop,
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  run: async ({ shop }, { services }) => {
    await reconcileReturns(services.context(shop));
  },
});

/** Sends the shop's reconcile job. */
export async function queueReturnsReconcile(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  await ctx.jobs.send(returnsReconcileJob, { shop: ctx.shop });
}

/** Approved or declined, or why not, in the merchant's words. */
export type ReturnDecision = Outcome<{ status: string }>;

/** A requested return's decision from Consign: Shopify's returnApproveRequest or returnDeclineRequest, then the return read again. */
export async function decideReturn(ctx: Context, returnId: string, decision: "approve" | "decline"): Promise<ReturnDecision> {
  const stored = await ctx.db.shopReturn.findFirst({ where: { id: returnId, shop: ctx.shop }, select: { status: true, name: true } });
  if (!stored) return { ok: false, message: "Consign does not know this return. Check Shopify for returns, then try again." };
  if (stored.status !== "REQUESTED")
    return { ok: false, message: `Return ${stored.name} is not waiting for a decision any more. Reload the page to see where it is.` };
  const admin = await ctx.shopify();
  const payload =
    decision === "approve"
      ? (await adminQuery(admin, APPROVE_RETURN, ApproveReturnData, { input: { id: returnId, notifyCustomer: true } })).returnApproveRequest
      : (await adminQuery(admin, DECLINE_RETURN, DeclineReturnData, { input: { id: returnId, declineReason: "OTHER", notifyCustomer: true } }))
          .returnDeclineRequest;
  const problem = payload?.userErrors[0]?.message;
  // Read again whatever the answer: a refusal usually means the return moved on in Shopify meanwhile.
  const record = await refreshReturn(ctx, returnId);
  if (problem || !payload?.return) {
    return {
      ok: false,
      message: `Shopify did not ${decision} return ${stored.name}: ${problem ?? "no answer"}. Reload the page, or ${decision} it in Shopify.`,
    };
  }
  return { ok: true, status: record?.status ?? payload.return.status };
}
