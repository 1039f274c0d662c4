import type { LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { json } from "@remix-run/node";
import { contextFor } from "../context.server";
import { PrintOrdersQuery, printOrders } from "../documents/order-print.server";
import { PrintDocument } from "../documents/print-actions-view";
import { authenticateAdmin, extensionGetOnly } from "../request-context.server";
import { NotConnectedError } from "../shipping/client.server";
import { withShipping } from "../shipping/context.server";

/**
 * A document of the print actions, as a PDF: `/api/print/<labels|slips|invoices|pick-list>?orders=1001,1002`.
 * The print action sets it as its `src`; Shopify's admin resolves it against the app's URL and fetches it with
 * the session token as Bearer, then shows and prints the PDF (docs/decisions/028).
 */

const STATUS = { "not-found": 404, "nothing-to-print": 409, failed: 502 } as const;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { admin, session, cors } = await authenticateAdmin(request);
  const refuse = (status: number, error: string) => cors(json({ error }, { status }));
  const document = PrintDocument.safeParse(params.document, { error: () => `must be one of ${PrintDocument.options.join(", ")}` });
  if (!document.success) return refuse(400, describeIssues(document.error.issues, () => ({ label: "Document" })).message);
  const query = PrintOrdersQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return refuse(400, describeIssues(query.error.issues).message);
  let ctx;
  try {
    ctx = await withShipping(contextFor(session.shop, { shopify: { admin, shop: session.shop } }));
  } catch (error) {
    if (error instanceof NotConnectedError)
      return refuse(409, "Consign is not connected to a Shipping API account yet. Open Consign and connect it, then print.");
    throw error;
  }
  const printed = await printOrders(ctx, document.data, query.data.orders);
  if (!printed.ok) return refuse(STATUS[printed.reason], printed.message);
  return cors(
    new Response(new Uint8Array(printed.pdf), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `inline; filename="${printed.filename}"`,
        "cache-control": "private, no-store",
      },
    }),
  );
};

export const action = extensionGetOnly;
