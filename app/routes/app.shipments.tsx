import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { TitleBar } from "@shopify/app-bridge-react";
import { Badge, Banner, BlockStack, Button, Card, EmptyState, IndexTable, InlineStack, Link, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { requestContext } from "../batches/request-context.server";
import { formatMoney } from "../quoting/money";
import { SearchKeyword, searchBookedShipments, type ShipmentSearchRow } from "../search/shipment-search.server";

/** Shipments: search booked shipments by order number or name, a person's name, tracking or book number. */

interface SearchPage {
  searched: boolean;
  rows: ShipmentSearchRow[];
  /** What to do about the search, in words. */
  problem: string | null;
}

export const loader = async ({ request }: LoaderFunctionArgs): Promise<SearchPage> => {
  const { ctx } = await requestContext(request);
  const q = new URL(request.url).searchParams.get("q");
  if (q === null) return { searched: false, rows: [], problem: null };
  const keyword = SearchKeyword.safeParse(q);
  if (!keyword.success) return { searched: false, rows: [], problem: keyword.error.issues[0]?.message ?? "Type something to search for." };
  const result = await searchBookedShipments(ctx, keyword.data);
  return result.ok ? { searched: true, rows: result.rows, problem: null } : { searched: true, rows: [], problem: result.message };
};

export default function Shipments() {
  const { searched, rows, problem } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const [keyword, setKeyword] = useState(params.get("q") ?? "");
  return (
    <Page>
      <TitleBar title="Shipments" />
      <BlockStack gap="400">
        <Card>
          <Form method="get">
            <InlineStack gap="300" blockAlign="end">
              <div style={{ minWidth: 320 }}>
                <TextField label="Search shipments" name="q" value={keyword} onChange={setKeyword} placeholder="Order number, name, tracking or book number" autoComplete="off" />
              </div>
              <Button submit loading={navigation.state === "loading" && navigation.location?.pathname === "/app/shipments"}>
                Search
              </Button>
            </InlineStack>
          </Form>
        </Card>
        {problem && (
          <Banner tone="warning">
            <p data-testid="search-problem">{problem}</p>
          </Banner>
        )}
        {searched && !problem && (
          <Card padding="0">
            {rows.length === 0 ? (
              <EmptyState heading="No shipments found" image="">
                <p>Nothing booked matches “{params.get("q")}”. Try the order number without #, or a tracking number.</p>
              </EmptyState>
            ) : (
              <IndexTable
                resourceName={{ singular: "shipment", plural: "shipments" }}
                itemCount={rows.length}
                selectable={false}
                headings={[{ title: "Order" }, { title: "Carrier" }, { title: "Service" }, { title: "Tracking" }, { title: "Cost" }, { title: "Shipped" }, { title: "To" }]}
              >
                {rows.map((row, index) => (
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
                    <IndexTable.Cell>{row.carrierCode}</IndexTable.Cell>
                    <IndexTable.Cell>{row.serviceCode}</IndexTable.Cell>
                    <IndexTable.Cell>
                      <InlineStack gap="100">
                        <Text as="span">{row.trackingNumber}</Text>
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
      </BlockStack>
    </Page>
  );
}
