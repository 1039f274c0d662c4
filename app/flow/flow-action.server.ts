import type { Shipment } from "@prisma/client";
import { z } from "zod";
import { pickByRules } from "../automation/rules.server";
import { parseBookingForm } from "../booking/book-request";
import { bookSingleShipment } from "../booking/single-booking.server";
import { describeIssues, inMerchantWords } from "../field-errors";
import type { Outcome } from "../outcome";
import { QuotingInputError, QuotingUnavailableError, SenderMissingError } from "../quoting/errors";
import { startQuoteRun } from "../quoting/quote-run.server";
import { loadServiceNames } from "../quoting/service-names.server";
import { loadSettings } from "../settings/account.server";
import type { ShippingContext } from "../shipping/context.server";
import { shipmentServiceNames } from "../shipping/service-names";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import { shopifyGid } from "../shopify/gid";
import { bookableQuotes } from "../shipping/stored-rates";

/**
 * The Flow action "Buy a shipping label with Consign" (extensions/flow-buy-label; docs/decisions/043). Flow posts
 * an action run for an order; Consign quotes the order, picks each shipment's rate by the shop's rules and books it
 * with the single-order booking (Book Shipment: intent before, read back by Search Shipments when an answer is lost).
 * The run is recorded by Flow's action run id before anything is booked: Flow's retries of the same run (after a
 * timeout or a 5xx) find it and get the same answer, booking nothing more; a run left BOOKING by a crash goes on
 * from its recorded shipments, which the single booking settles before booking again.
 */

/** The order Flow names: the action's order_reference field, a numeric id or an Order GID. */
const OrderReference = z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^(gid:\/\/shopify\/Order\/)?\d{1,19}$/)], {
  error: (issue) => (issue.input === undefined ? "is required" : "must be an order id, like 450789469 or gid://shopify/Order/450789469"),
});

/** Flow's action request (its documented payload); what Consign reads of it is checked, the rest is let through. */
export const FlowActionRequest = z.object({
  shop_id: z.union([z.number(), z.string()]).optional(),
  shopify_domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be a shop's myshopify.com domain"),
  action_run_id: z.string().trim().min(1, "is required").max(255, "must be at most 255 characters"),
  action_definition_id: z.string().max(255).optional(),
  handle: z.string().max(255).optional(),
  properties: z.object({ order_id: OrderReference }),
});
export type FlowActionRequest = z.infer<typeof FlowActionRequest>;

/** Flow's names for the request's fields, for refusals. */
const FIELD_NAMES: Record<string, string> = {
  shopify_domain: "shopify_domain",
  action_run_id: "action_run_id",
  properties: "properties",
  order_id: "properties.order_id",
};

/** Parses Flow's request body (JSON text); a refusal names the field. */
export function parseFlowActionRequest(text: string): Outcome<{ request: FlowActionRequest }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: "The body is not JSON." };
  }
  const parsed = FlowActionRequest.safeParse(json, { error: inMerchantWords });
  if (parsed.success) return { ok: true, request: parsed.data };
  const said = describeIssues(parsed.error.issues, (path) => ({ label: FIELD_NAMES[String(path.at(-1))] ?? path.join(".") }));
  return { ok: false, message: said.message };
}

/** What Flow is answered: 200 with the action's return value, 422 with why it could not, 503 while a booking is not confirmed. */
export interface FlowAnswer {
  status: 200 | 422 | 503;
  body: { return_value: LabelBought } | { message: string };
}

/** The action's return value (extensions/flow-buy-label/schema.graphql's ShippingLabel). */
export interface LabelBought {
  trackingNumber: string;
  trackingNumbers: string[];
  carrier: string;
  service: string;
  cost: string | null;
  currency: string | null;
}

const couldNot = (message: string): FlowAnswer => ({ status: 422, body: { message } });
const notYet = (message: string): FlowAnswer => ({ status: 503, body: { message } });

const ShipmentIds = z.array(z.string().min(1));

/**
 * The rate the shop's rules pick for a shipment among its unexpired quotes (the shipping rules, the shop-wide rule of
 * Settings last: app/automation/rules.server.ts), or null.
 */
async function pickByShopRules(ctx: ShippingContext, shipment: Pick<Shipment, "orderId" | "rates" | "quotedAt">): Promise<number | null> {
  return (await pickByRules(ctx, shipment.orderId, bookableQuotes(shipment, ctx.now())))?.quoteId ?? null;
}

