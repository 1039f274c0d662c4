import { BlockStack, Text } from "@shopify/polaris";
import { ShopDateTime } from "../../components/shop-time";
import { usd, type PrepayOutlook } from "../../settings/prepay";

/**
 * The prepay balance before a booking: what it was when the Shipping API last reported it, what the labels
 * cost, and what it will be after them (with the recharges the account's settings bill on the way, and the
 * labels it will not cover). Shown beside an open batch and again in the confirmation before "Book".
 */

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
