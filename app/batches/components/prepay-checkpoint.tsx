import { BlockStack, Text } from "@shopify/polaris";
import { ShopDateTime } from "../../components/shop-time";
import { formatMoney } from "../../shipping/money";
import type { PrepayOutlook } from "../../settings/prepay";

/**
 * The prepay balance before a booking: what it was when the Shipping API last reported it, what the labels
 * cost, and what it will be after them (with the recharges the account's settings bill on the way, and the
 * labels it will not cover). Shown beside an open batch and again in the confirmation before "Book".
 */

const usd = (amount: string) => formatMoney(amount, "USD");

/** One sentence for the confirmation: what the merchant is about to spend, and where the balance ends up. */
export function prepaySentence(outlook: PrepayOutlook, labels: number): string {
  const spend = `${labels} ${labels === 1 ? "label" : "labels"} for ${usd(outlook.total)}`;
  switch (outlook.kind) {
    case "unknown":
      return `Book ${spend}? Your prepay balance is not known yet: the Shipping API reports it after your first booking.`;
    case "other-currency":
      return `Book ${spend}? Your prepay balance was ${usd(outlook.balance)}; labels priced in other currencies are converted to USD when booked.`;
    case "projected": {
      const recharge =
        outlook.recharges === null
          ? " (before any recharge your account's settings make)"
          : outlook.recharges.count > 0
            ? `, after ${outlook.recharges.count} ${outlook.recharges.count === 1 ? "recharge" : "recharges"} of your account totalling ${usd(outlook.recharges.amount)}`
            : "";
      const uncovered =
        outlook.uncovered > 0 ? ` ${outlook.uncovered} ${outlook.uncovered === 1 ? "label is" : "labels are"} not covered and will fail: add funds first.` : "";
      return `Book ${spend}? Prepay balance ${usd(outlook.balance)} → ${usd(outlook.after)}${recharge}.${uncovered}`;
    }
  }
}

export function PrepayCheckpoint({ outlook }: { outlook: PrepayOutlook }) {
  return (
    <BlockStack gap="100">
      <Text as="p">
        This batch: <span data-testid="batch-total">{usd(outlook.total)}</span>
      </Text>
      {outlook.kind === "unknown" ? (
        <Text as="p" tone="subdued">
          <span data-testid="prepay-balance">Not known yet</span>: the Shipping API reports your balance after your first booking.
        </Text>
      ) : (
        <>
          <Text as="p">
            Now: <span data-testid="prepay-balance">{usd(outlook.balance)}</span>{" "}
            <Text as="span" tone="subdued">
              (as of <ShopDateTime value={outlook.reportedAt} />)
            </Text>
          </Text>
          {outlook.kind === "projected" ? (
            <>
              <Text as="p">
                After booking: <span data-testid="prepay-after">{usd(outlook.after)}</span>
              </Text>
              {outlook.recharges === null && (
                <Text as="p" tone="subdued">
                  Before any recharge your account&apos;s own settings make.
                </Text>
              )}
              {outlook.recharges && outlook.recharges.count > 0 && (
                <Text as="p" tone="subdued">
                  <span data-testid="prepay-recharges">
                    {`Includes ${outlook.recharges.count} ${outlook.recharges.count === 1 ? "recharge" : "recharges"} totalling ${usd(outlook.recharges.amount)}, billed to your account.`}
                  </span>
                </Text>
              )}
              {outlook.uncovered > 0 && (
                <Text as="p" tone="critical">
                  <span data-testid="prepay-uncovered">
                    {`${outlook.uncovered} ${outlook.uncovered === 1 ? "label is" : "labels are"} not covered by the balance and will fail: add funds to your Shipping API account first.`}
                  </span>
                </Text>
              )}
            </>
          ) : (
            <Text as="p" tone="subdued">
              Labels priced in other currencies are converted to USD when booked.
            </Text>
          )}
        </>
      )}
    </BlockStack>
  );
}
