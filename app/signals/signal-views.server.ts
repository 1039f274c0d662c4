import type { Context } from "../context";
import { loadSettings } from "../settings/account.server";
import type { OrderTags } from "../settings/settings";
import { TRIGGER_HANDLES, TRIGGER_NAMES, type SignalKind } from "./flow-triggers";
import { tagChange } from "./order-tags.server";

/**
 * What Consign announced about an order (docs/decisions/043), for the order's page: each fact (label bought,
 * delivered, needing attention, attention resolved) with the tags written and the Flow trigger sent, and for one
 * that failed or is unconfirmed, why and what the merchant should do.
 */

/** `neutral`: nothing was needed (a trigger no workflow of the shop uses is not sent). */
export type SignalTone = "success" | "info" | "neutral" | "warning" | "critical";

export interface SignalStep {
  tone: SignalTone;
  /** What happened, in words ("Tag “delivered” added"). */
  text: string;
  /** What the merchant should do, for a step that failed or is unconfirmed. */
  advice: string | null;
}

export interface OrderSignalView {
  id: string;
  /** "Label bought", "Delivered", "Delivery needs attention", "Attention resolved". */
  fact: string;
  at: Date;
  tags: SignalStep | null;
  flow: SignalStep | null;
}

const FACTS: Record<SignalKind, string> = {
  LABEL_BOUGHT: "Label bought",
  DELIVERED: "Delivered",
  EXCEPTION: "Delivery needs attention",
  EXCEPTION_RESOLVED: "Attention resolved",
  RETURN_LABEL_BOUGHT: "Return label bought",
};

const quoted = (tags: readonly string[]) => tags.map((tag) => `“${tag}”`).join(" and ");

/** The tags step in words; the names are Settings' current ones (the signal keeps its outcome, not the names). */
export function tagStep(kind: SignalKind, status: string, error: string | null, names: OrderTags): SignalStep | null {
  const { add, remove } = tagChange(kind, names);
  const done = [add.length > 0 ? `${add.length === 1 ? "Tag" : "Tags"} ${quoted(add)} added` : "", remove.length > 0 ? `${quoted(remove)} taken off` : ""];
  const todo = [add.length > 0 ? `add ${quoted(add)}` : "", remove.length > 0 ? `take ${quoted(remove)} off` : ""];
  switch (status) {
    case "DONE":
      return { tone: "success", text: done.filter(Boolean).join(", "), advice: null };
    case "SKIPPED":
      return null;
    case "FAILED":
      return {
        tone: "critical",
        text: `Tags not written: ${error ?? "Shopify refused them"}`,
        advice: `To put this order right now, ${todo.filter(Boolean).join(" and ")} on the order in Shopify.`,
      };
    default:
      return { tone: "info", text: "Tags being written", advice: null };
  }
}

export function flowStep(kind: SignalKind, status: string, error: string | null): SignalStep | null {
  const handle = TRIGGER_HANDLES[kind];
  if (!handle || status === "NONE") return null;
  const name = `Flow trigger “${TRIGGER_NAMES[handle] ?? handle}”`;
  switch (status) {
    case "SENT":
      return { tone: "success", text: `${name} sent`, advice: null };
    case "NO_WORKFLOW":
      // Flow never said a workflow uses the trigger (docs/decisions/047): sending it would run nothing.
      return { tone: "neutral", text: `${name} not sent: no workflow in Shopify Flow uses it`, advice: null };
    case "UNCONFIRMED":
      return {
        tone: "warning",
        text: `${name} unconfirmed: ${error ?? "Shopify did not confirm it"}`,
        advice: "Open Shopify Flow's run history: if no workflow ran for this order, do by hand what it would have done.",
      };
    case "FAILED":
      return {
        tone: "critical",
        text: `${name} not sent: ${error ?? "Flow refused it"}`,
        advice: "No workflow ran for this order from it: do by hand what it would have done.",
      };
    default:
      return { tone: "info", text: `${name} being sent`, advice: null };
  }
}

/** The order's signals, newest first. */
export async function orderSignalsView(ctx: Pick<Context, "db" | "shop">, orderId: string): Promise<OrderSignalView[]> {
  const [signals, settings] = await Promise.all([
    ctx.db.orderSignal.findMany({ where: { shop: ctx.shop, orderId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 50 }),
    loadSettings(ctx),
  ]);
  return signals.map((signal) => {
    const kind = signal.kind as SignalKind;
    return {
      id: signal.id,
      fact: FACTS[kind] ?? signal.kind,
      at: signal.createdAt,
      tags: tagStep(kind, signal.tagStatus, signal.tagError, settings.orderTags),
      flow: flowStep(kind, signal.flowStatus, signal.flowError),
    };
  });
}
