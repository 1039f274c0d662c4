import { BlockStack, ChoiceList, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { DEFAULT_MATCH_CEILING, ONBOARDING_RULES, type OnboardingRuleKind } from "../onboarding-form";

/**
 * Onboarding's question "which rate should Consign preselect?": each rule explained, matching the customer's
 * choice suggested and chosen to start with. Posts `rateRuleKind` and, for matching, `rateRuleMaxAmount`.
 */
export function RateRuleChoice({ errors }: { errors: Record<string, string> }) {
  const [kind, setKind] = useState<OnboardingRuleKind>("match");
  const [ceiling, setCeiling] = useState(DEFAULT_MATCH_CEILING);
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        Which rate should Consign pick for each order?
      </Text>
      <input type="hidden" name="rateRuleKind" value={kind} />
      <ChoiceList
        title="Rate rule"
        titleHidden
        selected={[kind]}
        onChange={([next]) => setKind(ONBOARDING_RULES.find((rule) => rule.kind === next)?.kind ?? "match")}
        choices={ONBOARDING_RULES.map((rule) => ({ label: rule.label, value: rule.kind, helpText: rule.helpText }))}
        error={errors.rateRuleKind}
      />
      {kind === "match" && (
        <TextField
          label="Price ceiling"
          name="rateRuleMaxAmount"
          inputMode="decimal"
          autoComplete="off"
          helpText="In the currency your rates come in."
          value={ceiling}
          onChange={setCeiling}
          error={errors.rateRuleMaxAmount}
        />
      )}
      <Text as="p" variant="bodySm" tone="subdued">
        You can change it, or choose a preferred carrier, in Settings at any time. You can always pick another rate for an order.
      </Text>
    </BlockStack>
  );
}
