import type { LoaderFunctionArgs } from "@remix-run/node";
import { describeIssues } from "../field-errors";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, DataTable, EmptyState, InlineGrid, InlineStack, Layout, Page, Select, Text } from "@shopify/polaris";
import { BarChart, PolarisVizProvider } from "@shopify/polaris-viz";
import polarisVizStyles from "@shopify/polaris-viz/build/esm/styles.css?url";
import { useState } from "react";
import { openLabelFile } from "../batches/components/label-file";
import { ClientOnly } from "../components/client-only";
import { OverviewQuery, PERIODS, type SpendRow } from "../overview/overview";
import { shippingOverview } from "../overview/overview.server";
import { formatMoney } from "../shipping/money";
import { loadServiceNames } from "../quoting/service-names.server";
import { adminContext } from "../request-context.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/** Shipping overview: spend, labels, destinations, carrier performance and waiting orders for a period. */

export const links = () => [{ rel: "stylesheet", href: polarisVizStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  const query = OverviewQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) throw new Response(describeIssues(query.error.issues).message, { status: 400 });
  return shippingOverview(ctx, query.data.period, await loadServiceNames(ctx));
};

export const handle: PageHandle<typeof loader> = { title: "Shipping overview" };
export const meta = pageMeta;

export default function Overview() {
  const overview = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const [exporting, setExporting] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  const money = (amount: string) => (overview.currency ? formatMoney(amount, overview.currency) : amount);
  const exportCsv = async () => {
    setExporting({ loading: true, error: null });
    try {
      setExporting({ loading: false, error: await openLabelFile(`/app/overview/export?period=${overview.period.days}`, "download") });
    } catch {
      setExporting({ loading: false, error: "The export could not be downloaded. Check your connection and try again." });
    }
  };

  return (
    <Page fullWidth>
      <PageTitleBar />
      <PolarisVizProvider>
        <BlockStack gap="400">
          <InlineStack gap="300" align="space-between" blockAlign="end">
            <div style={{ minWidth: 200 }} data-overview-period={overview.period.days}>
              <Select
                label="Period"
                options={PERIODS.map((days) => ({ label: days === 365 ? "Last 12 months" : `Last ${days} days`, value: String(days) }))}
                value={String(overview.period.days)}
                onChange={(value) => navigate(`/app/overview?period=${value}`)}
              />
            </div>
            <Button onClick={() => void exportCsv()} loading={exporting.loading}>
              Export CSV
            </Button>
          </InlineStack>
          {exporting.error && (
            <Banner tone="critical" onDismiss={() => setExporting({ loading: false, error: null })}>
              <p>{exporting.error}</p>
            </Banner>
          )}

          <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
            <Figure label="Labels bought" value={String(overview.labelsBought)} testId="labels-bought" loading={navigation.state === "loading"} />
            <Figure label="Spend" value={money(overview.totalSpend)} testId="total-spend" loading={navigation.state === "loading"} />
            <Figure
              label="Average cost per shipment"
              value={overview.averageCost ? money(overview.averageCost) : "—"}
              testId="average-cost"
              loading={navigation.state === "loading"}
            />
          </InlineGrid>

          {overview.labelsBought === 0 ? (
            <Card>
              <EmptyState
                heading={`No labels bought in the last ${overview.period.days} days`}
                action={{ content: "Go to orders to ship", url: "/app" }}
                image=""
              >
                <p>Select orders, get rates and book labels; spend by carrier and service, destinations and carrier performance appear here.</p>
              </EmptyState>
            </Card>
          ) : (
            <>
              <SpendCard title="Spend by carrier" rows={overview.byCarrier} money={money} testId="spend-by-carrier" keyTitle="Carrier" />
              <SpendCard title="Spend by service" rows={overview.byService} money={money} testId="spend-by-service" keyTitle="Service" />
              <Layout>
                <Layout.Section variant="oneHalf">
                  <Card>
                    <BlockStack gap="300">
                      <Text as="h2" variant="headingMd">
                        Shipments by destination country
                      </Text>
                      <DataTable
                        columnContentTypes={["text", "numeric"]}
                        headings={["Country", "Shipments"]}
                        rows={overview.byCountry.map((row) => [row.name, row.labels])}
                      />
                    </BlockStack>
                  </Card>
                </Layout.Section>
                <Layout.Section variant="oneHalf">
                  <Card>
                    <BlockStack gap="300">
                      <Text as="h2" variant="headingMd">
                        Carrier performance
                      </Text>
                      {overview.performance.length === 0 ? (
                        <EmptyState heading="No deliveries tracked yet" image="">
                          <p>On-time rate and transit time by carrier appear once tracking has recorded deliveries of your labels.</p>
                        </EmptyState>
                      ) : (
                        <DataTable
                          columnContentTypes={["text", "numeric", "numeric", "numeric"]}
                          headings={["Carrier", "Delivered", "On time", "Average transit"]}
                          rows={overview.performance.map((row) => [
                            row.carrier,
                            row.delivered,
                            row.onTimeRate === null ? "—" : `${Math.round(row.onTimeRate * 100)}%`,
                            `${row.averageTransitDays.toFixed(1)} days`,
                          ])}
                        />
                      )}
                    </BlockStack>
                  </Card>
                </Layout.Section>
              </Layout>
            </>
          )}

          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                Orders waiting to ship
              </Text>
              {overview.waiting.orders === 0 ? (
                <EmptyState heading="Nothing is waiting to ship" action={{ content: "Sync orders", url: "/app" }} image="">
                  <p>Every open order Consign can ship has a label. New orders appear on Orders to ship as Shopify sends them.</p>
                </EmptyState>
              ) : (
                <BlockStack gap="200">
                  <Text as="p" data-testid="waiting-orders">
                    {`${overview.waiting.orders} ${overview.waiting.orders === 1 ? "order is" : "orders are"} waiting; the oldest for ${overview.waiting.oldestDays} ${overview.waiting.oldestDays === 1 ? "day" : "days"}.`}
                  </Text>
                  <DataTable
                    columnContentTypes={["text", "numeric"]}
                    headings={["Waiting for", "Orders"]}
                    rows={overview.waiting.byAge.map((row) => [row.label, row.orders])}
                  />
                  <InlineStack>
                    <Button url="/app">Ship them</Button>
                  </InlineStack>
                </BlockStack>
              )}
            </BlockStack>
          </Card>
        </BlockStack>
      </PolarisVizProvider>
    </Page>
  );
}

