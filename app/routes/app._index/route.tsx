import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, useNavigate, useSearchParams, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Page,
  Select,
  Text,
  TextField,
  useIndexResourceState,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { listPagination, usePageTurn } from "../../components/list-pages";
import { useRevalidateWhile } from "../../components/page-hooks";
import { readPostedForm } from "../../posted-form.server";
import { adminContext } from "../../request-context.server";
import { requestMirrorSync } from "../../orders/mirror-sync.server";
import { AGE_FILTERS, FILTER_PARAMS } from "../../orders/order-list-query";
import { loadOrdersToShipPage } from "./page.server";
import { MirrorSyncBanners } from "../../orders/components/mirror-sync-banners";
import { NeedsAttention } from "../../tracking/components/needs-attention";
import { ShopDateTime } from "../../components/shop-time";
import { WrappingText } from "../../components/wrapping-text";
import { fulfillmentStatusName } from "../../orders/order-status";
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

/** One filter of the list as a select: its parameter, its label, the value that means "any", what it offers. */
interface FilterSelect {
  name: (typeof FILTER_PARAMS)[number];
  label: string;
  any: string;
  options: Array<{ label: string; value: string }>;
}

/** The filters whose "any" is a choice of its own (the others add "Any" before what the list offers). */
const SCOPE_OPTIONS = [
  { label: "All", value: "all" },
  { label: "Domestic", value: "domestic" },
  { label: "International", value: "international" },
];
const QUOTED_OPTIONS = [
  { label: "Any", value: "any" },
  { label: "Already quoted", value: "quoted" },
  { label: "Not quoted yet", value: "not-quoted" },
];

export const handle: PageHandle<typeof loader> = { title: "Orders to ship" };
export const meta = pageMeta;

export default function OrdersToShip() {
  const { shop, list, sync, connected, attention, names } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const [search, setSearch] = useState(params.get("q") ?? "");
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(list.rows.filter((row) => row.shippable));

  useRevalidateWhile(sync.status === "RUNNING" || sync.status === "QUEUED", 1000);

  /** A filter's new value: back to the first page of what it matches. */
  const setFilter = (name: (typeof FILTER_PARAMS)[number], value: string) => {
    const next = new URLSearchParams(params);
    if (value && value !== "all" && value !== "any") next.set(name, value);
    else next.delete(name);
    next.delete("page");
    navigate(`?${next.toString()}`);
  };
  const goToPage = usePageTurn();
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
  const createLabels = () => {
    const selection = new URLSearchParams();
    if (acrossPages) {
      selection.set("all", "1");
      for (const [name, value] of filters) selection.set(name, value);
    } else {
      for (const id of selectedResources) selection.append("ids[]", id);
    }
    navigate(`/app/quotes/new?${selection.toString()}`);
  };

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
            <Form method="get">
              {/* Search submits the form: the filters chosen beside it travel with the text. */}
              {FILTER_PARAMS.filter((name) => name !== "q" && params.get(name)).map((name) => (
                <input key={name} type="hidden" name={name} value={params.get(name)!} />
              ))}
              <InlineStack gap="300" blockAlign="end">
                <div style={{ minWidth: 280 }}>
                  <TextField label="Search" labelHidden name="q" value={search} onChange={setSearch} placeholder="Order, email or address" autoComplete="off" />
                </div>
                {(
                  [
                    { name: "scope", label: "Destination", any: "all", options: SCOPE_OPTIONS },
                    { name: "country", label: "Country", any: "", options: list.countries.map((country) => ({ label: country.name, value: country.code })) },
                    { name: "tag", label: "Tag", any: "", options: list.tags.map((tag) => ({ label: tag, value: tag })) },
                    { name: "age", label: "Age", any: "", options: Object.entries(AGE_FILTERS).map(([days, label]) => ({ label, value: days })) },
                    { name: "quoted", label: "Rates", any: "any", options: QUOTED_OPTIONS },
                  ] satisfies FilterSelect[]
                ).map((filter) => (
                  <Select
                    key={filter.name}
                    label={filter.label}
                    labelInline
                    options={filter.any === "all" || filter.any === "any" ? filter.options : [{ label: "Any", value: "" }, ...filter.options]}
                    value={params.get(filter.name) ?? filter.any}
                    onChange={(value) => setFilter(filter.name, value)}
                  />
                ))}
                <Button submit>Search</Button>
              </InlineStack>
            </Form>
          </div>
          <IndexTable
            resourceName={{ singular: "order", plural: "orders" }}
            itemCount={list.rows.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            hasMoreItems={list.pages > 1}
            paginatedSelectAllActionText={`Select all ${list.total} matching orders`}
            paginatedSelectAllText={
              shippableCount === undefined
                ? `All ${list.total} matching orders are selected (counting those that can ship…)`
                : `All ${shippableCount} matching orders that can ship are selected`
            }
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[{ content: "Create shipping labels", onAction: createLabels }]}
            emptyState={
              <EmptyState heading="No orders to ship" image="">
                <p>Nothing open matches. Clear the search and filters, or choose Sync orders to read new orders from Shopify.</p>
              </EmptyState>
            }
            headings={[{ title: "Order" }, { title: "Date" }, { title: "Ship to" }, { title: "Items" }, { title: "Status" }]}
            pagination={listPagination(list, goToPage)}
          >
            {list.rows.map((row, index) => (
              <IndexTable.Row id={row.id} key={row.id} position={index} selected={selectedResources.includes(row.id)} disabled={!row.shippable}>
                <IndexTable.Cell>
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="span" fontWeight="semibold">
                      <span data-testid="order-name">{row.name}</span>
                    </Text>
                    {row.quoted && <Badge tone="info">Rates ready</Badge>}
                    {row.quoted && (
                      <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
                        <Link to={row.bookPath}>Book alone</Link>
                      </span>
                    )}
                  </InlineStack>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <ShopDateTime value={row.createdAt} dateOnly />
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <WrappingText maxWidth={260}>{row.destination}</WrappingText>
                </IndexTable.Cell>
                <IndexTable.Cell>{row.items}</IndexTable.Cell>
                <IndexTable.Cell>
                  {row.shippable ? (
                    <Badge tone="attention">{fulfillmentStatusName(row.fulfillmentStatus)}</Badge>
                  ) : (
                    <WrappingText maxWidth={300}>
                      <Text as="span" tone="subdued">
                        {row.reason}
                      </Text>
                    </WrappingText>
                  )}
                </IndexTable.Cell>
              </IndexTable.Row>
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
