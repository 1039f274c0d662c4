import { ShopDateTime } from "../../../components/shop-time";
import { Banner, BlockStack, Card, ProgressBar, Text } from "@shopify/polaris";
import type { BatchView } from "../../../booking/batches.server";
import { PrepayCheckpoint } from "../../../batches/components/prepay-checkpoint";
import { formatMoney } from "../../../shipping/money";

/** What stands in the batch's way or is under way: the Shipping API's view unavailable, the batch's error, its progress, its blockers. */
export function BatchNotices({ view }: { view: Pick<BatchView, "batch" | "counts" | "remoteError" | "blockers"> }) {
  const { batch } = view;
  return (
    <>
      {view.remoteError && (
        <Banner tone="critical" title="The Shipping API's view of this batch is not available">
          <p>{view.remoteError}</p>
        </Banner>
      )}
      {batch.error && (
        <Banner tone={batch.status === "FAILED" ? "critical" : "warning"}>
          <p data-testid="batch-error">{batch.error}</p>
        </Banner>
      )}
      {(batch.status === "BOOKING" || batch.status === "CREATING") && (
        <Card>
          <BlockStack gap="200">
            <Text as="p">
              <span data-testid="batch-progress">
                {batch.status === "BOOKING"
                  ? `Booking ${view.counts.orders} ${view.counts.orders === 1 ? "order" : "orders"}…`
                  : "Creating the batch on the Shipping API…"}
              </span>
            </Text>
            <ProgressBar progress={batch.status === "BOOKING" ? 60 : 30} tone="primary" />
            <Text as="p" tone="subdued">
              This page updates by itself. You can leave it: the booking carries on and is checked before anything is booked again.
            </Text>
          </BlockStack>
        </Card>
      )}
      {batch.status === "OPEN" && view.blockers.length > 0 && (
        <Banner tone="warning" title="Not ready to book">
          <BlockStack gap="100">
            {view.blockers.map((blocker) => (
              <p key={blocker} data-testid="batch-blocker">
                {blocker}
              </p>
            ))}
          </BlockStack>
        </Banner>
      )}
    </>
  );
}

/** The batch's prepay balance: what booking will do to it, or what it was after booking. */
export function PrepayAside({ batch, prepay, booked }: { batch: BatchView["batch"]; prepay: BatchView["prepay"]; booked: boolean }) {
  return (
    <BlockStack gap="100">
      <Text as="h2" variant="headingSm">
        Prepay balance
      </Text>
      {prepay ? (
        <PrepayCheckpoint outlook={prepay} />
      ) : (
        <Text as="p">
          <span data-testid="prepay-balance">
            {batch.prepayBalance
              ? `${formatMoney(batch.prepayBalance, "USD")} after booking`
              : booked
                ? "Not reported for this booking"
                : batch.status === "BOOKING"
                  ? "Reported when the booking finishes"
                  : "Nothing was booked"}
          </span>
        </Text>
      )}
      {batch.bookedAt && (
        <Text as="p" tone="subdued">
          Booked <ShopDateTime value={batch.bookedAt} />
        </Text>
      )}
    </BlockStack>
  );
}
