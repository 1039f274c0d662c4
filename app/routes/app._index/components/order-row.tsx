import { Link } from "@remix-run/react";
import { Badge, IndexTable, InlineStack, Text } from "@shopify/polaris";
import { memo } from "react";
import { ShopDateTime } from "../../../components/shop-time";
import { WrappingText } from "../../../components/wrapping-text";
import type { OrderListRow } from "../../../orders/orders-to-ship.server";
import { fulfillmentStatusName } from "../../../orders/order-status";
import { formatMoney } from "../../../shipping/money";

export const ORDER_HEADINGS = [
  { title: "Order" },
  { title: "Date" },
  { title: "Customer" },
  { title: "Paid shipping" },
  { title: "Items" },
  { title: "Weight" },
  { title: "Status" },
] as const;

type Row = OrderListRow & { bookPath: string; blocked: string[] };

/** Why the order's last quote was blocked, on one line: its first problem, and how many more the rates page lists. */
function blockedLine(blocked: readonly string[]): string {
  return blocked.length > 1 ? `${blocked[0]} (and ${blocked.length - 1} more)` : blocked[0]!;
}

/**
 * One order of Orders to ship: who it goes to and where, the shipping the customer paid for, its items and what
 * they weigh, and its status: the fulfillment status, why it cannot ship, or why its last quote was blocked.
 * Rendered again only when its own props change (memo), not whenever the page renders.
 */
export const OrderRow = memo(function OrderRow({ row, index, selected }: { row: Row; index: number; selected: boolean }) {
  return (
    <IndexTable.Row id={row.id} position={index} selected={selected} disabled={!row.shippable}>
      <IndexTable.Cell>
        <InlineStack gap="200" blockAlign="center">
          <Text as="span" fontWeight="semibold">
            <span data-testid="order-name">{row.name}</span>
          </Text>
          {row.quoted && <Badge tone="info">Rates ready</Badge>}
          {row.quoted && (
            <span onClick={(event) => event.stopPropagation()} onKeyDown={(event) => event.stopPropagation()} role="presentation">
              <Link to={row.bookPath}>Book alone</Link>
            </span>
          )}
        </InlineStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <ShopDateTime value={row.createdAt} dateOnly />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={220}>
          <span data-testid="order-customer">{row.customer ?? "No name"}</span>
          <br />
          <Text as="span" tone="subdued">
            {row.destination}
          </Text>
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={160}>
          {row.shippingLine ? (
            <span data-testid="order-paid-shipping">
              {row.shippingLine.title}
              <br />
              <Text as="span" tone="subdued">
                {formatMoney(row.shippingLine.amount, row.shippingLine.currency)}
              </Text>
            </span>
          ) : (
            <Text as="span" tone="subdued">
              None
            </Text>
          )}
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" numeric>
          {row.items}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {row.weight ? (
          <span data-testid="order-weight">{row.weight}</span>
        ) : (
          <Text as="span" tone="subdued">
            No weight
          </Text>
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>
        {!row.shippable ? (
          <WrappingText maxWidth={260}>
            <Text as="span" tone="subdued">
              {row.reason}
            </Text>
          </WrappingText>
        ) : row.blocked.length > 0 ? (
          <div style={{ maxWidth: 260 }} title={row.blocked.join(" ")} data-testid="order-blocked">
            <Text as="p" tone="critical" truncate>
              {blockedLine(row.blocked)}
            </Text>
          </div>
        ) : (
          <Badge tone="attention">{fulfillmentStatusName(row.fulfillmentStatus)}</Badge>
        )}
      </IndexTable.Cell>
    </IndexTable.Row>
  );
});
