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
 * as Flow does) and recorded, the app's Flow actions called as Flow calls them: a signed POST to the action's
 * runtime_url (its path on the app's URL here), the answer recorded beside the run, and workflows using the app's
 * triggers turned on and off as Flow does it: the app's trigger lifecycle callback called signed, the workflow on
 * only once the app answered 2xx.
 */

export const EXTENSIONS_DIR = fileURLToPath(new URL("../../extensions", import.meta.url));

const Field = z.object({ type: z.string(), key: z.string().optional(), required: z.boolean().optional(), description: z.string().optional() });
const Extension = z.object({
  name: z.string(),
  type: z.string(),
  handle: z.string(),
  runtime_url: z.string().optional(),
  /** A lifecycle callback's url: absolute, or relative to the app's URL. */
  url: z.string().optional(),
});
const Toml = z.object({ extensions: z.array(Extension), settings: z.object({ fields: z.array(Field).default([]) }).optional() });

export interface FlowExtension {
  name: string;
  handle: string;
  type: "flow_trigger" | "flow_action" | "flow_trigger_lifecycle_callback";
  fields: z.infer<typeof Field>[];
  /** An action's runtime_url. */
  runtimeUrl?: string;
  /** A trigger lifecycle callback's url. */
  url?: string;
}

const FLOW_TYPES: ReadonlySet<string> = new Set<FlowExtension["type"]>(["flow_trigger", "flow_action", "flow_trigger_lifecycle_callback"]);

/** The app's Flow triggers, actions and trigger lifecycle callback, by handle. */
export function loadFlowExtensions(dir: string = EXTENSIONS_DIR): Map<string, FlowExtension> {
  const found = new Map<string, FlowExtension>();
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir)) {
    const file = path.join(dir, entry, "shopify.extension.toml");
    if (!fs.existsSync(file)) continue;
    const toml = Toml.parse(parse(fs.readFileSync(file, "utf8")));
    for (const extension of toml.extensions) {
      if (!FLOW_TYPES.has(extension.type)) continue;
      found.set(extension.handle, {
        name: extension.name,
        handle: extension.handle,
        type: extension.type as FlowExtension["type"],
        fields: toml.settings?.fields ?? [],
        ...(extension.runtime_url ? { runtimeUrl: extension.runtime_url } : {}),
        ...(extension.url ? { url: extension.url } : {}),
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
  /** Whether a workflow using the trigger was on when it was received (a workflow run started); null before this was kept. */
  workflow_on: boolean | null;
}

/**
 * flowTriggerReceive as Flow answers it: the trigger's payload checked, then recorded, with whether a workflow using
 * it was on (Flow takes a trigger without one, and runs nothing).
 */
export function receiveFlowTrigger(store: Store, triggers: Map<string, FlowExtension>, handle: unknown, payload: unknown): UserError[] {
  const trigger = typeof handle === "string" ? triggers.get(handle) : undefined;
  if (!trigger || trigger.type !== "flow_trigger") return [{ field: ["handle"], message: `The app has no Flow trigger with handle ${String(handle)}` }];
  const errors = checkTriggerPayload(store, trigger, payload);
  if (errors.length > 0) return errors;
  store
    .sql("INSERT INTO flow_trigger_runs (handle, payload_json, received_at, workflow_on) VALUES (?, ?, ?, ?)")
    .run(trigger.handle, JSON.stringify(payload), store.now(), workflowOn(store, trigger.handle) ? 1 : 0);
  return [];
}

/** The triggers received, oldest first (optionally of one handle). */
export function listFlowTriggerRuns(store: Store, handle?: string): FlowTriggerRun[] {
  const rows = (
    handle
      ? store.sql("SELECT * FROM flow_trigger_runs WHERE handle = ? ORDER BY id").all(handle)
      : store.sql("SELECT * FROM flow_trigger_runs ORDER BY id").all()
  ) as Array<{ id: number; handle: string; payload_json: string; received_at: string; workflow_on: number | null }>;
  return rows.map((row) => ({
    id: row.id,
    handle: row.handle,
    payload: JSON.parse(row.payload_json) as Record<string, unknown>,
    received_at: row.received_at,
    workflow_on: row.workflow_on === null ? null : row.workflow_on === 1,
  }));
}

/** Where and how the local admin calls the app as Flow does. */
interface FlowCallOptions {
  appUrl: string;
  apiSecret: string;
  shopDomain: string;
  fetch?: typeof fetch;
}

/**
 * POSTs `body` to `url`'s path on the app's URL (an absolute url's host is the deployed app's) as Flow does: JSON,
 * signed with the app's secret (x-shopify-hmac-sha256, base64 HMAC-SHA256 of the body) unless `signature` replaces
 * it. Answers the app's status and its body (JSON, or the text when it is not).
 */
async function postAsFlow(options: FlowCallOptions, url: string, body: string, signature?: string): Promise<{ status: number; body: unknown }> {
  const response = await (options.fetch ?? fetch)(new URL(new URL(url, options.appUrl).pathname, options.appUrl), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": signature ?? createHmac("sha256", options.apiSecret).update(body).digest("base64"),
      "x-shopify-shop-domain": options.shopDomain,
    },
    body,
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

/** The app's Flow extension `handle`, which must be of `type`: throws naming what the app lacks otherwise. */
function extensionOf(extensions: Map<string, FlowExtension>, handle: string, type: "flow_action" | "flow_trigger"): FlowExtension {
  const extension = extensions.get(handle);
  if (extension?.type !== type || (type === "flow_action" && !extension.runtimeUrl))
    throw new Error(`The app has no Flow ${type === "flow_action" ? "action" : "trigger"} with handle ${handle}`);
  return extension;
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
  options: FlowCallOptions & { actions: Map<string, FlowExtension> },
  call: { handle: string; orderId: number; actionRunId?: string; signature?: string },
): Promise<FlowActionCall> {
  const action = extensionOf(options.actions, call.handle, "flow_action");
  const actionRunId = call.actionRunId ?? randomUUID();
  const body = JSON.stringify({
    shop_id: store.getShop().id,
    shopify_domain: options.shopDomain,
    action_run_id: actionRunId,
    action_definition_id: action.handle,
    handle: action.handle,
    properties: { order_id: call.orderId },
  });
  const answer = await postAsFlow(options, action.runtimeUrl!, body, call.signature);
  store
    .sql("INSERT INTO flow_action_runs (action_run_id, handle, order_id, status, answer_json, called_at) VALUES (?, ?, ?, ?, ?, ?)")
    .run(actionRunId, action.handle, call.orderId, answer.status, JSON.stringify(answer.body), store.now());
  return { actionRunId, ...answer };
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

// Workflows ----------------------------------------------------------------------------------------------------

/** Whether a workflow using the trigger is on (turned on, the app's lifecycle callback answered 2xx). */
export function workflowOn(store: Store, handle: string): boolean {
  const row = store.sql("SELECT enabled FROM flow_workflows WHERE handle = ?").get(handle) as { enabled: number } | undefined;
  return row?.enabled === 1;
}

/** A workflow turned on or off, and what the app answered its trigger lifecycle callback. */
export interface FlowWorkflowChange {
  /** The app's answer to the lifecycle callback: its status, or null when it could not be reached (`body` says why). */
  status: number | null;
  body: unknown;
  handle: string;
  /** Turned on (true) or off (false), as asked. */
  enabled: boolean;
  /** Whether a workflow using the trigger is on now: as asked when the app took the callback, as it was otherwise. */
  workflowOn: boolean;
}

/**
 * A merchant turns on or off a workflow that starts with the app's trigger `handle`, as Flow does it: the app's
 * trigger lifecycle callback (its `url` on the app's URL) is POSTed the documented body, signed with the app's secret
 * (x-shopify-hmac-sha256), and the workflow is recorded on or off only when the app answers 2xx (Flow will not
 * enable a workflow the app refused). Without a lifecycle callback extension Flow tells the app nothing: the change
 * is recorded as it is. `timestamp` and `signature` replace the callback's own (a test's late or forged callback).
 * Each call and its answer are recorded for the Flow page.
 */
export async function changeFlowWorkflow(
  store: Store,
  change: { handle: string; enabled: boolean; timestamp?: string; signature?: string },
  options: FlowCallOptions & { extensions: Map<string, FlowExtension> },
): Promise<FlowWorkflowChange> {
  const trigger = extensionOf(options.extensions, change.handle, "flow_trigger");
  const callback = [...options.extensions.values()].find((extension) => extension.type === "flow_trigger_lifecycle_callback" && extension.url);
  let status: number | null = null;
  let answer: unknown = null;
  if (callback?.url) {
    const body = JSON.stringify({
      flow_trigger_definition_id: trigger.handle,
      has_enabled_flow: change.enabled,
      shop_id: store.getShop().id,
      shopify_domain: options.shopDomain,
      timestamp: change.timestamp ?? store.now(),
    });
    try {
      ({ status, body: answer } = await postAsFlow(options, callback.url, body, change.signature));
    } catch (error) {
      const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      answer = `The app could not be reached at ${options.appUrl}: ${why}`;
    }
  }
  const taken = callback === undefined || (status !== null && status >= 200 && status < 300);
  const now = store.now();
  store.transaction(() => {
    if (taken)
      store
        .sql(
          "INSERT INTO flow_workflows (handle, enabled, changed_at) VALUES (?, ?, ?) ON CONFLICT (handle) DO UPDATE SET enabled = excluded.enabled, changed_at = excluded.changed_at",
        )
        .run(trigger.handle, change.enabled ? 1 : 0, now);
    store
      .sql("INSERT INTO flow_lifecycle_calls (handle, enabled, status, answer_json, called_at) VALUES (?, ?, ?, ?, ?)")
      .run(trigger.handle, change.enabled ? 1 : 0, status, JSON.stringify(answer), now);
  });
  return { handle: trigger.handle, enabled: change.enabled, workflowOn: workflowOn(store, trigger.handle), status, body: answer };
}

export interface FlowWorkflowState {
  handle: string;
  on: boolean;
  /** The last lifecycle callback sent for the trigger and the app's answer (null: never sent). */
  lastCall: { enabled: boolean; status: number | null; body: unknown; calledAt: string } | null;
}

/** Each trigger's workflow state and last lifecycle callback, by handle. */
export function listFlowWorkflows(store: Store): Map<string, FlowWorkflowState> {
  const states = new Map<string, FlowWorkflowState>();
  const workflows = store.sql("SELECT handle, enabled FROM flow_workflows").all() as Array<{ handle: string; enabled: number }>;
  for (const row of workflows) states.set(row.handle, { handle: row.handle, on: row.enabled === 1, lastCall: null });
  const calls = store.sql("SELECT * FROM flow_lifecycle_calls WHERE id IN (SELECT MAX(id) FROM flow_lifecycle_calls GROUP BY handle)").all() as Array<{
    handle: string;
    enabled: number;
    status: number | null;
    answer_json: string;
    called_at: string;
  }>;
  for (const call of calls) {
    const state = states.get(call.handle) ?? { handle: call.handle, on: false, lastCall: null };
    state.lastCall = { enabled: call.enabled === 1, status: call.status, body: JSON.parse(call.answer_json) as unknown, calledAt: call.called_at };
    states.set(call.handle, state);
  }
  return states;
}
