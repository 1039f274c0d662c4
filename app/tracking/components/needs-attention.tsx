import type { SerializeFrom } from "@remix-run/node";
import { Link as RemixLink } from "@remix-run/react";
import { BlockStack, Card, IndexTable, InlineStack, Text } from "@shopify/polaris";
import type { ServiceNames } from "../../shipping/service-names";
import type { TrackedShipmentView } from "../tracking-views.server";
import { TRACKING_HEADINGS, TrackingRow } from "./tracking-row";
import { memo } from "react";

/** The home page's Needs attention card: failed attempts, exceptions, stale parcels, voided labels and arrived returns, each with what to do next. */
export const NeedsAttention = memo(function NeedsAttention({
  total,
  rows,
  names,
}: {
  total: number;
  rows: SerializeFrom<TrackedShipmentView>[];
  names: ServiceNames;
}) {
  if (total === 0) return null;
  return (
    <Card padding="0">
      <BlockStack gap="0">
        <div style={{ padding: "12px 16px" }}>
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              <span data-testid="needs-attention">Needs attention ({total})</span>
            </Text>
            <RemixLink to="/app/shipments?status=attention">See all in Shipments</RemixLink>
          </InlineStack>
          <Text as="p" tone="subdued">
            Parcels the carrier could not deliver, that have gone quiet, or whose label was voided, and returns that arrived. Each says what you can do next.
          </Text>
        </div>
        <IndexTable resourceName={{ singular: "shipment", plural: "shipments" }} itemCount={rows.length} selectable={false} headings={TRACKING_HEADINGS}>
          {rows.map((row, index) => (
            <TrackingRow key={row.shipmentId} row={row} index={index} names={names} />
          ))}
        </IndexTable>
      </BlockStack>
    </Card>
  );
});
