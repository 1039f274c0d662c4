import type { SerializeFrom } from "@remix-run/node";
import { Badge, BlockStack, Button, IndexTable, InlineStack, Link, Text } from "@shopify/polaris";
import { useShopTime } from "../../../components/shop-time";
import { WrappingText } from "../../../components/wrapping-text";
import type { ReturnView } from "../../../returns/returns-page.server";
import { labelCostText } from "../../../returns/label-cost";
import { carrierAndService, type ServiceNames } from "../../../shipping/service-names";

type Row = SerializeFrom<ReturnView>;

const TONE: Partial<Record<Row["step"], "success" | "info" | "attention" | "warning" | "critical">> = {
  approve: "attention",
  get_label: "warning",
  book_label: "warning",
  attach_failed: "critical",
  waiting: "info",
  arrived: "success",
};

/** One return: its order and customer, the items coming back and why, what is left to do, and its label (one a box). */
export function ReturnRow({
  row,
  index,
  selected,
  names,
  busy,
  submit,
  split,
}: {
  row: Row;
  index: number;
  selected: boolean;
  names: ServiceNames;
  busy: boolean;
  submit: (data: Record<string, string>) => void;
  /** Opens "Split into boxes" for this return. */
  split: () => void;
}) {
  const time = useShopTime();
  const labels = row.labels;
  const units = row.splittable?.reduce((sum, line) => sum + line.quantity, 0) ?? 0;
  return (
    <IndexTable.Row id={row.id} key={row.id} position={index} selected={selected}>
      <IndexTable.Cell>
        <BlockStack gap="050">
          <span data-testid="return-row" data-return-name={row.name}>
            <Text as="span" fontWeight="semibold">
              {row.orderName}
            </Text>
          </span>
          <Text as="span" tone="subdued" variant="bodySm">
            {row.name} · {time.dateTime(row.createdAt)}
          </Text>
        </BlockStack>
      </IndexTable.Cell>
      <IndexTable.Cell>{row.customerName ?? "—"}</IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={280}>
          <BlockStack gap="050">
            {row.items.map((item, itemIndex) => (
              <Text as="span" key={itemIndex}>
                {item.quantity} × {item.title}
                {item.reason && (
                  <Text as="span" tone="subdued">
                    {" "}
                    — {item.reason}
                    {item.note ? `: “${item.note}”` : ""}
                  </Text>
                )}
              </Text>
            ))}
            {row.customerNote && (
              <Text as="span" tone="subdued" variant="bodySm">
                Customer: “{row.customerNote}”
              </Text>
            )}
          </BlockStack>
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={280}>
          <BlockStack gap="100">
            <span data-testid="return-todo" data-step={row.step} data-todo={row.todo}>
              <Badge tone={TONE[row.step]}>{row.todo}</Badge>
            </span>
            {row.step === "arrived" && (
              <Link url={row.orderUrl} target="_top">
                Open {row.orderName} in Shopify
              </Link>
            )}
            {row.step === "approve" && (
              <InlineStack gap="200">
                <Button size="slim" disabled={busy} onClick={() => submit({ intent: "approve", returnId: row.id })}>
                  Approve
                </Button>
                <Button size="slim" variant="plain" tone="critical" disabled={busy} onClick={() => submit({ intent: "decline", returnId: row.id })}>
                  Decline
                </Button>
              </InlineStack>
            )}
            {row.step === "get_label" && row.boxLabel && (
              <InlineStack gap="200">
                <Button
                  size="slim"
                  variant="primary"
                  disabled={busy}
                  onClick={() => submit({ intent: "use_box_label", returnId: row.id, shipmentId: row.boxLabel!.shipmentId })}
                >
                  {`Use the label in the box (tracking ${row.boxLabel.trackingNumber})`}
                </Button>
                <Button size="slim" disabled={busy} onClick={() => submit({ intent: "quote", returnIds: row.id })}>
                  Get a new label
                </Button>
              </InlineStack>
            )}
            {labels.map(
              (label, box) =>
                label.error && (
                  <Text as="span" tone="critical" variant="bodySm" key={label.shipmentId}>
                    {labels.length > 1 ? `Box ${box + 1}: ` : ""}
                    {label.error}
                  </Text>
                ),
            )}
            {units > 1 && (
              // A click on the button is not a click on the row (which would select the return).
              <div onClick={(event) => event.stopPropagation()}>
                <Button size="slim" variant="plain" disabled={busy} onClick={split}>
                  {labels.length > 1 ? "Split into boxes again" : "Split into boxes"}
                </Button>
              </div>
            )}
          </BlockStack>
        </WrappingText>
      </IndexTable.Cell>
      <IndexTable.Cell>
        <WrappingText maxWidth={280}>
          {labels.some((label) => label.carrierCode !== null || label.amount) ? (
            <BlockStack gap="200">
              {labels.map((label, box) => {
                const cost = labelCostText(label, time.timeZone);
                return (
                  <span key={label.shipmentId} data-testid="return-box" data-box={box + 1}>
                    <BlockStack gap="050">
                      {labels.length > 1 && (
                        <Text as="span" fontWeight="semibold" variant="bodySm">
                          Box {box + 1}
                        </Text>
                      )}
                      {label.carrierCode !== null && (
                        <Text as="span">{carrierAndService(names, { carrierCode: label.carrierCode, serviceCode: label.serviceCode ?? "" })}</Text>
                      )}
                      {label.trackingNumber && (
                        <span data-testid="return-tracking">
                          <Text as="span" variant="bodySm">
                            {label.trackingNumber}
                          </Text>
                        </span>
                      )}
                      {cost && (
                        <span data-testid="return-label-cost">
                          <Text as="span" tone={label.unused ? "subdued" : undefined} variant="bodySm">
                            {cost}
                          </Text>
                        </span>
                      )}
                      {label.reason && label.bookingStatus !== "BOOKED" && (
                        <Text as="span" tone="subdued" variant="bodySm">
                          {label.reason}
                        </Text>
                      )}
                    </BlockStack>
                  </span>
                );
              })}
            </BlockStack>
          ) : (
            "—"
          )}
        </WrappingText>
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}
