import { BlockStack, Text } from "@shopify/polaris";
import type { BatchLine } from "../../../booking/batches.server";
import { compareWithPaid, describePaid, type PaidShipping } from "../../../quoting/customer-choice";
import { carrierAndService, type ServiceNames } from "../../../shipping/service-names";

/** A line's service by name, with the shipping the customer paid for and a flag when the pick falls short of it. */
export function LineService({ line, names, paid }: { line: BatchLine; names: ServiceNames; paid: PaidShipping | null }) {
  if (!line.carrierCode || !line.serviceCode) return <Text as="span">—</Text>;
  const service = { carrierCode: line.carrierCode, serviceCode: line.serviceCode, serviceDescription: line.serviceDescription };
  const choice =
    line.totalAmount && line.currency
      ? compareWithPaid(
          { serviceCode: line.serviceCode, serviceDescription: line.serviceDescription ?? "", totalAmount: line.totalAmount, currency: line.currency },
          paid,
        )
      : null;
  return (
    <BlockStack gap="050">
      <span data-testid="line-service">{carrierAndService(names, service)}</span>
      {paid && (
        <Text as="span" tone="subdued" variant="bodySm">
          Customer paid for: <span data-testid="paid-shipping">{describePaid(paid)}</span>
        </Text>
      )}
      {choice?.flag && (
        <span data-testid="choice-flag" data-slower={choice.slower}>
          <Text as="span" tone="caution" variant="bodySm">
            {choice.flag}
          </Text>
        </span>
      )}
    </BlockStack>
  );
}
