import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate, useSearchParams, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Page,
  Text,
  useIndexResourceState,
  type IndexTableProps,
} from "@shopify/polaris";
import { useEffect, useMemo } from "react";
import { useListPages } from "../../components/list-pages";
import { useRevalidateWhile, useSteadyCallback } from "../../components/page-hooks";
import { readPostedForm } from "../../posted-form.server";
import { adminContext } from "../../request-context.server";
import { requestMirrorSync } from "../../orders/mirror-sync.server";
import { FILTER_PARAMS } from "../../orders/order-list-query";
import { loadOrdersToShipPage } from "./page.server";
import { MirrorSyncBanners } from "../../orders/components/mirror-sync-banners";
import { NeedsAttention } from "../../tracking/components/needs-attention";
import { OrderFilters } from "./components/order-filters";
import { ORDER_HEADINGS, OrderRow } from "./components/order-row";
import type { loader as matchingLoader } from "../app.orders.matching";
import { PageTitleBar, pageMeta, type PageHandle } from "../../components/page-title";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  return loadOrdersToShipPage(ctx, new URL(request.url).searchParams);
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await adminContext(request);
  // Sync orders posts an empty form; anything else is refused before any work, its body read (readPostedForm).
  await readPostedForm(request);
  await requestMirrorSync(ctx);
  return { started: true };
};

export const handle: PageHandle<typeof loader> = { title: "Orders to ship" };
export const meta = pageMeta;

const ORDERS = { singular: "order", plural: "orders" };
const HEADINGS: IndexTableProps["headings"] = [...ORDER_HEADINGS];

export default function OrdersToShip() {
  const { shop, list, sync, connected, attention, names } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const shippable = useMemo(() => list.rows.filter((row) => row.shippable), [list.rows]);
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(shippable);
  // The same function on every render, so the table's rows (memo) render again only when their own selection changes.
  const onSelectionChange = useSteadyCallback(handleSelectionChange);

  useRevalidateWhile(sync.status === "RUNNING" || sync.status === "QUEUED", 1000);

  const pages = useListPages(list);
  const filters = new URLSearchParams();
  for (const name of FILTER_PARAMS) if (params.get(name)) filters.set(name, params.get(name)!);
  const acrossPages = allResourcesSelected && list.pages > 1;
  // Selecting every matching order asks how many of them can ship: the number the quote page will quote.
  const matching = useFetcher<typeof matchingLoader>();
  const matchingPath = `/app/orders/matching?${filters.toString()}`;
  useEffect(() => {
    if (acrossPages) matching.load(matchingPath);
    // matching.load is stable; the path changes with the filters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [acrossPages, matchingPath]);
  const shippableCount = acrossPages && matching.state === "idle" ? matching.data?.shippable : undefined;
  // "Select all" across pages sends the filters, and the quote page quotes every shippable order they match.
  const createLabels = useSteadyCallback(() => {
    const selection = new URLSearchParams();
    if (acrossPages) {
      selection.set("all", "1");
      for (const [name, value] of filters) selection.set(name, value);
    } else {
      for (const id of selectedResources) selection.append("ids[]", id);
    }
    navigate(`/app/quotes/new?${selection.toString()}`);
  });
  const bulkActions = useMemo(() => [{ content: "Create shipping labels", onAction: createLabels }], [createLabels]);

  return (
    <Page fullWidth>
      <PageTitleBar />
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="p" tone="subdued">
            <span data-testid="shop-name">{shop.name}</span> · ships from {shop.origin}
          </Text>
          <Button onClick={() => submit({}, { method: "post" })} loading={sync.status === "RUNNING" || sync.status === "QUEUED"}>
            Sync orders
          </Button>
        </InlineStack>
        {!connected && (
          <Banner tone="warning" title="Connect a Shipping API account to get rates" action={{ content: "Set up shipping", url: "/app/onboarding" }}>
            <p>Connect the account you ship with, or create one, then choose where you ship from in Settings.</p>
          </Banner>
        )}
        <NeedsAttention total={attention.total} rows={attention.rows} names={names} />
        <MirrorSyncBanners sync={sync} onSync={() => submit({}, { method: "post" })} />
        <Card padding="0">
          <div data-list-filter={params.get("scope") ?? "all"} hidden />
          <div style={{ padding: "12px" }}>
            <OrderFilters countries={list.countries} tags={list.tags} />
          </div>
          <IndexTable
            resourceName={ORDERS}
            itemCount={list.rows.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            hasMoreItems={list.pages > 1}
            paginatedSelectAllActionText={`Select all ${list.total} matching orders`}
            paginatedSelectAllText={
              shippableCount === undefined
                ? `All ${list.total} matching orders are selected (counting those that can ship…)`
                : `All ${shippableCount} matching orders that can ship are selected`
            }
            onSelectionChange={onSelectionChange}
            promotedBulkActions={bulkActions}
            emptyState={
              <EmptyState heading="No orders to ship" image="">
                <p>Nothing open matches. Clear the search and filters, or choose Sync orders to read new orders from Shopify.</p>
              </EmptyState>
            }
            headings={HEADINGS}
            pagination={pages.pagination}
            loading={pages.loading}
          >
            {list.rows.map((row, index) => (
              <OrderRow key={row.id} row={row} index={index} selected={selectedResources.includes(row.id)} />
            ))}
          </IndexTable>
        </Card>
        <Text as="p" tone="subdued">
          <span data-testid="orders-total">{list.total}</span> order(s) with something left to ship · page {list.page} of {list.pages}
        </Text>
      </BlockStack>
    </Page>
  );
}
