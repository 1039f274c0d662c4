import type { Context } from "../../context";
import { listPageOf } from "../../list-page.server";
import { loadServiceNames } from "../../quoting/service-names.server";
import { loadAccount } from "../../settings/account.server";
import { loadShopSummary } from "../../settings/shop-profile.server";
import { NO_NAMES } from "../../shipping/service-names";
import { orderNumber } from "../../shopify/gid";
import { needsAttention } from "../../tracking/tracking-views.server";
import { currentMirrorSync } from "../../orders/mirror-sync.server";
import { parseOrderListQuery } from "../../orders/order-list-query";
import { listOrdersToShip, orderListFilters } from "../../orders/orders-to-ship.server";
import { lastQuoteBlockers } from "../../quoting/last-quote.server";

/**
 * What Orders to ship shows for its address's query: the shop, the order sync under way, one page of the orders
 * with something left to ship (each with the path that books it on its own and, when its last quote was blocked,
 * why, as the rates page says it), whether an account is connected, and what needs the merchant's attention.
 */
export async function loadOrdersToShipPage(ctx: Context, params: URLSearchParams) {
  const query = parseOrderListQuery(params);
  const page = listPageOf(params);
  const shop = await loadShopSummary(ctx);
  const sync = await currentMirrorSync(ctx);
  const list = await listOrdersToShip(ctx, { ...orderListFilters(query, shop, ctx.now()), page, weightUnit: shop.weightUnit });
  const [attention, blocked] = await Promise.all([
    needsAttention(ctx, 10),
    lastQuoteBlockers(
      ctx,
      list.rows.map((row) => row.id),
    ),
  ]);
  return {
    shop,
    list: {
      ...list,
      rows: list.rows.map((row) => ({ ...row, bookPath: `/app/orders/${orderNumber(row.id)}/book`, blocked: blocked.get(row.id) ?? [] })),
    },
    connected: (await loadAccount(ctx)) !== null,
    sync,
    attention,
    // Names only when there is a shipment to name: the home page does not read List Services otherwise.
    names: attention.total > 0 ? await loadServiceNames(ctx) : NO_NAMES,
  };
}
