import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { authenticate } from "../shopify.server";
import { loadShopSummary } from "../shopify/shop.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { admin, session } = await authenticate.admin(request);
  return { shop: await loadShopSummary({ admin, shop: session.shop }) };
};

export default function Index() {
  const { shop } = useLoaderData<typeof loader>();
  return (
    <Page>
      <TitleBar title="Consign" />
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {shop.name}
              </Text>
              <Text as="p" variant="bodyMd">
                Ships from {shop.origin}. Weights in {shop.weightUnit.toLowerCase()}, prices in {shop.currencyCode}.
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
