import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { TitleBar } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Card, EmptyState, Page, Text } from "@shopify/polaris";
import prisma from "../db.server";
import { FILTER_PARAMS, parseOrderListQuery } from "../orders/order-list-query";
import { matchingShippableOrderIds, orderListFilters } from "../orders/orders-to-ship.server";
import { parseOrderSelection } from "../orders/selection";
import { QuotingUnavailableError, SenderMissingError } from "../quoting/errors";
import { startQuoteRun } from "../quoting/quote-run.server";
import { requireAccount } from "../settings/require-account.server";
import { settingsUrlReturningTo } from "../settings/return-to";
import type { ShopAdmin } from "../shopify/gateway.server";
import { loadShopSummary } from "../shopify/shop.server";
import { authenticate } from "../shopify.server";

/** The selection parameters: they start the run and are not carried to the run's page. */
const SELECTION_PARAMS = ["ids[]", "ids", "id", "all", ...FILTER_PARAMS];

/** "All matching orders" from Orders to ship: every shippable order its filters match, across pages. */
async function matchingOrders(context: ShopAdmin, params: URLSearchParams, now: Date): Promise<string[]> {
  const shop = await loadShopSummary(context);
  return matchingShippableOrderIds({ db: prisma, shop: context.shop }, orderListFilters(parseOrderListQuery(params), shop, now));
}

/**
 * Where "Create shipping labels" lands (the order list's bulk action, Shopify's admin links): starts quoting
 * the selected orders and goes to the run's rates page. What stops it (no sender address, the Shipping API
 * unavailable) is shown here with where to fix it; without an account the merchant is sent to onboarding.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin, session, redirect } = await authenticate.admin(request);
  const url = new URL(request.url);
  const context = { admin, shop: session.shop };
  const now = new Date();
  const selection = url.searchParams.get("all") === "1" ? { ids: await matchingOrders(context, url.searchParams, now) } : parseOrderSelection(url.searchParams);
  if ("error" in selection) throw new Response(selection.error, { status: 400 });
  if (selection.ids.length === 0) return { problem: null, selected: 0 };
  await requireAccount({ db: prisma, shop: session.shop }, request);
  try {
    const { runId } = await startQuoteRun(prisma, session.shop, selection.ids, { admin: context, now });
    for (const name of SELECTION_PARAMS) url.searchParams.delete(name);
    url.pathname = `/app/quotes/${runId}`;
    return redirect(`${url.pathname}${url.search}`);
  } catch (error) {
    // Settings comes back here once saved, and this page quotes the same selection.
    const fixAt = settingsUrlReturningTo(request.url);
    if (error instanceof SenderMissingError) return { problem: { message: error.message, fixAt, fixLabel: "Open Settings" }, selected: selection.ids.length };
    if (error instanceof QuotingUnavailableError)
      return { problem: { message: error.message, fixAt, fixLabel: "Check your account in Settings" }, selected: selection.ids.length };
    throw error;
  }
};

export default function NewQuoteRun() {
  const { problem, selected } = useLoaderData<typeof loader>();
  return (
    <Page>
      <TitleBar title="Create shipping labels" />
      <BlockStack gap="400">
        {problem ? (
          <Banner tone="warning" title={`${selected} selected order(s) could not be quoted yet`}>
            <BlockStack gap="200">
              <p data-testid="quote-start-problem">{problem.message}</p>
              <Text as="p">
                <Link to={problem.fixAt}>{problem.fixLabel}</Link>: once you save, Consign comes back here and quotes these orders.
              </Text>
            </BlockStack>
          </Banner>
        ) : (
          <Card>
            <EmptyState heading="No orders selected" image="">
              <p>
                Select orders in <Link to="/app">Orders to ship</Link> (or in Shopify’s order list) and choose “Create shipping labels”.
              </p>
            </EmptyState>
          </Card>
        )}
      </BlockStack>
    </Page>
  );
}
