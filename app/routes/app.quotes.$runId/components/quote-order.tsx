import { Link } from "@remix-run/react";
import { Banner, BlockStack, Button, Divider, InlineStack, Text } from "@shopify/polaris";
import { memo } from "react";
import { plural } from "../../../plural";
import { LineDetailsForm } from "../../../quoting/components/line-details-form";
import { ShipmentRates } from "../../../quoting/components/shipment-rates";
import { describePaid } from "../../../quoting/customer-choice";
import type { OrderView, QuoteRunView } from "../../../quoting/run-view.server";

/**
 * One order of the run: what the customer paid for, its shipments' rates, and why what is not quoted is blocked.
 * Rendered again only when its own props change (memo): unfolding one order, or a page starting to load, does not
 * render the other 49.
 */
export const QuoteOrder = memo(function QuoteOrder({
  order,
  view,
  open,
  onToggle,
  excluded,
  onIncludedChange,
}: {
  order: OrderView;
  view: Pick<QuoteRunView, "run" | "names" | "boxes">;
  open: boolean;
  onToggle: (orderId: string) => void;
  excluded: ReadonlyMap<string, unknown>;
  onIncludedChange: (shipmentId: string, pick: { currency: string; totalAmount: string } | undefined, included: boolean) => void;
}) {
  const { run, names } = view;
  const rates = order.shipments.reduce((sum, shipment) => sum + shipment.rateCount, 0);
  return (
    <div
      key={order.orderId}
      data-testid="quote-order"
      data-order-id={order.orderId}
      data-order-name={order.orderName}
      style={{ padding: "12px 16px", borderBottom: "1px solid var(--p-color-border-secondary)" }}
    >
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center" align="space-between">
          <InlineStack gap="300" blockAlign="center">
            <Text as="h2" variant="headingSm">
              <span data-testid="quote-order-name">{order.orderName}</span>
            </Text>
            <Text as="span" tone="subdued">
              {"Customer paid for: "}
              <span data-testid="paid-shipping">{order.paidShipping ? describePaid(order.paidShipping) : "no shipping line"}</span>
            </Text>
            {order.shipments.length > 0 && (
              <Link to={`/app/orders/${order.orderNumber}/book`}>
                {order.shipments.every((shipment) => shipment.locked === "Booked") ? "Booked" : "Book alone"}
              </Link>
            )}
          </InlineStack>
          {rates > 0 && (
            // Tertiary, not plain: a plain button's hit area reaches 12 px past its text (a negative margin), out of
            // the order's block at the right edge.
            <Button
              variant="tertiary"
              disclosure={open ? "up" : "down"}
              onClick={() => onToggle(order.orderId)}
              accessibilityLabel={`${open ? "Hide rates" : `All ${plural(rates, "rate")}`} of ${order.orderName}`}
            >
              {open ? "Hide rates" : `All ${plural(rates, "rate")}`}
            </Button>
          )}
        </InlineStack>
        {order.blocked.length > 0 && (
          <Banner tone="warning" title={order.shipments.length > 0 ? "Some items are not quoted" : "Not quoted"}>
            <BlockStack gap="100">
              {order.blocked.map((issue) => (
                <p key={issue.code + issue.message} data-testid="blocked-reason" data-code={issue.code}>
                  {issue.message}
                </p>
              ))}
              {order.lineFixes && <LineDetailsForm order={order} fixes={order.lineFixes} />}
            </BlockStack>
          </Banner>
        )}
        {order.movedToLaterRun && (
          <Text as="p" tone="subdued">
            This order was quoted again in a later run; see <Link to="/app/quotes">Rates</Link>.
          </Text>
        )}
        {order.shipments.map((shipment, index) => (
          <BlockStack key={shipment.id} gap="200">
            {index > 0 && <Divider />}
            <ShipmentRates
              runId={run.id}
              shipment={shipment}
              heading={order.shipments.length > 1 ? `Shipment ${index + 1} of ${order.shipments.length}` : "Shipment"}
              names={names}
              boxes={view.boxes}
              expanded={open}
              included={!excluded.has(shipment.id)}
              onIncludedChange={onIncludedChange}
            />
          </BlockStack>
        ))}
      </BlockStack>
    </div>
  );
});
