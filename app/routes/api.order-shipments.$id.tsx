import type { LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { json } from "@remix-run/node";
import { z } from "zod";
import { contextFor } from "../context.server";
import { loadServiceNames } from "../quoting/service-names.server";
import { loadShopTimeZone } from "../settings/shop-time-zone.server";
import { orderShipmentsView } from "../extension/order-shipments.server";
import { shopifyGid } from "../shopify/gid";
import { authenticateAdmin, extensionGetOnly } from "../request-context.server";

/**
 * The order-details block's data (extensions/order-shipments-block). Shopify's admin calls it from the
 * extension with a session token as Bearer; `authenticate.admin` validates it and answers the CORS
 * preflight, and `cors` adds the headers a cross-origin extension request needs.
 */

const OrderParam = z.object({ id: z.string("is required").regex(/^\d{1,20}$/, "must be the order's number in its admin URL, e.g. 1001") });

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors, admin } = await authenticateAdmin(request);
  const param = OrderParam.safeParse(params);
  if (!param.success) return cors(json({ error: describeIssues(param.error.issues, () => ({ label: "The order id" })).message }, { status: 400 }));
  const { id } = param.data;
  const ctx = contextFor(session.shop, { shopify: { admin, shop: session.shop } });
  // Carriers and services by name, times in the shop's time zone: as the app's own pages write them.
  const [names, timeZone] = await Promise.all([loadServiceNames(ctx), loadShopTimeZone(ctx)]);
  const view = await orderShipmentsView(ctx, shopifyGid("Order", id), { names, timeZone });
  if (!view)
    return cors(
      json(
        { error: `Consign has not seen order ${id} of ${session.shop}. Open Consign once so it reads your orders, then reload this page.` },
        { status: 404 },
      ),
    );
  return cors(json(view, { headers: { "cache-control": "private, no-store" } }));
};

/** Preflight (OPTIONS) is answered inside authenticate.admin; anything else is not served here. */
export const action = extensionGetOnly;
