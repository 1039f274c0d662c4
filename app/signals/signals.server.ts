import type { OrderSignal, Prisma } from "@prisma/client";
import { z } from "zod";
import type { Context } from "../context";
import { crashPoint } from "../crash-points.server";
import { defineJob, OutcomeInDoubtError, type JobServices } from "../jobs/job";
import { loadSettings } from "../settings/account.server";
import type { OrderTags } from "../settings/settings";
import { NO_NAMES, serviceNamesOf, shipmentServiceNames, type ServiceNames } from "../shipping/service-names";
import { trackingNumbersOf } from "../shipping/tracking-numbers";
import { orderNumber } from "../shopify/gid";
import { AdminApiError, AdminTransportError, adminQuery, isTransient } from "../shopify/gateway.server";
import { FLOW_TRIGGER_RECEIVE, TRIGGER_HANDLES, triggerPayload, type SignalKind } from "./flow-triggers";
import { orderSignalsJob } from "./order-signals-job";
import { accessDenied, MAY_NOT_EDIT_ORDERS, refusedFor, tagChange, UserErrors, writeOrderTags } from "./order-tags.server";
import { triggersWithWorkflow } from "./trigger-workflows.server";
import { updateRowsById } from "../db/db-batch.server";

/**
 * Order automation (docs/decisions/043): what Consign announces about an order when its label is bought, when it is
 * delivered and while it needs attention — tags on the Shopify order (when Settings asks for them) and Shopify Flow
 * triggers — exactly once per fact.
 *
 * A fact is written with `signalsDueAt` on its shipment in the same statement (recordBooked; tracking's reschedule),
 * and the shop's `order-signals` job is sent. The job records one OrderSignal per fact (a unique key: shipment, kind,
 * occurrence) and clears `signalsDueAt` only where it still holds the instant it read, in one transaction; then works
 * the shop's open signals in the order they were recorded: the tags (intent WRITING, tagsAdd / tagsRemove, outcome
 * DONE; a write found WRITING is sent again, which Shopify's idempotent tag mutations make harmless), then the Flow
 * trigger (intent SENDING, flowTriggerReceive, outcome SENT; one found SENDING is not sent again but marked
 * UNCONFIRMED: flowTriggerReceive cannot be read back, and a workflow run twice is worse than one missed).
 * A trigger no workflow of the shop uses (Flow's lifecycle callback never said one was turned on, or said it was
 * turned off: trigger-workflows.server.ts) is not sent at all: its signal is recorded NO_WORKFLOW, done
 * (docs/decisions/047).
 */

/** Shipments and signals looked at per step: a job run loops until none is left. */
const STEP = 200;

