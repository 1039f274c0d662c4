import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { contextFor } from "../context.server";
import { shippableCount, startLabelRun } from "../extension/label-run.server";
import { MODAL_ORDER_LIMIT } from "../extension/label-run-view";
import { orderNumbersQuery } from "../orders/selection";
import { discardBody } from "../posted-form.server";
import { describeIssues } from "../field-errors";
import { authenticateAdmin } from "../request-context.server";

/**
 * The order list's Buy labels modal (extensions/buy-labels) starts here: `POST /api/label-runs?orders=1001,1002`
 * quotes the selected orders with the shop's rule, as a quote run whose progress the modal then reads at
 * `/api/label-runs/:runId`. Called from the extension with the session token as Bearer, cross-origin (CORS).
 */

const LabelRunOrders = orderNumbersQuery(MODAL_ORDER_LIMIT);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { admin, session, cors } = await authenticateAdmin(request);
  await discardBody(request);
  const refuse = (status: number, error: string) => cors(json({ error }, { status }));
  if (request.method !== "POST") return cors(json({ error: "Only GET and POST are served here." }, { status: 405, headers: { allow: "GET, POST, OPTIONS" } }));
  const query = LabelRunOrders.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return refuse(400, describeIssues(query.error.issues).message);
  const started = await startLabelRun(contextFor(session.shop, { shopify: { admin, shop: session.shop } }), query.data.orders);
  if (!started.ok) return refuse(started.status, started.message);
  return cors(json({ runId: started.runId }, { status: 201, headers: { "cache-control": "private, no-store" } }));
};

/**
 * `GET ?orders=…`: how many of the selection may ship, for the selection action's should-render (the modal is
 * hidden when none can). Read from Consign's own database.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticateAdmin(request);
  const query = LabelRunOrders.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return cors(json({ error: describeIssues(query.error.issues).message }, { status: 400 }));
  return cors(json(await shippableCount(contextFor(session.shop), query.data.orders), { headers: { "cache-control": "private, no-store" } }));
};
