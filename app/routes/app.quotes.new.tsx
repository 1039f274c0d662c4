import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TitleBar } from "@shopify/app-bridge-react";
import { Badge, Banner, BlockStack, Card, EmptyState, Page, ResourceItem, ResourceList, Text } from "@shopify/polaris";
import { loadSelectedOrders } from "../orders/selected-orders.server";
import { parseOrderSelection } from "../orders/selection";
import { authenticate } from "../shopify.server";

/** Where the order-list bulk action "Create shipping labels" lands, with the selected orders. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin, session } = await authenticate.admin(request);
  const selection = parseOrderSelection(new URL(request.url).searchParams);
  if ("error" in selection) throw new Response(selection.error, { status: 400 });
  return loadSelectedOrders({ admin, shop: session.shop }, selection.ids);
};

export default function NewQuotes() {
  const { orders, missing } = useLoaderData<typeof loader>();
  return (
    <Page>
      <TitleBar title="Create shipping labels" />
      <BlockStack gap="400">
        {missing.length > 0 && (
          <Banner tone="warning" title={`${missing.length} selected order(s) could not be found`}>
            <p>They may have been deleted or belong to another store. The other orders are listed below.</p>
          </Banner>
        )}
        <Card padding="0">
          {orders.length === 0 ? (
            <EmptyState heading="No orders selected" image="">
              <p>Select orders in the Orders list and choose “Create shipping labels”.</p>
            </EmptyState>
          ) : (
            <ResourceList
              resourceName={{ singular: "order", plural: "orders" }}
              items={orders}
              renderItem={(order) => (
                <ResourceItem id={order.id} onClick={() => undefined} accessibilityLabel={`Order ${order.name}`}>
                  <BlockStack gap="100">
                    <Text as="h3" variant="bodyMd" fontWeight="semibold">
                      <span data-testid="selected-order">{order.name}</span>
                    </Text>
                    <Text as="p" tone="subdued">
                      {order.destination ?? "No shipping address"} · <Badge>{order.fulfillmentStatus.toLowerCase().replace(/_/g, " ")}</Badge>
                    </Text>
                  </BlockStack>
                </ResourceItem>
              )}
            />
          )}
        </Card>
      </BlockStack>
    </Page>
  );
}
