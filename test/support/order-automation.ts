import type { Store } from "../../devstore/store/store";
import { flowSignature } from "../../app/flow/flow-signature";
import { API_SECRET, SHOP } from "./devstore-harness";
import type { ServiceAndAdmin } from "./service-and-admin";

/**
 * What the order automation tests (docs/decisions/043) read and send: an order's tags in the local admin, the Flow
 * triggers it received, and Flow's action request signed as Flow signs it, answered by the app's route.
 */

/** The order's tags in the local admin's store. */
export function orderTagsIn(store: Store, orderId: string): string[] {
  return JSON.parse(store.getOrder(Number(orderId.split("/").pop()))?.tags_json ?? "[]") as string[];
}

/** The Flow triggers of `handle` the local admin received, oldest first, each with whether a workflow using it was on. */
export async function receivedTriggers(
  harness: ServiceAndAdmin["harness"],
  handle: string,
): Promise<Array<{ payload: Record<string, unknown>; workflow_on: boolean | null }>> {
  const answer = await harness.admin.app.inject({ method: "GET", url: `/admin/flow/triggers.json?handle=${handle}` });
  return answer.json();
}

/**
 * The merchant turns on (or off) a workflow using each trigger of `handles` in the local admin's Flow: the local admin
 * calls the app's trigger lifecycle callback signed, as Flow does (the app's route answers it in this process:
 * app-routes-fetch.ts), and the workflow is on once the app answered 2xx. Throws when the app refused.
 */
export async function turnOnWorkflows(harness: ServiceAndAdmin["harness"], handles: readonly string[], enabled = true): Promise<void> {
  for (const handle of handles) {
    const answer = await harness.admin.app.inject({ method: "POST", url: "/admin/flow/workflows", payload: { handle, enabled } });
    if (answer.statusCode !== 200)
      throw new Error(`turning ${enabled ? "on" : "off"} a workflow using ${handle}: the app answered ${answer.statusCode} ${answer.body}`);
  }
}

/** Flow's request for the action on an order, signed as Flow signs it (or with `signature`, or another `body`). */
export function flowActionRequest(orderId: number | string, actionRunId: string, options: { signature?: string; body?: string } = {}): Request {
  const body =
    options.body ??
    JSON.stringify({
      shop_id: 1,
      shopify_domain: SHOP,
      action_run_id: actionRunId,
      action_definition_id: "buy-shipping-label",
      handle: "buy-shipping-label",
      properties: { order_id: orderId },
    });
  return new Request("http://localhost:3000/flow/actions/buy-label", {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-hmac-sha256": options.signature ?? flowSignature(body, API_SECRET) },
    body,
  });
}

/** The app's Flow action route's answer to `request` (the app's environment is set: the route is imported here). */
export async function runFlowAction(request: Request): Promise<{ status: number; body: Record<string, unknown> }> {
  const { action } = await import("../../app/routes/flow.actions.buy-label");
  const response = (await action({ request, params: {}, context: {} })) as Response;
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
