import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, EmptyState, IndexTable, InlineStack, Page, Pagination, Text } from "@shopify/polaris";
import { ShopDateTime } from "../components/shop-time";
import { BatchStatusBadge } from "../batches/components/batch-status";
import { listBatches } from "../booking/batches.server";
import { requestContext } from "../request-context.server";
import { listPageOf } from "../list-page.server";
import { PageTitleBar, pageMeta, type PageHandle } from "../components/page-title";

/** Batches: every batch of the shop, newest first, 25 a page, with its orders, booked and failed counts. */

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { ctx } = await requestContext(request);
  const page = listPageOf(new URL(request.url).searchParams);
  return listBatches(ctx, { page });
};

export const handle: PageHandle<typeof loader> = { title: "Batches" };
export const meta = pageMeta;

export default function Batches() {
  const list = useLoaderData<typeof loader>();
  const [, setSearchParams] = useSearchParams();
  return (
    <Page>
      <PageTitleBar />
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="p" tone="subdued">
            {list.total === 1 ? "1 batch" : `${list.total} batches`}
          </Text>
          <Button variant="primary" url="/app/batches/new">
            New batch
          </Button>
        </InlineStack>
        <Card padding="0">
          {list.rows.length === 0 ? (
            <EmptyState heading="No batches yet" action={{ content: "Go to orders to ship", url: "/app" }} image="">
              <p>Get rates for your orders, pick one per order, then put them in a batch to book all their labels at once.</p>
            </EmptyState>
          ) : (
            <IndexTable
              resourceName={{ singular: "batch", plural: "batches" }}
              itemCount={list.rows.length}
              selectable={false}
              headings={[{ title: "Batch" }, { title: "Status" }, { title: "Orders" }, { title: "Booked" }, { title: "Created" }]}
            >
              {list.rows.map((row, index) => (
                <IndexTable.Row id={row.id} key={row.id} position={index}>
                  <IndexTable.Cell>
                    <Link to={`/app/batches/${row.id}`} data-testid="batch-link">
                      {row.name}
                    </Link>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <BatchStatusBadge status={row.status} />
                  </IndexTable.Cell>
                  <IndexTable.Cell>{row.orders}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <InlineStack gap="100">
                      <Text as="span">{row.booked}</Text>
                      {row.failed > 0 && <Badge tone="critical">{`${row.failed} failed`}</Badge>}
                    </InlineStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <ShopDateTime value={row.createdAt} />
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
        {list.pages > 1 && (
          <InlineStack align="center">
            <Pagination
              hasPrevious={list.page > 1}
              hasNext={list.page < list.pages}
              onPrevious={() => setSearchParams({ page: String(list.page - 1) })}
              onNext={() => setSearchParams({ page: String(list.page + 1) })}
              label={`Page ${list.page} of ${list.pages}`}
            />
          </InlineStack>
        )}
      </BlockStack>
    </Page>
  );
}
