import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, EmptyState, Page, Text } from "@shopify/polaris";
import type { Context } from "../context";
import { FILTER_PARAMS, parseOrderListQuery } from "../orders/order-list-query";
import { matchingShippableOrderIds, orderListFilters } from "../orders/orders-to-ship.server";
import { parseOrderSelection } from "../orders/selection";
import { QuotingUnavailableError, SenderMissingError } from "../quoting/errors";
import { startQuoteRun } from "../quoting/quote-run.server";
import { adminContext } from "../request-context.server";
import { requireAccount } from "../settings/require-account.server";
import { settingsUrlReturningTo } from "../settings/return-to";
import { loadShopSummary } from "../settings/shop-profile.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/** The selection parameters: they start the run and are not carried to the run's page. */
const SELECTION_PARAMS = ["ids[]", "ids", "id", "all", ...FILTER_PARAMS];

/** "All matching orders" from Orders to ship: every shippable order its filters match, across pages. */
async function matchingOrders(ctx: Context, params: URLSearchParams): Promise<string[]> {
  const shop = await loadShopSummary(ctx);
  return matchingShippableOrderIds(ctx, orderListFilters(parseOrderListQuery(params), shop, ctx.now()));
}

/**
 * Where "Create shipping labels" lands (the order list's bulk action, Shopify's admin links): starts quoting
 * the selected orders and goes to the run's rates page. What stops it (no sender address, the Shipping API
 * unavailable) is shown here with where to fix it; without an account the merchant is sent to onboarding.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx, redirect } = await adminContext(request);
  const url = new URL(request.url);
  const selection = url.searchParams.get("all") === "1" ? { ids: await matchingOrders(ctx, url.searchParams) } : parseOrderSelection(url.searchParams);
  if ("error" in selection) throw new Response(selection.error, { status: 400 });
  if (selection.ids.length === 0) return { problem: null, selected: 0 };
  await requireAccount(ctx, request);
  try {
    const { runId } = await startQuoteRun(ctx, selection.ids);
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

export const handle: PageHandle<typeof loader> = { title: "Create shipping labels" };
export const meta = pageMeta;

export default function NewQuoteRun() {
  const { problem, selected } = useLoaderData<typeof loader>();
  return (
    <Page>
      <PageTitleBar />
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
