import { BlockStack, Text } from "@shopify/polaris";

/**
 * A shipment's tracking numbers: its one number, or for a shipment of several boxes with a number each, every
 * box's, one per line ("Box 2 of 2"). Each number carries `data-tracking-number`; the whole carries `testId`.
 */
export function TrackingNumbers({ numbers, testId }: { numbers: readonly string[]; testId?: string }) {
  if (numbers.length <= 1) {
    return (
      <span data-testid={testId} data-tracking-number={numbers[0]}>
        {numbers[0] ?? ""}
      </span>
    );
  }
  return (
    <span data-testid={testId}>
      <BlockStack gap="050">
        {numbers.map((number, index) => (
          <Text as="span" key={number}>
            <Text as="span" tone="subdued">
              {`Box ${index + 1} of ${numbers.length} `}
            </Text>
            <span data-tracking-number={number}>{number}</span>
          </Text>
        ))}
      </BlockStack>
    </span>
  );
}