function Figure({ label, value, testId, loading }: { label: string; value: string; testId: string; loading: boolean }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="h2" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingXl">
          <span data-testid={testId} aria-busy={loading}>
            {value}
          </span>
        </Text>
      </BlockStack>
    </Card>
  );
}

/** A spend chart with its figures beside it in a table, so the page reads without the chart. */
function SpendCard({
  title,
  rows,
  money,
  testId,
  keyTitle,
}: {
  title: string;
  rows: SpendRow[];
  money: (amount: string) => string;
  testId: string;
  keyTitle: string;
}) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
          <Box minHeight="240px">
            {/* The chart is a picture of the table beside it: assistive technology reads the table. */}
            <div
              style={{ height: Math.max(240, rows.length * 36) }}
              data-testid={`${testId}-chart`}
              role="img"
              aria-label={`${title}: a bar chart of the figures in the table beside it`}
              aria-describedby={`${testId}-table`}
            >
              <ClientOnly>
                {() => (
                  // The picture only: its text alternative is the label above and the table beside it.
                  <div aria-hidden="true" style={{ height: "100%" }}>
                    <BarChart
                      direction="horizontal"
                      data={[{ name: "Spend", data: rows.map((row) => ({ key: row.label, value: Number(row.spend) })) }]}
                      xAxisOptions={{ labelFormatter: (value) => money(String(value ?? 0)) }}
                      showLegend={false}
                    />
                  </div>
                )}
              </ClientOnly>
            </div>
          </Box>
          <div data-testid={testId} id={`${testId}-table`} role="region" aria-label={`${title}, as a table`}>
            <DataTable
              columnContentTypes={["text", "numeric", "numeric"]}
              headings={[keyTitle, "Labels", "Spend"]}
              rows={rows.map((row) => [
                <span key={row.key} data-testid="spend-row" data-key={row.key} data-spend={row.spend}>
                  {row.label}
                </span>,
                row.labels,
                money(row.spend),
              ])}
            />
          </div>
        </InlineGrid>
      </BlockStack>
    </Card>
  );
}
