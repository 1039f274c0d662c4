import type { SerializeFrom } from "@remix-run/node";
import { Badge, BlockStack, Card, InlineStack, Link, Text } from "@shopify/polaris";
import type { ShipmentTimeline } from "../tracking-views.server";
import { TrackingNumbers } from "../../components/tracking-numbers";
import { useShopTime } from "../../components/shop-time";
import { carrierAndService, carrierName, type ServiceNames } from "../../shipping/service-names";

/** An order's tracked shipments with their carrier events, newest first (the order's page). */
export function TrackingTimeline({ shipments, names }: { shipments: SerializeFrom<ShipmentTimeline>[]; names: ServiceNames }) {
  const time = useShopTime();
  if (shipments.length === 0) return null;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Tracking
        </Text>
        {shipments.map((shipment) => (
          <BlockStack key={shipment.shipmentId} gap="200">
            <InlineStack gap="200" blockAlign="center">
              <span data-testid="timeline-status">
                <Badge tone={shipment.tone}>{shipment.status}</Badge>
              </span>
              <Text as="span">
                <span data-testid="timeline-service">
                  {shipment.carrierCode && shipment.serviceCode
                    ? carrierAndService(names, { carrierCode: shipment.carrierCode, serviceCode: shipment.serviceCode })
                    : shipment.carrierCode
                      ? carrierName(names, shipment.carrierCode)
                      : null}
                </span>
              </Text>
              <TrackingNumbers numbers={shipment.trackingNumbers} testId="timeline-numbers" />
              {shipment.daysInTransit !== null && (
                <Text as="span" tone="subdued">
                  {shipment.daysInTransit} {shipment.daysInTransit === 1 ? "day" : "days"} in transit
                </Text>
              )}
            </InlineStack>
            {shipment.note && (
              <Text as="p" tone="critical">
                {shipment.note}
              </Text>
            )}
            {shipment.shopifyOrderUrl && (
              <Link url={shipment.shopifyOrderUrl} target="_top">
                Open {shipment.orderName} in Shopify
              </Link>
            )}
            {shipment.events.length === 0 ? (
              <Text as="p" tone="subdued">
                No carrier scan yet. Consign checks with the carrier every few hours.
              </Text>
            ) : (
              <ol style={{ margin: 0, paddingLeft: 18 }} data-testid="timeline-events">
                {shipment.events.map((event) => (
                  <li
                    key={`${event.box}-${event.at}-${event.carrierStatus}-${event.message}`}
                    data-testid="timeline-event"
                    data-carrier-status={event.carrierStatus}
                  >
                    <Text as="span" fontWeight="semibold">
                      {event.box ? `${event.box}: ${event.message}` : event.message}
                    </Text>{" "}
                    <Text as="span" tone="subdued">
                      {[event.place, time.dateTime(event.at)].filter(Boolean).join(" · ")}
                      {event.inShopify ? " · in Shopify" : ""}
                    </Text>
                  </li>
                ))}
              </ol>
            )}
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}
