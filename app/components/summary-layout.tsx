import { BlockStack, Card, InlineStack, Layout } from "@shopify/polaris";
import type { ReactNode } from "react";

/**
 * The head of a page about a set of orders (a quote run, a batch): badges with its counts above what can be
 * done with it in the main card, and a narrower card beside them (totals, balance).
 */
export function SummaryLayout({ counts, actions, aside }: { counts: ReactNode; actions: ReactNode; aside: ReactNode }) {
  return (
    <Layout>
      <Layout.Section>
        <Card>
          <BlockStack gap="300">
            <InlineStack gap="200" wrap>
              {counts}
            </InlineStack>
            <InlineStack gap="200" wrap>
              {actions}
            </InlineStack>
          </BlockStack>
        </Card>
      </Layout.Section>
      <Layout.Section variant="oneThird">
        <Card>{aside}</Card>
      </Layout.Section>
    </Layout>
  );
}