export const orderSignalsSpec = defineJob({
  ...orderSignalsJob,
  retry: { limit: 8, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  run: async ({ shop }, { services }) => {
    await runOrderSignals(services.context(shop));
  },
});

/** Records the shop's due signals, then works every open one. Throws OutcomeInDoubtError while Shopify cannot be reached. */
export async function runOrderSignals(ctx: Context): Promise<{ recorded: number; worked: number }> {
  let recorded = 0;
  for (let step = await recordSignals(ctx); ; step = await recordSignals(ctx)) {
    recorded += step.recorded;
    if (step.looked < STEP) break;
  }
  const worked = await workSignals(ctx);
  return { recorded, worked };
}

const DUE_SELECT = {
  id: true,
  kind: true,
  orderId: true,
  orderName: true,
  bookingStatus: true,
  trackingNumber: true,
  trackingNumbers: true,
  carrierCode: true,
  serviceCode: true,
  shippingCost: true,
  currency: true,
  trackingState: true,
  attentionReason: true,
  lastEventAt: true,
  signalsDueAt: true,
} as const satisfies Prisma.ShipmentSelect;
type DueShipment = Prisma.ShipmentGetPayload<{ select: typeof DUE_SELECT }>;

/** The facts a shipment holds now, each with the occurrence that makes it one: an exception by its carrier event's time. */
function factsOf(row: DueShipment, signals: readonly Pick<OrderSignal, "kind" | "occurrence">[]): Array<{ kind: SignalKind; occurrence: string }> {
  const facts: Array<{ kind: SignalKind; occurrence: string }> = [];
  if (row.bookingStatus !== "BOOKED" || !row.trackingNumber) return facts;
  // A return's label (issue 24): its trigger only; its tracking is the return's, not the order's delivery.
  if (row.kind === "RETURN") return [{ kind: "RETURN_LABEL_BOUGHT", occurrence: "" }];
  facts.push({ kind: "LABEL_BOUGHT", occurrence: "" });
  if (row.attentionReason !== null) facts.push({ kind: "EXCEPTION", occurrence: row.lastEventAt?.toISOString() ?? "" });
  else {
    // Each exception recorded and not resolved yet is resolved now (a later event, or delivery).
    const resolved = new Set(signals.filter((signal) => signal.kind === "EXCEPTION_RESOLVED").map((signal) => signal.occurrence));
    for (const signal of signals) {
      if (signal.kind === "EXCEPTION" && !resolved.has(signal.occurrence)) facts.push({ kind: "EXCEPTION_RESOLVED", occurrence: signal.occurrence });
    }
  }
  // tracking-states.ts's DELIVERED (automation does not import tracking, which sends its job).
  if (row.trackingState === "DELIVERED") facts.push({ kind: "DELIVERED", occurrence: "" });
  return facts;
}

/**
 * One step of recording: up to STEP shipments with `signalsDueAt`, each fact not recorded yet becomes a signal (its
 * trigger's payload as the shipment is now), and `signalsDueAt` is cleared where it still holds what was read, all
 * in one transaction: a fact written meanwhile keeps its shipment due.
 */
async function recordSignals(ctx: Context): Promise<{ looked: number; recorded: number }> {
  const rows = await ctx.db.shipment.findMany({
    where: { shop: ctx.shop, signalsDueAt: { not: null } },
    orderBy: { signalsDueAt: "asc" },
    take: STEP,
    select: DUE_SELECT,
  });
  if (rows.length === 0) return { looked: 0, recorded: 0 };
  const existing = await ctx.db.orderSignal.findMany({
    where: { shipmentId: { in: rows.map((row) => row.id) } },
    select: { shipmentId: true, kind: true, occurrence: true },
  });
  const [settings, names, withWorkflow] = await Promise.all([loadSettings(ctx), serviceNames(ctx), triggersWithWorkflow(ctx)]);
  const creates: Prisma.OrderSignalCreateManyInput[] = [];
  for (const row of rows) {
    const mine = existing.filter((signal) => signal.shipmentId === row.id);
    const known = new Set(mine.map((signal) => `${signal.kind}|${signal.occurrence}`));
    for (const fact of factsOf(row, mine)) {
      if (known.has(`${fact.kind}|${fact.occurrence}`)) continue;
      const payload = triggerPayload(fact.kind, {
        orderNumericId: Number(orderNumber(row.orderId)),
        trackingNumber: row.trackingNumber ?? "",
        trackingNumbers: trackingNumbersOf(row),
        ...shipmentServiceNames(names, row),
        cost: row.shippingCost,
        currency: row.currency,
        reason: row.attentionReason,
      });
      creates.push({
        shop: ctx.shop,
        shipmentId: row.id,
        orderId: row.orderId,
        orderName: row.orderName,
        kind: fact.kind,
        occurrence: fact.occurrence,
        payload: JSON.stringify(payload),
        tagStatus: settings.orderTags.enabled && writesTags(tagChange(fact.kind, settings.orderTags)) ? "PENDING" : "SKIPPED",
        flowStatus: flowStatusFor(TRIGGER_HANDLES[fact.kind], withWorkflow),
        createdAt: ctx.now(),
      });
    }
  }
  await ctx.db.$transaction([
    ...(creates.length > 0 ? [ctx.db.orderSignal.createMany({ data: creates })] : []),
    // Set-based (a statement per chunk): one update per shipment made Prisma compile a batch of 200 statements a step,
    // seconds of the process's one SQLite connection while a batch's labels were announced.
    ...updateRowsById(ctx, {
      table: "Shipment",
      columns: [],
      rows: rows.map((row) => ({ id: row.id, signalsDueAt: row.signalsDueAt })),
      match: ["signalsDueAt"],
      set: { signalsDueAt: null },
    }),
  ]);
  return { looked: rows.length, recorded: creates.length };
}

/**
 * A new signal's trigger step: NONE for a kind without a trigger, PENDING (to be sent) when a workflow of the shop
 * uses the trigger, NO_WORKFLOW (done, nothing sent: flowTriggerReceive's points are not spent) otherwise.
 */
function flowStatusFor(handle: string | null, withWorkflow: ReadonlySet<string>): "NONE" | "PENDING" | "NO_WORKFLOW" {
  if (!handle) return "NONE";
  return withWorkflow.has(handle) ? "PENDING" : "NO_WORKFLOW";
}

/** The carriers' and services' names from List Services; the codes' own words when it does not answer. */
async function serviceNames(ctx: Context): Promise<ServiceNames> {
  const answer = await (await ctx.shipping()).listServices();
  return answer.ok ? serviceNamesOf(answer.value.services) : NO_NAMES;
}

const writesTags = (change: { add: readonly string[]; remove: readonly string[] }) => change.add.length > 0 || change.remove.length > 0;

/**
 * The tags the signal writes now: its kind's, except that the exception's tag stays while another shipment of the
 * order still needs attention.
 */
async function tagsToWrite(ctx: Context, signal: OrderSignal, tags: OrderTags): Promise<{ add: string[]; remove: string[] }> {
  const change = tagChange(signal.kind as SignalKind, tags);
  if (change.remove.length === 0) return change;
  const stillAttention = await ctx.db.shipment.count({
    where: {
      shop: ctx.shop,
      orderId: signal.orderId,
      id: { not: signal.shipmentId },
      kind: { not: "RETURN" },
      bookingStatus: "BOOKED",
      attentionReason: { not: null },
    },
  });
  return stillAttention > 0 ? { ...change, remove: [] } : change;
}

const done = (status: string) => status !== "PENDING" && status !== "WRITING" && status !== "SENDING";

/** Works the shop's open signals in the order recorded; returns how many were finished. */
async function workSignals(ctx: Context): Promise<number> {
  let worked = 0;
  const settings = await loadSettings(ctx);
  for (;;) {
    const open = await ctx.db.orderSignal.findMany({ where: { shop: ctx.shop, doneAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: STEP });
    for (const signal of open) {
      const tagStatus = await workTags(ctx, signal, settings.orderTags);
      const flowStatus = await workTrigger(ctx, signal);
      if (done(tagStatus) && done(flowStatus)) {
        await ctx.db.orderSignal.update({ where: { id: signal.id }, data: { doneAt: ctx.now() } });
        worked++;
      }
    }
    if (open.length < STEP) return worked;
  }
}

/** Throws for a failure worth trying again (Shopify unreachable or busy): the job's retry takes it up, in order. */
function retryLater(signal: OrderSignal, what: string, error: unknown): never {
  throw new OutcomeInDoubtError(`${what} for ${signal.orderName} did not reach Shopify; tried again later`, { cause: error });
}

async function workTags(ctx: Context, signal: OrderSignal, tags: OrderTags): Promise<string> {
  if (signal.tagStatus !== "PENDING" && signal.tagStatus !== "WRITING") return signal.tagStatus;
  // Intent first; a write found WRITING was interrupted and is sent again (tagsAdd and tagsRemove are idempotent).
  if (signal.tagStatus === "PENDING") {
    const claimed = await ctx.db.orderSignal.updateMany({ where: { id: signal.id, tagStatus: "PENDING" }, data: { tagStatus: "WRITING" } });
    if (claimed.count !== 1) return "WRITING";
  }
  let problem: string | null;
  try {
    crashPoint("order-tags:before-call");
    problem = await writeOrderTags(ctx, signal.orderId, await tagsToWrite(ctx, signal, tags));
    crashPoint("order-tags:after-call");
  } catch (error) {
    if (isTransient(error) || error instanceof AdminTransportError) retryLater(signal, "Order tags", error);
    problem = error instanceof Error ? error.message : String(error);
  }
  const status = problem === null ? "DONE" : "FAILED";
  await ctx.db.orderSignal.update({ where: { id: signal.id }, data: { tagStatus: status, tagError: problem } });
  if (problem) ctx.log.warn({ orderName: signal.orderName, kind: signal.kind }, `order tags not written: ${problem}`);
  return status;
}

async function workTrigger(ctx: Context, signal: OrderSignal): Promise<string> {
  const handle = TRIGGER_HANDLES[signal.kind as SignalKind];
  if (signal.flowStatus === "SENDING") {
    // Sent before a crash or a lost answer: Flow may have run it; it is not sent twice.
    const message = "Consign stopped before Shopify confirmed this Flow trigger, so it was not sent again; it may not have reached Flow";
    await ctx.db.orderSignal.update({ where: { id: signal.id }, data: { flowStatus: "UNCONFIRMED", flowError: message } });
    return "UNCONFIRMED";
  }
  if (signal.flowStatus !== "PENDING" || !handle) return signal.flowStatus;
  const admin = await ctx.shopify();
  // Claimed by one worker only: of two runs that read it PENDING, one sends it.
  const claimed = await ctx.db.orderSignal.updateMany({ where: { id: signal.id, flowStatus: "PENDING" }, data: { flowStatus: "SENDING" } });
  if (claimed.count !== 1) return "SENDING";
  let status: string;
  let problem: string | null = null;
  try {
    crashPoint("flow-trigger:before-call");
    const answer = await adminQuery(admin, FLOW_TRIGGER_RECEIVE, FlowTriggerAnswer, { handle, payload: JSON.parse(signal.payload) as Record<string, unknown> });
    crashPoint("flow-trigger:after-call");
    problem = refusedFor("Flow refused the trigger", answer.flowTriggerReceive);
    status = problem === null ? "SENT" : "FAILED";
  } catch (error) {
    const throttled = error instanceof AdminApiError && error.graphQLErrors.some((entry) => entry.extensions?.code === "THROTTLED");
    if (throttled) {
      // Refused for the bucket past the gateway's waits: not run, so back to PENDING for the job's retry.
      await ctx.db.orderSignal.update({ where: { id: signal.id }, data: { flowStatus: "PENDING" } });
      retryLater(signal, "The Flow trigger", error);
    }
    if (error instanceof AdminApiError) {
      // Refused before it ran (a GraphQL error): nothing reached Flow.
      status = "FAILED";
      problem = accessDenied(error) ? MAY_NOT_EDIT_ORDERS : error.message;
    } else {
      // No answer (a reset, a 5xx, an answer cut off): Flow may have run it, so it is not sent again.
      status = "UNCONFIRMED";
      problem = "Shopify's answer to this Flow trigger was lost, so it was not sent again; it may not have reached Flow";
      ctx.log.warn({ err: error, orderName: signal.orderName, kind: signal.kind }, "flow trigger unconfirmed");
    }
  }
  await ctx.db.orderSignal.update({ where: { id: signal.id }, data: { flowStatus: status, flowError: problem } });
  return status;
}

const FlowTriggerAnswer = z.object({ flowTriggerReceive: UserErrors });

/** Shops with signals to record or work, for the recorded-work sweep: each is sent its job again. */
export async function queueOpenOrderSignals(services: Pick<JobServices, "db" | "jobs">): Promise<string[]> {
  const [due, open] = await Promise.all([
    services.db.shipment.findMany({ where: { signalsDueAt: { not: null } }, distinct: ["shop"], select: { shop: true } }),
    services.db.orderSignal.findMany({ where: { doneAt: null }, distinct: ["shop"], select: { shop: true } }),
  ]);
  const shops = [...new Set([...due, ...open].map((row) => row.shop))];
  for (const shop of shops) await services.jobs.send(orderSignalsJob, { shop });
  return shops;
}
