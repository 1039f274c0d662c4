import { Link } from "@remix-run/react";
import { Badge, IndexTable, InlineStack, Text } from "@shopify/polaris";
import { memo, type CSSProperties, type SyntheticEvent } from "react";
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

/*
 * A row is drawn with as few elements as it can be: the page holds 50 of them, and a click's style, layout and paint
 * follow the table's size (a first row selected re-lays the whole table as the bulk actions appear). So the row's
 * texts are spans styled with Polaris' tokens, where Polaris' Text would add an element to each, and a second line
 * is a block span rather than a <br> and another span.
 */
const NAME: CSSProperties = { fontWeight: "var(--p-font-weight-semibold)" };
const SUBDUED: CSSProperties = { color: "var(--p-color-text-secondary)" };
const SUBDUED_LINE: CSSProperties = { ...SUBDUED, display: "block" };
/** A link inside the row opens its page without selecting the row. */
const stayInRow = (event: SyntheticEvent) => event.stopPropagation();

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
          <span data-testid="order-name" style={NAME}>
            {row.name}
          </span>
          {row.quoted && <Badge tone="info">Rates ready</Badge>}
          {row.quoted && (
            <Link to={row.bookPath} onClick={stayInRow} onKeyDown={stayInRow}>
              Book alone
            </Link>
          )}
        </InlineStack>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <ShopDateTime value={row.createdAt} dateOnly />
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={220}>
          <span data-testid="order-customer">{row.customer ?? "No name"}</span>
          <span style={SUBDUED_LINE}>{row.destination}</span>
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={160}>
          {row.shippingLine ? (
            <span data-testid="order-paid-shipping">
              {row.shippingLine.title}
              <span style={SUBDUED_LINE}>{formatMoney(row.shippingLine.amount, row.shippingLine.currency)}</span>
            </span>
          ) : (
            <span style={SUBDUED}>None</span>
          )}
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>{row.items}</IndexTable.Cell>
      <IndexTable.Cell>{row.weight ? <span data-testid="order-weight">{row.weight}</span> : <span style={SUBDUED}>No weight</span>}</IndexTable.Cell>
      <IndexTable.Cell>
        {!row.shippable ? (
          <WrappingText maxWidth={260}>
            <span style={SUBDUED}>{row.reason}</span>
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
