import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { TrackingNumbers } from "../components/tracking-numbers";
import { Form, Link as RemixLink, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, EmptyState, IndexTable, InlineStack, Link, Page, Tabs, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { requestContext } from "../request-context.server";
import { readPostedForm } from "../posted-form.server";
import { useListPages, useTabTurn } from "../components/list-pages";
import { useRevalidateWhile } from "../components/page-hooks";
import { formatMoney } from "../shipping/money";
import { carrierName, serviceName, type ServiceNames } from "../shipping/service-names";
import { loadServiceNames } from "../quoting/service-names.server";
import { SearchKeyword, searchBookedShipments, type ShipmentSearchRow } from "../search/shipment-search.server";
import { checkTrackingNow, viewTracking } from "../tracking/run.server";
import { TrackingRow, TRACKING_HEADINGS } from "../tracking/components/tracking-row";
import { TrackingFilter, TrackingSearch } from "../tracking/tracking-views.server";
import { listPageOf } from "../list-page.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";
import { SearchBox } from "../search/components/search-box";

/**
 * Shipments: the tracking dashboard (every shipment Consign fulfilled, with the carrier's status, last event
 * and where, days in transit, filters and counts), and Search Shipments on the Shipping API (`q`).
 */

type SearchPage = { mode: "search"; rows: ShipmentSearchRow[]; problem: string | null; names: ServiceNames };
type DashboardPage = { mode: "dashboard"; names: ServiceNames } & Awaited<ReturnType<typeof viewTracking>>;

export const loader = async ({ request }: LoaderFunctionArgs): Promise<SearchPage | DashboardPage> => {
  const { ctx } = await requestContext(request);
  const params = new URL(request.url).searchParams;
  const q = params.get("q");
  const names = await loadServiceNames(ctx);
  if (q !== null) {
    const keyword = SearchKeyword.safeParse(q);
    if (!keyword.success) return { mode: "search", rows: [], problem: describeIssues(keyword.error.issues).message, names };
    const result = await searchBookedShipments(ctx, keyword.data);
    return result.ok ? { mode: "search", rows: result.rows, problem: null, names } : { mode: "search", rows: [], problem: result.message, names };
  }
  const filter = TrackingFilter.parse(params.get("status") ?? "all");
  const page = listPageOf(params);
  return { mode: "dashboard", names, ...(await viewTracking(ctx, { filter, q: TrackingSearch.parse(params.get("find") ?? ""), page })) };
};

const CheckForm = z.object({ intent: z.literal("check", { message: "must be check" }) });

export const action = async ({ request }: ActionFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const form = CheckForm.safeParse(Object.fromEntries(await readPostedForm(request)));
  if (!form.success) return json({ error: describeIssues(form.error.issues).message }, { status: 400 });
  return json(await checkTrackingNow(ctx));
};

const TABS: ReadonlyArray<{ id: TrackingFilter; label: string }> = [
  { id: "all", label: "All" },
  { id: "label_created", label: "Label created" },
  { id: "in_transit", label: "In transit" },
  { id: "out_for_delivery", label: "Out for delivery" },
  { id: "delivered", label: "Delivered" },
  { id: "attention", label: "Needs attention" },
  { id: "stale", label: "No news" },
];

const EMPTY: Record<TrackingFilter, string> = {
  all: "Book labels and let Consign write them back to Shopify: every fulfilled shipment is tracked here until it is delivered.",
  label_created: "Every label booked has been scanned by its carrier.",
  in_transit: "No parcels are on their way right now.",
  out_for_delivery: "No parcels are out for delivery right now.",
  delivered: "No deliveries yet. Parcels show here once the carrier reports them delivered.",
  attention: "Nothing needs you: no failed attempts, exceptions or silent parcels.",
  stale: "No shipment has gone without a carrier update for 30 days.",
};

function SearchResults({ page }: { page: Extract<SerializeFrom<typeof loader>, { mode: "search" }> }) {
  const [params] = useSearchParams();
  return (
    <>
      <InlineStack>
        <RemixLink to="/app/shipments">All shipments</RemixLink>
      </InlineStack>
      {page.problem && (
        <Banner tone="warning">
          <p data-testid="search-problem">{page.problem}</p>
        </Banner>
      )}
      {!page.problem && (
        <Card padding="0">
          {page.rows.length === 0 ? (
            <EmptyState heading="No shipments found" image="">
              <p>Nothing booked matches “{params.get("q")}”. Try the order number without #, or a tracking number.</p>
            </EmptyState>
          ) : (
            <IndexTable
              resourceName={{ singular: "shipment", plural: "shipments" }}
              itemCount={page.rows.length}
              selectable={false}
              headings={[
                { title: "Order" },
                { title: "Carrier" },
                { title: "Service" },
                { title: "Tracking" },
                { title: "Cost" },
                { title: "Shipped" },
                { title: "To" },
              ]}
            >
              {page.rows.map((row, index) => (
                <IndexTable.Row id={row.bookNumber} key={row.bookNumber} position={index}>
                  <IndexTable.Cell>
                    <span data-testid="search-result" data-book-number={row.bookNumber}>
                      {row.order ? (
                        <InlineStack gap="200">
                          <RemixLink to={row.order.appPath}>{row.order.orderName}</RemixLink>
                          <Link url={row.order.adminUrl} target="_top">
                            in Shopify
                          </Link>
                        </InlineStack>
                      ) : (
                        <Text as="span" tone="subdued">
                          {row.reference || "—"}
                        </Text>
                      )}
                    </span>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{carrierName(page.names, row.carrierCode)}</IndexTable.Cell>
                  <IndexTable.Cell>{serviceName(page.names, row)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <InlineStack gap="100">
                      <TrackingNumbers numbers={row.trackingNumbers} />
                      {row.voided && <Badge tone="critical">Voided</Badge>}
                    </InlineStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{formatMoney(row.shippingCost, row.currency)}</IndexTable.Cell>
                  <IndexTable.Cell>{row.shipmentDate}</IndexTable.Cell>
                  <IndexTable.Cell>{row.receiver}</IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
      )}
    </>
  );
}

function Dashboard({ page }: { page: Extract<SerializeFrom<typeof loader>, { mode: "dashboard" }> }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [find, setFind] = useState(page.q);
  // While a pass runs, the page follows it.
  useRevalidateWhile(page.running, 2000);
  const selected = Math.max(
    0,
    TABS.findIndex((tab) => tab.id === page.filter),
  );
  const checking = navigation.state !== "idle" && navigation.formMethod === "POST";
  const pages = useListPages(page);
  const turnTab = useTabTurn("status");
  return (
    <>
      {page.running && (
        <Banner tone="info">
          <p data-testid="tracking-progress">
            Checking parcels with the carriers{page.due > 0 ? `: ${page.due} still to check` : ""}. This page updates by itself.
          </p>
        </Banner>
      )}
      <Card padding="0">
        <div data-tracking-filter={page.filter} hidden />
        <Tabs
          tabs={TABS.map((tab) => ({
            id: tab.id,
            content: `${tab.label} (${page.counts[tab.id]})`,
            accessibilityLabel: `${tab.label}: ${page.counts[tab.id]}`,
          }))}
          selected={selected}
          onSelect={(index) => turnTab(TABS[index]!.id)}
        >
          <BlockStack gap="0">
            <div style={{ padding: "12px 16px" }}>
              <Form method="get">
                <InlineStack gap="300" blockAlign="end" align="space-between">
                  <InlineStack gap="200" blockAlign="end">
                    <input type="hidden" name="status" value={page.filter} />
                    <div style={{ minWidth: 280 }}>
                      <TextField label="Filter by order or tracking number" name="find" value={find} onChange={setFind} autoComplete="off" />
                    </div>
                    <Button submit>Filter</Button>
                  </InlineStack>
                  <Button onClick={() => submit({ intent: "check" }, { method: "post" })} loading={checking || page.running} disabled={page.counts.all === 0}>
                    Check again now
                  </Button>
                </InlineStack>
              </Form>
            </div>
            {page.rows.length === 0 ? (
              <EmptyState heading={page.q ? "No shipments match" : "No shipments here"} image="">
                <p>{page.q ? `Nothing in this view matches “${page.q}”.` : EMPTY[page.filter]}</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "shipment", plural: "shipments" }}
                itemCount={page.rows.length}
                selectable={false}
                headings={TRACKING_HEADINGS}
                pagination={pages.pagination}
                loading={pages.loading}
              >
                {page.rows.map((row, index) => (
                  <TrackingRow key={row.shipmentId} row={row} index={index} names={page.names} />
                ))}
              </IndexTable>
            )}
          </BlockStack>
        </Tabs>
      </Card>
    </>
  );
}

export const handle: PageHandle<typeof loader> = { title: "Shipments" };
export const meta = pageMeta;

export default function Shipments() {
  const page = useLoaderData<typeof loader>();
  return (
    <Page>
      <PageTitleBar />
      <BlockStack gap="400">
        <SearchBox />
        {page.mode === "search" ? <SearchResults page={page} /> : <Dashboard page={page} />}
      </BlockStack>
    </Page>
  );
}
