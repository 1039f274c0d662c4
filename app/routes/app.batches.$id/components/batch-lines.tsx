import { Link, type FetcherWithComponents } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, IndexTable, InlineStack, Text, type IndexTableProps } from "@shopify/polaris";
import { memo } from "react";
import type { BatchLine } from "../../../booking/batches.server";
import { BookingStatusBadge } from "../../../batches/components/batch-status";
import { useListPages } from "../../../components/list-pages";
import { TrackingNumbers } from "../../../components/tracking-numbers";
import type { PaidShipping } from "../../../quoting/customer-choice";
import { formatMoney } from "../../../shipping/money";
import type { ServiceNames } from "../../../shipping/service-names";
import { WrappingText } from "../../../components/wrapping-text";
import { LineService } from "./line-service";

const RATE_LABEL: Record<BatchLine["rate"], { tone: "success" | "warning" | "attention" | undefined; label: string }> = {
  "in-batch": { tone: "success", label: "In batch" },
  expired: { tone: "warning", label: "Expired" },
  "not-in-batch": { tone: "attention", label: "Not in batch yet" },
  unknown: { tone: undefined, label: "—" },
};

const ORDERS = { singular: "order", plural: "orders" };
const HEADINGS: IndexTableProps["headings"] = [
  { title: "Order" },
  { title: "Service" },
  { title: "Rate" },
  { title: "Status" },
  { title: "Tracking" },
  { title: "Cost" },
  { title: "" },
];

/**
 * The batch's orders, a page at a time: service, rate, booking status, tracking, cost, and Remove while the batch is
 * open. Turning the page shows the table loading at once; its 50 lines (memo) do not render again for it.
 */
export const BatchLines = memo(function BatchLines({
  view,
  open,
  names,
  paid,
  busy,
  Form,
}: {
  view: { lines: BatchLine[]; counts: { orders: number }; page: number; pages: number };
  open: boolean;
  names: ServiceNames;
  paid: Record<string, PaidShipping>;
  busy: boolean;
  /** The page's fetcher form, so a removal answers where the page shows answers. */
  Form: FetcherWithComponents<unknown>["Form"];
}) {
  const pages = useListPages(view, `${view.counts.orders} orders`);
  return (
    <Card padding="0">
      <IndexTable
        resourceName={ORDERS}
        itemCount={view.lines.length}
        selectable={false}
        pagination={pages.pagination}
        loading={pages.loading}
        headings={HEADINGS}
      >
        {view.lines.map((line, index) => (
          <BatchLineRow key={line.shipmentId} line={line} index={index} open={open} names={names} paid={paid[line.orderId] ?? null} busy={busy} Form={Form} />
        ))}
      </IndexTable>
    </Card>
  );
});

/** One order of the batch, rendered again only when its own props change (memo). */
const BatchLineRow = memo(function BatchLineRow({
  line,
  index,
  open,
  names,
  paid,
  busy,
  Form,
}: {
  line: BatchLine;
  index: number;
  open: boolean;
  names: ServiceNames;
  paid: PaidShipping | null;
  busy: boolean;
  Form: FetcherWithComponents<unknown>["Form"];
}) {
  return (
    <IndexTable.Row id={line.shipmentId} position={index}>
      <IndexTable.Cell>
        <span data-testid="batch-line" data-order-name={line.orderName} data-booking-status={line.bookingStatus}>
          <Link to={`/app/orders/${line.orderNumber}/book`}>{line.orderName}</Link>
        </span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <LineService line={line} names={names} paid={paid} />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <InlineStack gap="100">
          <Text as="span">{line.totalAmount && line.currency ? formatMoney(line.totalAmount, line.currency) : "—"}</Text>
          {open && <Badge tone={RATE_LABEL[line.rate].tone}>{RATE_LABEL[line.rate].label}</Badge>}
        </InlineStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <BlockStack gap="100">
          <InlineStack gap="100">
            <BookingStatusBadge status={line.bookingStatus} />
            {line.fulfillmentStatus === "FULFILLED" && <Badge tone="success">Fulfilled</Badge>}
          </InlineStack>
          {line.bookingError && (
            <Text as="p" tone="critical">
              <span data-testid="line-error">{line.bookingError}</span>
            </Text>
          )}
          {line.returnLabel && (
            <Text as="p" tone={line.returnLabel.state === "none" ? "caution" : "subdued"}>
              <WrappingText maxWidth={300}>
                <span data-testid="line-return-label" data-state={line.returnLabel.state}>
                  {line.returnLabel.note}
                </span>
              </WrappingText>
            </Text>
          )}
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <TrackingNumbers numbers={line.trackingNumbers} testId="line-tracking" />
      </IndexTable.Cell>
      <IndexTable.Cell>{line.shippingCost && line.currency ? formatMoney(line.shippingCost, line.currency) : ""}</IndexTable.Cell>
      <IndexTable.Cell>
        {open && (
          <Form method="post">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="shipmentId" value={line.shipmentId} />
            <Button submit variant="plain" disabled={busy} accessibilityLabel={`Remove ${line.orderName}`}>
              Remove
            </Button>
          </Form>
        )}
      </IndexTable.Cell>
    </IndexTable.Row>
  );
});
