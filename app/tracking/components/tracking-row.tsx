import type { SerializeFrom } from "@remix-run/node";
import { Link as RemixLink } from "@remix-run/react";
import { Badge, BlockStack, IndexTable, Link, Text } from "@shopify/polaris";
import type { NonEmptyArray } from "@shopify/polaris/build/ts/src/types";
import type { IndexTableHeading } from "@shopify/polaris/build/ts/src/components/IndexTable";
import { useShopTime } from "../../components/shop-time";
import { TrackingNumbers } from "../../components/tracking-numbers";
import { WrappingText } from "../../components/wrapping-text";
import { carrierAndService, type ServiceNames } from "../../shipping/service-names";
import type { TrackedShipmentView } from "../tracking-views.server";

/** One tracked shipment as a row of an IndexTable (the Shipments dashboard and Needs attention). */

export const TRACKING_HEADINGS: NonEmptyArray<IndexTableHeading> = [
  { title: "Order" },
  { title: "Status" },
  { title: "Last event" },
  { title: "In transit" },
  { title: "Service" },
  { title: "Tracking" },
];

export function TrackingRow({ row, index, names }: { row: SerializeFrom<TrackedShipmentView>; index: number; names: ServiceNames }) {
  const time = useShopTime();
  return (
    <IndexTable.Row id={row.shipmentId} position={index}>
      <IndexTable.Cell>
        <span data-testid="tracked-shipment" data-order-name={row.orderName} data-state={row.state}>
          <RemixLink to={row.orderPath}>{row.orderName}</RemixLink>
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <span data-testid="tracking-status">
          <Badge tone={row.tone}>{row.status}</Badge>
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {/* Wraps: a place in words ("MEMPHIS, Tennessee, United States") would otherwise widen the table past its card. */}
        <WrappingText maxWidth={240}>
          <BlockStack gap="050">
            <Text as="span">{row.lastEvent ?? "No carrier scan yet"}</Text>
            {/* The place and the time each on a line of its own: a date is never broken across two. */}
            {(row.lastEventPlace || !row.lastEventAt) && (
              <Text as="span" tone="subdued" variant="bodySm">
                {row.lastEventPlace || "—"}
              </Text>
            )}
            {row.lastEventAt && (
              <Text as="span" tone="subdued" variant="bodySm">
                {time.dateTime(row.lastEventAt)}
              </Text>
            )}
            {row.note && (
              <Text as="span" tone={row.tone === "critical" || row.tone === "warning" ? "critical" : "subdued"} variant="bodySm">
                {row.note}
              </Text>
            )}
            {row.shopifyOrderUrl && (
              <span data-testid="tracking-shopify-order">
                <Link url={row.shopifyOrderUrl} target="_top">
                  Open {row.orderName} in Shopify
                </Link>
              </span>
            )}
          </BlockStack>
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>{row.daysInTransit === null ? "—" : `${row.daysInTransit} ${row.daysInTransit === 1 ? "day" : "days"}`}</IndexTable.Cell>
      <IndexTable.Cell>
        <span data-testid="tracked-service">
          {row.carrierCode && row.serviceCode ? carrierAndService(names, { carrierCode: row.carrierCode, serviceCode: row.serviceCode }) : "—"}
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <TrackingNumbers numbers={row.trackingNumbers} testId="tracked-numbers" />
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}
