import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { contextFor } from "../context.server";
import { buyLabelForFlow, parseFlowActionRequest } from "../flow/flow-action.server";
import { signedFlowBody } from "../request-context.server";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping } from "../shipping/context.server";

/**
 * Shopify Flow's action "Buy a shipping label with Consign" (extensions/flow-buy-label, its runtime_url). The body is
 * bounded (413 past FLOW_ACTION_BODY_LIMIT, unread), then its HMAC is verified over the bytes read (401), both by the
 * Flow routes' helper (signedFlowBody), then it is parsed (400 naming the field) and the run handed to the one domain
 * function (docs/decisions/043).
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const body = await signedFlowBody(request, "Flow posts its actions here.");
  if (typeof body !== "string") return body;
  const parsed = parseFlowActionRequest(body);
  if (!parsed.ok) return json({ message: parsed.message }, { status: 400 });
  let ctx;
  try {
    ctx = await withShipping(contextFor(parsed.request.shopify_domain));
  } catch (error) {
    if (error instanceof NotConnectedError)
      return json({ message: "Consign is not connected to a Shipping API account in this store yet. Open Consign and connect it." }, { status: 422 });
    throw error;
  }
  const answer = await buyLabelForFlow(ctx, parsed.request);
  return json(answer.body, { status: answer.status, headers: answer.status === 503 ? { "retry-after": "30" } : {} });
};

export const loader = () => json({ message: "Flow posts its actions here." }, { status: 405, headers: { allow: "POST" } });