/** Runs Flow's action for an order once per action run id; see the module comment. */
export async function buyLabelForFlow(ctx: ShippingContext, request: FlowActionRequest): Promise<FlowAnswer> {
  const runId = request.action_run_id;
  const orderId = shopifyGid("Order", String(request.properties.order_id).replace(/^gid:\/\/shopify\/Order\//, ""));
  const known = await ctx.db.flowActionRun.findUnique({ where: { id: runId } });
  if (known && (known.shop !== ctx.shop || known.orderId !== orderId)) return couldNot("This action run id was already used for another order.");
  if (known?.answer && known.status !== "BOOKING") return JSON.parse(known.answer) as FlowAnswer;
  // Intent first: Flow's retries of this run find it.
  if (!known) {
    try {
      await ctx.db.flowActionRun.create({ data: { id: runId, shop: ctx.shop, orderId, status: "BOOKING" } });
    } catch {
      // The same run arrived twice at once: the first one books, this one asks Flow to come back.
      return notYet("This action run is being worked on. Flow tries it again.");
    }
  }
  const answer = await bookOrder(ctx, runId, orderId, known?.shipmentIds ? ShipmentIds.parse(JSON.parse(known.shipmentIds)) : null);
  if (answer.status !== 503) {
    await ctx.db.flowActionRun.update({
      where: { id: runId },
      data: { status: answer.status === 200 ? "BOOKED" : "REFUSED", answer: JSON.stringify(answer), updatedAt: ctx.now() },
    });
  }
  ctx.log.info({ actionRunId: runId, orderId, status: answer.status }, "flow action answered");
  return answer;
}

/** Quotes the order (unless the run recorded its shipments already), then books each shipment by the rules' pick. */
async function bookOrder(ctx: ShippingContext, runId: string, orderId: string, recorded: string[] | null): Promise<FlowAnswer> {
  let shipmentIds = recorded;
  if (!shipmentIds) {
    const booked = await ctx.db.shipment.findFirst({
      where: { shop: ctx.shop, orderId, kind: { not: "RETURN" }, bookingStatus: { in: ["BOOKED", "BOOKING"] } },
    });
    if (booked)
      return couldNot(`This order already has a label${booked.trackingNumber ? ` (tracking ${booked.trackingNumber})` : ""}; Consign bought no other.`);
    const quoted = await quoteOrder(ctx, orderId);
    if (!quoted.ok) return couldNot(quoted.message);
    shipmentIds = quoted.shipmentIds;
    await ctx.db.flowActionRun.update({ where: { id: runId }, data: { shipmentIds: JSON.stringify(shipmentIds), updatedAt: ctx.now() } });
  }
  const settings = await loadSettings(ctx);
  const labels: LabelBought[] = [];
  for (const shipmentId of shipmentIds) {
    const shipment = await ctx.db.shipment.findFirst({ where: { id: shipmentId, shop: ctx.shop } });
    if (!shipment) return couldNot("The order's shipment is gone from Consign. Run the workflow again.");
    if (shipment.bookingStatus !== "BOOKED") {
      const quoteId =
        shipment.bookingStatus === "BOOKING" ? (shipment.selectedQuoteId ?? (await pickByShopRules(ctx, shipment))) : await pickByShopRules(ctx, shipment);
      if (quoteId === null) return couldNot(`No rate of ${shipment.orderName} meets the shop's rules. Open Consign to choose one, or change the rules.`);
      if (shipment.selectedQuoteId !== quoteId) await ctx.db.shipment.update({ where: { id: shipment.id }, data: { selectedQuoteId: quoteId } });
      const form = parseBookingForm(new URLSearchParams({ shipmentId: shipment.id, quoteId: String(quoteId), labelFormat: settings.labelFormat }));
      if (!form.ok) return couldNot(form.message);
      const outcome = await bookSingleShipment(ctx, form.value);
      if (!outcome.ok && outcome.reason === "pending") return notYet(outcome.message);
      if (!outcome.ok && !outcome.message.startsWith("Already booked")) return couldNot(`${shipment.orderName} could not be booked: ${outcome.message}`);
    }
    const booked = await ctx.db.shipment.findUniqueOrThrow({ where: { id: shipment.id } });
    labels.push(await labelOf(ctx, booked));
  }
  const [first, ...others] = labels;
  if (!first) return couldNot("Nothing of this order can ship.");
  return {
    status: 200,
    body: {
      return_value: {
        ...first,
        trackingNumbers: [...first.trackingNumbers, ...others.flatMap((label) => label.trackingNumbers)],
      },
    },
  };
}

async function labelOf(ctx: ShippingContext, shipment: Shipment): Promise<LabelBought> {
  const names = await loadServiceNames(ctx);
  return {
    trackingNumber: shipment.trackingNumber ?? "",
    trackingNumbers: trackingNumbersOf(shipment),
    ...shipmentServiceNames(names, shipment),
    cost: shipment.shippingCost,
    currency: shipment.currency,
  };
}

/** The order quoted as a run of its own: its shipments with rates, or why it cannot ship (the quote run's own words). */
async function quoteOrder(ctx: ShippingContext, orderId: string): Promise<Outcome<{ shipmentIds: string[] }>> {
  let runId: string;
  try {
    const started = await startQuoteRun(ctx, [orderId]);
    await started.finished;
    runId = started.runId;
  } catch (error) {
    if (error instanceof SenderMissingError || error instanceof QuotingUnavailableError || error instanceof QuotingInputError) {
      return { ok: false, message: error.message };
    }
    throw error;
  }
  const blocked = await ctx.db.blockedOrder.findFirst({ where: { runId } });
  if (blocked) {
    const issues = z.array(z.object({ message: z.string() })).parse(JSON.parse(blocked.issues));
    return { ok: false, message: `${blocked.orderName} cannot ship: ${issues.map((issue) => issue.message).join(" ")}` };
  }
  const shipments = await ctx.db.shipment.findMany({ where: { shop: ctx.shop, runId }, orderBy: { id: "asc" } });
  const failed = shipments.find((shipment) => shipment.quoteStatus !== "QUOTED");
  if (failed) return { ok: false, message: `${failed.orderName} could not be quoted: ${failed.quoteError ?? "the Shipping API gave no rate"}` };
  if (shipments.length === 0) return { ok: false, message: "Nothing of this order is left to ship." };
  return { ok: true, shipmentIds: shipments.map((shipment) => shipment.id) };
}
