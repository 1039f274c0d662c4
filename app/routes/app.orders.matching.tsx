import type { LoaderFunctionArgs } from "@remix-run/node";
import { parseOrderListQuery } from "../orders/order-list-query";
import { matchingShippableOrderIds, orderListFilters } from "../orders/orders-to-ship.server";
import { adminContext } from "../request-context.server";
import { loadShopSummary } from "../settings/shop-profile.server";

/**
 * How many orders "select all matching orders" selects on Orders to ship: the shippable orders its filters
 * match across every page, the number the quote page will quote. Read when the merchant selects them all.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const shop = await loadShopSummary(ctx);
  const ids = await matchingShippableOrderIds(ctx, orderListFilters(parseOrderListQuery(new URL(request.url).searchParams), shop, ctx.now()));
  return { shippable: ids.length };
};
