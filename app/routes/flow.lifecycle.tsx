import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { contextFor } from "../context.server";
import { signedFlowBody } from "../request-context.server";
import { parseTriggerLifecycle, recordTriggerWorkflow } from "../signals/trigger-workflows.server";

const SAYS = "Flow posts its trigger lifecycle callbacks here.";

/**
 * Shopify Flow's trigger lifecycle callback (extensions/flow-trigger-lifecycle, its url): a workflow using one of
 * Consign's triggers was turned on or off. Bounded (413) and its HMAC verified over the bytes read (401) by the Flow
 * routes' helper, then parsed (400 naming the field, 404 for a trigger that is not Consign's) and recorded by the one
 * domain function, newer timestamps first (docs/decisions/047). Flow lets the merchant turn the workflow on only once
 * this answers 2xx, so nothing else is done here.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const body = await signedFlowBody(request, SAYS);
  if (typeof body !== "string") return body;
  const parsed = parseTriggerLifecycle(body);
  if (!parsed.ok) return json({ message: parsed.message }, { status: parsed.status });
  const { taken } = await recordTriggerWorkflow(contextFor(parsed.change.shop), parsed.change);
  return json({ message: taken ? "Recorded." : "A newer callback for this trigger is recorded already; this one changes nothing." }, { status: 200 });
};

export const loader = () => json({ message: SAYS }, { status: 405, headers: { allow: "POST" } });
