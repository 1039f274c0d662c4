import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createHmac, randomUUID } from "node:crypto";
import { parse } from "smol-toml";
import { z } from "zod";
import type { Store } from "../store/store.js";

/**
 * Enough of Shopify Flow for the app's tests: the app's Flow extensions read from extensions/*\/shopify.extension.toml,
 * flowTriggerReceive checked against a trigger's declared fields (what does not match is refused with userErrors,
 * as Flow does) and recorded, and the app's Flow actions called as Flow calls them: a signed POST to the action's
 * runtime_url (its path on the app's URL here), the answer recorded beside the run.
 */

export const EXTENSIONS_DIR = fileURLToPath(new URL("../../extensions", import.meta.url));

const Field = z.object({ type: z.string(), key: z.string().optional(), required: z.boolean().optional(), description: z.string().optional() });
const Extension = z.object({
  name: z.string(),
  type: z.string(),
  handle: z.string(),
  runtime_url: z.string().optional(),
});
const Toml = z.object({ extensions: z.array(Extension), settings: z.object({ fields: z.array(Field).default([]) }).optional() });

export interface FlowExtension {
  name: string;
  handle: string;
  type: "flow_trigger" | "flow_action";
  fields: z.infer<typeof Field>[];
  /** An action's runtime_url. */
  runtimeUrl?: string;
}

/** The app's Flow triggers and actions, by handle. */
export function loadFlowExtensions(dir: string = EXTENSIONS_DIR): Map<string, FlowExtension> {
  const found = new Map<string, FlowExtension>();
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir)) {
    const file = path.join(dir, entry, "shopify.extension.toml");
    if (!fs.existsSync(file)) continue;
    const toml = Toml.parse(parse(fs.readFileSync(file, "utf8")));
    for (const extension of toml.extensions) {
      if (extension.type !== "flow_trigger" && extension.type !== "flow_action") continue;
      found.set(extension.handle, {
        name: extension.name,
        handle: extension.handle,
        type: extension.type,
        fields: toml.settings?.fields ?? [],
        ...(extension.runtime_url ? { runtimeUrl: extension.runtime_url } : {}),
      });
    }
  }
  return found;
}

let kept: Map<string, FlowExtension> | undefined;

/** The repository's Flow extensions, read once per process. */
export function flowExtensions(): Map<string, FlowExtension> {
  kept ??= loadFlowExtensions();
  return kept;
}

/** Reference fields' payload keys (Flow's order_reference → order_id, …). */
const REFERENCE_KEYS: Record<string, string> = {
  order_reference: "order_id",
  customer_reference: "customer_id",
  product_reference: "product_id",
};

const MAX_PAYLOAD_BYTES = 50_000;

type UserError = { field: string[]; message: string };

/** Whether `value` fits a custom field of `type`. */
function fitsType(type: string, value: unknown): string | null {
  switch (type) {
    case "single_line_text_field":
      return typeof value === "string" && !/[\r\n]/.test(value) ? null : "must be a single line of text";
    case "multi_line_text_field":
    case "email":
    case "url":
      return typeof value === "string" ? null : "must be text";
    case "number_integer":
      return Number.isInteger(value) ? null : "must be an integer";
    case "number_decimal":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a decimal number";
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
    default:
      return `has a field type the local admin does not know (${type})`;
  }
}

/** Flow's check of a trigger's payload against its declared fields: every error, each on its key. */
export function checkTriggerPayload(store: Store, trigger: FlowExtension, payload: unknown): UserError[] {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return [{ field: ["payload"], message: "payload must be a JSON object" }];
  if (JSON.stringify(payload).length > MAX_PAYLOAD_BYTES) return [{ field: ["payload"], message: `payload must be under ${MAX_PAYLOAD_BYTES} bytes` }];
  const values = payload as Record<string, unknown>;
  const errors: UserError[] = [];
  const declared = new Set<string>();
  for (const field of trigger.fields) {
    const reference = REFERENCE_KEYS[field.type];
    const key = reference ?? field.key;
    if (!key) continue;
    declared.add(key);
    const value = values[key];
    if (value === undefined || value === null) {
      if (reference || field.required !== false) errors.push({ field: ["payload", key], message: `${key} is required by the trigger ${trigger.handle}` });
      continue;
    }
    if (reference) {
      const id = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(id) || id <= 0) errors.push({ field: ["payload", key], message: `${key} must be the numeric id of a resource` });
      else if (field.type === "order_reference" && !store.getOrder(id))
        errors.push({ field: ["payload", key], message: `${key} ${id} is not an order of this shop` });
      continue;
    }
    const problem = fitsType(field.type, value);
    if (problem) errors.push({ field: ["payload", key], message: `${key} ${problem}` });
  }
  for (const key of Object.keys(values)) {
    if (!declared.has(key)) errors.push({ field: ["payload", key], message: `${key} is not a field of the trigger ${trigger.handle}` });
  }
  return errors;
}

