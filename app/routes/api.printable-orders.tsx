import type { LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { json } from "@remix-run/node";
import { contextFor } from "../context.server";
import { PrintOrdersQuery, printableOrders } from "../documents/order-print.server";
import { authenticateAdmin, extensionGetOnly } from "../request-context.server";

/**
 * What the print actions (extensions/order-print-action, extensions/orders-print-action) offer for the orders
 * Shopify's Print menu was opened on (`?orders=1001,1002`): which documents each can print, and why not the
 * others. Called from the extension with the session token as Bearer, cross-origin (CORS), as the
 * order-details block's data is; read from Consign's own database only.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticateAdmin(request);
  const query = PrintOrdersQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return cors(json({ error: describeIssues(query.error.issues).message }, { status: 400 }));
  const printable = await printableOrders(contextFor(session.shop), query.data.orders);
  if (!printable.ok) return cors(json({ error: printable.message }, { status: 404 }));
  return cors(json(printable.view, { headers: { "cache-control": "private, no-store" } }));
};

export const action = extensionGetOnly;
