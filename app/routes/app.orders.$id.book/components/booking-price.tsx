import { BlockStack, Card, Text } from "@shopify/polaris";
import type { OptionsPrice } from "../../../booking/single-booking.server";
import { formatMoney } from "../../../shipping/money";

/**
 * What booking charges: the quoted price, or with signature and insurance chosen, the price of those options
 * (priced before anything is spent) with its breakdown.
 */
export function BookingPrice({
  rate,
  total,
  withOptions,
  current,
  saturday,
}: {
  rate: { serviceDescription: string; saturdayDelivery: boolean };
  total: { amount: string; currency: string } | null;
  withOptions: boolean;
  current: OptionsPrice | undefined;
  saturday: boolean;
}) {
  return (
    <Card background="bg-surface-secondary">
      <BlockStack gap="100">
        <Text as="p" fontWeight="semibold">
          <span data-testid="booking-price">
            {total
              ? `Booking charges ${formatMoney(total.amount, total.currency)}`
              : withOptions && current && !current.ok
                ? "Not priced"
                : "Pricing your options…"}
          </span>
        </Text>
        {!withOptions && <Text as="p" tone="subdued">{`The quoted price of ${rate.serviceDescription}: no signature, no insurance.`}</Text>}
        {current?.ok && (
          <Text as="p" tone="subdued">
            <span data-testid="booking-price-breakdown">
              {[
                `${formatMoney(current.base, current.currency)} base`,
                ...current.surcharges.map((surcharge) => `${formatMoney(surcharge.amount, current.currency)} ${surcharge.description}`),
              ].join(" + ")}
              {current.total !== current.quotedTotal ? ` (quoted ${formatMoney(current.quotedTotal, current.currency)} without these options)` : ""}
            </span>
          </Text>
        )}
        {current && !current.ok && (
          <Text as="p" tone="critical">
            {current.message}
          </Text>
        )}
        {saturday && rate.saturdayDelivery && (
          <Text as="p" tone="subdued">
            Plus the Saturday delivery surcharge, which the carrier prices when the label is booked.
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