export interface FlowTriggerRun {
  id: number;
  handle: string;
  payload: Record<string, unknown>;
  received_at: string;
}

/** flowTriggerReceive as Flow answers it: the trigger's payload checked, then recorded (a workflow run would start). */
export function receiveFlowTrigger(store: Store, triggers: Map<string, FlowExtension>, handle: unknown, payload: unknown): UserError[] {
  const trigger = typeof handle === "string" ? triggers.get(handle) : undefined;
  if (!trigger || trigger.type !== "flow_trigger") return [{ field: ["handle"], message: `The app has no Flow trigger with handle ${String(handle)}` }];
  const errors = checkTriggerPayload(store, trigger, payload);
  if (errors.length > 0) return errors;
  store.sql("INSERT INTO flow_trigger_runs (handle, payload_json, received_at) VALUES (?, ?, ?)").run(trigger.handle, JSON.stringify(payload), store.now());
  return [];
}

/** The triggers received, oldest first (optionally of one handle). */
export function listFlowTriggerRuns(store: Store, handle?: string): FlowTriggerRun[] {
  const rows = (
    handle
      ? store.sql("SELECT * FROM flow_trigger_runs WHERE handle = ? ORDER BY id").all(handle)
      : store.sql("SELECT * FROM flow_trigger_runs ORDER BY id").all()
  ) as Array<{ id: number; handle: string; payload_json: string; received_at: string }>;
  return rows.map((row) => ({
    id: row.id,
    handle: row.handle,
    payload: JSON.parse(row.payload_json) as Record<string, unknown>,
    received_at: row.received_at,
  }));
}

export interface FlowActionCall {
  actionRunId: string;
  status: number;
  body: unknown;
}

/**
 * Calls the app's Flow action for an order as Flow does: the documented payload, signed with the app's secret
 * (x-shopify-hmac-sha256, base64 HMAC-SHA256 of the body), POSTed to the action's runtime_url path on the app's URL.
 * `actionRunId` repeats a run (Flow's retry); a fresh one otherwise. The answer is recorded for the order page.
 */
export async function callFlowAction(
  store: Store,
  options: { actions: Map<string, FlowExtension>; appUrl: string; apiSecret: string; shopDomain: string; fetch?: typeof fetch },
  call: { handle: string; orderId: number; actionRunId?: string; signature?: string },
): Promise<FlowActionCall> {
  const action = options.actions.get(call.handle);
  if (!action || action.type !== "flow_action" || !action.runtimeUrl) throw new Error(`The app has no Flow action with handle ${call.handle}`);
  const actionRunId = call.actionRunId ?? randomUUID();
  const body = JSON.stringify({
    shop_id: store.getShop().id,
    shopify_domain: options.shopDomain,
    action_run_id: actionRunId,
    action_definition_id: action.handle,
    handle: action.handle,
    properties: { order_id: call.orderId },
  });
  const url = new URL(new URL(action.runtimeUrl).pathname, options.appUrl);
  const signature = call.signature ?? createHmac("sha256", options.apiSecret).update(body).digest("base64");
  const response = await (options.fetch ?? fetch)(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-hmac-sha256": signature, "x-shopify-shop-domain": options.shopDomain },
    body,
  });
  const text = await response.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  store
    .sql("INSERT INTO flow_action_runs (action_run_id, handle, order_id, status, answer_json, called_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(actionRunId, action.handle, call.orderId, response.status, JSON.stringify(answer), store.now());
  return { actionRunId, status: response.status, body: answer };
}

/** The order's action calls, newest first. */
export function listFlowActionCalls(
  store: Store,
  orderId: number,
): Array<{ actionRunId: string; handle: string; status: number; body: unknown; calledAt: string }> {
  const rows = store.sql("SELECT * FROM flow_action_runs WHERE order_id = ? ORDER BY id DESC").all(orderId) as Array<{
    action_run_id: string;
    handle: string;
    status: number;
    answer_json: string;
    called_at: string;
  }>;
  return rows.map((row) => ({
    actionRunId: row.action_run_id,
    handle: row.handle,
    status: row.status,
    body: JSON.parse(row.answer_json) as unknown,
    calledAt: row.called_at,
  }));
}
