import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Badge, Card, EmptyState, IndexTable, Page, Text } from "@shopify/polaris";
import { ShopDateTime } from "../components/shop-time";
import { listQuoteRuns } from "../quoting/run-view.server";
import { adminContext } from "../request-context.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/** Recent quote runs, newest first, each linking to its rates page. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await adminContext(request);
  return { runs: await listQuoteRuns(ctx) };
};

const STATUS_TONE = { RUNNING: "info", COMPLETED: "success", FAILED: "critical" } as const;

export const handle: PageHandle<typeof loader> = { title: "Rates" };
export const meta = pageMeta;

export default function QuoteRuns() {
  const { runs } = useLoaderData<typeof loader>();
  return (
    <Page>
      <PageTitleBar />
      <Card padding="0">
        {runs.length === 0 ? (
          <EmptyState heading="No rates yet" action={{ content: "Go to orders to ship", url: "/app" }} image="">
            <p>
              Select orders in <Link to="/app">Orders to ship</Link> and choose “Create shipping labels” to compare rates.
            </p>
          </EmptyState>
        ) : (
          <IndexTable
            resourceName={{ singular: "quote run", plural: "quote runs" }}
            itemCount={runs.length}
            selectable={false}
            headings={[{ title: "Started" }, { title: "Status" }, { title: "Orders" }, { title: "Shipments" }, { title: "Blocked orders" }]}
          >
            {runs.map((run, index) => (
              <IndexTable.Row id={run.id} key={run.id} position={index}>
                <IndexTable.Cell>
                  <Link to={`/app/quotes/${run.id}`} data-testid="quote-run-link">
                    <ShopDateTime value={run.startedAt} />
                  </Link>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Badge tone={STATUS_TONE[run.status]}>{run.status.toLowerCase()}</Badge>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" numeric>
                    {run.orderCount}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" numeric>
                    {run.shipments}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" numeric>
                    {run.blockedOrders}
                  </Text>
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        )}
      </Card>
    </Page>
  );
}
