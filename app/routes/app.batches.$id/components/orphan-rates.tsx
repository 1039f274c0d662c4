import type { FetcherWithComponents } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { BatchView } from "../../../booking/batches.server";
import { formatMoney } from "../../../shipping/money";
import { carrierAndService, type ServiceNames } from "../../../shipping/service-names";

/** Rates the Shipping API holds in the batch that no order of it has, each removable. */
export function OrphanRates({
  orphans,
  names,
  busy,
  Form,
}: {
  orphans: BatchView["orphans"];
  names: ServiceNames;
  busy: boolean;
  Form: FetcherWithComponents<unknown>["Form"];
}) {
  if (orphans.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingSm">
          Rates Consign cannot tie to an order
        </Text>
        {orphans.map((orphan) => (
          <InlineStack key={orphan.quoteId} gap="200" blockAlign="center">
            <Text as="span">{`Rate ${orphan.quoteId}: ${carrierAndService(names, orphan)}, ${formatMoney(orphan.totalAmount, orphan.currency)}${orphan.expired ? " (expired)" : ""}`}</Text>
            <Form method="post">
              <input type="hidden" name="intent" value="remove-rate" />
              <input type="hidden" name="quoteId" value={String(orphan.quoteId)} />
              <Button submit variant="plain" disabled={busy}>
                Remove
              </Button>
            </Form>
          </InlineStack>
        ))}
      </BlockStack>
    </Card>
  );
}
