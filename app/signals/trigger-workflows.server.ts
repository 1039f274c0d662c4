import { z } from "zod";
import type { Context } from "../context";
import { inMerchantWords } from "../field-errors";
import type { Outcome } from "../outcome";
import { TRIGGER_NAMES } from "./flow-triggers";

/**
 * Which of Consign's Flow triggers a workflow uses, per shop (issue 30, docs/decisions/047). Shopify Flow calls the
 * app's trigger lifecycle callback (extensions/flow-trigger-lifecycle, `POST /flow/lifecycle`) when a merchant turns
 * on or off a workflow that starts with one of the app's triggers; the order-signals job sends a trigger only to a
 * shop whose workflow uses it (flowTriggerReceive costs 10 points a call, whether or not anything listens). A shop
 * and trigger Flow never told the app about has no workflow using it. Newer callbacks take precedence: each is
 * recorded with its timestamp by one conditional upsert, so an older one arriving late (or at the same moment as a
 * newer one) changes nothing.
 */

/** The callback's body, as Flow documents it; what Consign reads of it is checked, the rest is let through. */
export const TriggerLifecycleCallback = z.object({
  flow_trigger_definition_id: z.string().trim().min(1, "is required").max(255, "must be at most 255 characters"),
  has_enabled_flow: z.boolean({ error: (issue) => (issue.input === undefined ? "is required" : "must be true or false") }),
  shop_id: z.union([z.number(), z.string()]).optional(),
  shopify_domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be a shop's myshopify.com domain"),
  timestamp: z.iso.datetime({
    offset: true,
    error: (issue) => (issue.input === undefined ? "is required" : "must be a time in ISO 8601, like 2026-11-28T10:00:00Z"),
  }),
});
export type TriggerLifecycleCallback = z.infer<typeof TriggerLifecycleCallback>;

/** What a callback says, read: the shop, the trigger's handle, whether a workflow uses it, and when Flow said so. */
export interface TriggerWorkflowChange {
  shop: string;
  handle: string;
  enabled: boolean;
  at: Date;
}

/**
 * The trigger's handle for Flow's `flow_trigger_definition_id`: the trigger extension's handle, or its name as Flow
 * shows it (TRIGGER_NAMES), in any case; null for none of Consign's triggers.
 */
export function triggerHandleFor(definitionId: string): string | null {
  const id = definitionId.trim();
  if (Object.hasOwn(TRIGGER_NAMES, id)) return id;
  const lower = id.toLowerCase();
  return Object.entries(TRIGGER_NAMES).find(([handle, name]) => handle === lower || name.toLowerCase() === lower)?.[0] ?? null;
}

/**
 * Parses the callback's body (JSON text). A refusal says why, naming the field: 400 for a body that is not the
 * callback's shape, 404 for a trigger that is not Consign's.
 */
export function parseTriggerLifecycle(text: string): Outcome<{ change: TriggerWorkflowChange }, { status: 400 | 404 }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, status: 400, message: "The body is not JSON." };
  }
  const parsed = TriggerLifecycleCallback.safeParse(json, { error: inMerchantWords });
  if (!parsed.success) {
    // Each field by Flow's own name for it (as written, lower case), with its first problem.
    const problems = new Map<string, string>();
    for (const issue of parsed.error.issues) {
      const field = issue.path.join(".");
      if (!problems.has(field)) problems.set(field, field === "" ? "The body must be a JSON object" : `${field} ${issue.message.replace(/\.$/, "")}`);
    }
    return { ok: false, status: 400, message: `${[...problems.values()].join("; ")}.` };
  }
  const callback = parsed.data;
  const handle = triggerHandleFor(callback.flow_trigger_definition_id);
  if (handle === null) {
    return {
      ok: false,
      status: 404,
      message: `flow_trigger_definition_id “${callback.flow_trigger_definition_id}” is not a Flow trigger of Consign's (${Object.keys(TRIGGER_NAMES).join(", ")}).`,
    };
  }
  return { ok: true, change: { shop: callback.shopify_domain, handle, enabled: callback.has_enabled_flow, at: new Date(callback.timestamp) } };
}

/**
 * Records what a callback says for the context's shop, unless a newer callback for the trigger is recorded already:
 * one upsert guarded by the timestamp (a callback as old as the one stored is taken: Flow's retry of it, or the
 * later of two at the same instant), so concurrent callbacks leave the newest. Answers whether it was taken.
 */
export async function recordTriggerWorkflow(
  ctx: Pick<Context, "db" | "shop" | "now" | "log">,
  change: Pick<TriggerWorkflowChange, "handle" | "enabled" | "at">,
): Promise<{ taken: boolean }> {
  const rows = await ctx.db.$queryRaw<Array<{ handle: string }>>`
    INSERT INTO "FlowTriggerWorkflow" ("shop", "handle", "enabled", "callbackAt", "updatedAt")
    VALUES (${ctx.shop}, ${change.handle}, ${change.enabled}, ${change.at}, ${ctx.now()})
    ON CONFLICT ("shop", "handle") DO UPDATE SET "enabled" = excluded."enabled", "callbackAt" = excluded."callbackAt", "updatedAt" = excluded."updatedAt"
    WHERE excluded."callbackAt" >= "FlowTriggerWorkflow"."callbackAt"
    RETURNING "handle"`;
  const taken = rows.length > 0;
  ctx.log.info({ trigger: change.handle, enabled: change.enabled, at: change.at.toISOString(), taken }, "flow trigger lifecycle callback");
  return { taken };
}

/** The handles of the shop's triggers some enabled workflow uses (one query: the order-signals job asks once per step). */
export async function triggersWithWorkflow(ctx: Pick<Context, "db" | "shop">): Promise<Set<string>> {
  const rows = await ctx.db.flowTriggerWorkflow.findMany({ where: { shop: ctx.shop, enabled: true }, select: { handle: true } });
  return new Set(rows.map((row) => row.handle));
}
