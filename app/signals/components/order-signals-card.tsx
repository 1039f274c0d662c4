import type { SerializeFrom } from "@remix-run/node";
import { Badge, BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useShopTime } from "../../components/shop-time";
import type { OrderSignalView, SignalStep } from "../signal-views.server";

const BADGES: Record<SignalStep["tone"], { tone: "success" | "info" | "warning" | "critical" | undefined; label: string }> = {
  success: { tone: "success", label: "Done" },
  info: { tone: "info", label: "Under way" },
  neutral: { tone: undefined, label: "No workflow" },
  warning: { tone: "warning", label: "Unconfirmed" },
  critical: { tone: "critical", label: "Failed" },
};

function Step({ step, testId }: { step: SignalStep; testId: string }) {
  const badge = BADGES[step.tone];
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center" wrap={false}>
        <Badge tone={badge.tone}>{badge.label}</Badge>
        <Text as="span" tone={step.tone === "critical" ? "critical" : undefined}>
          <span data-testid={testId}>{step.text}</span>
        </Text>
      </InlineStack>
      {step.advice && (
        <Text as="p" tone="subdued">
          <span data-testid="signal-advice">{step.advice}</span>
        </Text>
      )}
    </BlockStack>
  );
}

/**
 * What Consign told Shopify about this order (the order's page): the tags it wrote and the Flow triggers it sent,
 * newest first, each failed or unconfirmed one with what to do. Nothing is shown before the order's first signal.
 */
export function OrderSignalsCard({ signals }: { signals: SerializeFrom<OrderSignalView>[] }) {
  const time = useShopTime();
  if (signals.length === 0) return null;
  const trouble = signals.filter((signal) => [signal.tags, signal.flow].some((step) => step?.tone === "critical" || step?.tone === "warning")).length;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Order tags and Flow
          </Text>
          {trouble > 0 && <Badge tone="critical">{`${trouble} need${trouble === 1 ? "s" : ""} you`}</Badge>}
        </InlineStack>
        {signals.map((signal) => (
          <div key={signal.id} data-testid="order-signal" data-fact={signal.fact}>
            <BlockStack gap="100">
              <InlineStack gap="200">
                <Text as="h3" variant="headingSm">
                  {signal.fact}
                </Text>
                <Text as="span" tone="subdued">
                  {time.dateTime(signal.at)}
                </Text>
              </InlineStack>
              {signal.tags && <Step step={signal.tags} testId="signal-tags" />}
              {signal.flow && <Step step={signal.flow} testId="signal-flow" />}
              {!signal.tags && !signal.flow && (
                <Text as="p" tone="subdued">
                  Nothing written: order tags are off in Settings.
                </Text>
              )}
            </BlockStack>
          </div>
        ))}
      </BlockStack>
    </Card>
  );
}
