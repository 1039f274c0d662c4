import type { SerializeFrom } from "@remix-run/node";
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { RULE_FIELD_LABELS as L, type RuleFormValues } from "../../../automation/rule-form";
import type { RuleTest, RulesPage } from "../../../automation/rules-page.server";
import { SPEED_LABELS } from "../../../quoting/shipping-rules";

type Result = { ok: boolean; intent: string; message?: string; fieldErrors?: Record<string, string>; test?: RuleTest } | undefined;

const RATE_KINDS = [
  { label: "Does not pick the rate (only changes the box, signature, insurance or residential)", value: "none" },
  { label: "A given service", value: "service" },
  { label: "The cheapest (of some carriers, or of all)", value: "cheapest" },
  { label: "The fastest (of some carriers, or of all)", value: "fastest" },
  { label: "The service nearest the customer's choice at checkout", value: "match" },
];

/** Adding or editing one rule: its conditions, its actions, and a test on one order before saving. */
export function RuleEditor({
  page,
  editing,
  result,
  busy,
  onChange,
  onSave,
  onTest,
  onCancel,
}: {
  page: SerializeFrom<RulesPage>;
  editing: { id: string | null; values: RuleFormValues };
  result: Result;
  busy: boolean;
  onChange: (values: RuleFormValues) => void;
  onSave: () => void;
  onTest: (orderId: string) => void;
  onCancel: () => void;
}) {
  const values = editing.values;
  const [orderId, setOrderId] = useState(page.orders[0]?.id ?? "");
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const set = (field: keyof RuleFormValues) => (value: string) => onChange({ ...values, [field]: value });
  const text = (field: keyof RuleFormValues, help?: string, extra: Record<string, unknown> = {}) => (
    <TextField label={L[field]} value={String(values[field])} onChange={set(field)} error={errors[field]} helpText={help} autoComplete="off" {...extra} />
  );
  const select = (field: keyof RuleFormValues, options: Array<{ label: string; value: string }>) => (
    <Select label={L[field]} options={options} value={String(values[field])} onChange={set(field)} error={errors[field]} />
  );
  const catalog = page.catalog;
  const picksRate = values.rateKind !== "none";
  const test = result?.ok && result.intent === "test" ? result.test : undefined;

  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {editing.id ? `Edit rule '${values.name}'` : "New rule"}
        </Text>
        {result && !result.ok && (
          <Banner tone="critical" title={result.intent === "test" ? "The rule could not be tested" : "The rule was not saved"}>
            <p data-testid="rule-refusal">{result.message}</p>
          </Banner>
        )}
        <FormLayout>
          {text("name", "Shown with each rate it picks, like “Heavy to EU”.")}
          <Text as="h3" variant="headingSm">
            When all of these hold (leave a field empty for any)
          </Text>
          <FormLayout.Group>
            {select("destination", [
              { label: "Anywhere", value: "anywhere" },
              { label: "Domestic (the sender's country)", value: "domestic" },
              { label: "International", value: "international" },
            ])}
            {text("countries", "Two-letter codes, like DE, FR, IT.")}
            {text("states", "Like US-NY, US-NJ, CA-ON.")}
          </FormLayout.Group>
          <FormLayout.Group condensed>
            {text("weightMin", undefined, { inputMode: "decimal" })}
            {text("weightMax", undefined, { inputMode: "decimal" })}
            {select(
              "weightUnit",
              ["lb", "oz", "kg", "g"].map((unit) => ({ label: unit, value: unit })),
            )}
          </FormLayout.Group>
          <FormLayout.Group condensed>
            {text("valueMin", `In ${page.currency}.`, { inputMode: "decimal" })}
            {text("valueMax", undefined, { inputMode: "decimal" })}
            {text("itemsMin", undefined, { inputMode: "numeric" })}
            {text("itemsMax", undefined, { inputMode: "numeric" })}
          </FormLayout.Group>
          <FormLayout.Group>
            {text("tags", "Any of these, separated by commas.")}
            {text("products", "SKUs or product names; any of these.")}
          </FormLayout.Group>
          <FormLayout.Group>
            {text("shippingTitle", "Words of the shipping the customer chose, like Express.")}
            {select("shippingSpeed", [{ label: "Any", value: "" }, ...SPEED_LABELS.map((label) => ({ label, value: label }))])}
          </FormLayout.Group>
          <Text as="h3" variant="headingSm">
            Then
          </Text>
          {select("rateKind", RATE_KINDS)}
          {values.rateKind === "service" &&
            select("service", [
              { label: "Choose a service", value: "" },
              ...(catalog?.services ?? [])
                .filter((service) => !service.inbound)
                .map((service) => ({ label: `${service.carrierLabel} ${service.serviceLabel}`, value: `${service.carrierCode}/${service.serviceCode}` })),
            ])}
          {(values.rateKind === "cheapest" || values.rateKind === "fastest") && catalog && (
            <BlockStack gap="100">
              <Text as="p">{L.carriers} (none ticked: all)</Text>
              <InlineStack gap="400">
                {catalog.carriers.map((carrier) => (
                  <Checkbox
                    key={carrier.carrierCode}
                    label={carrier.carrierLabel}
                    checked={values.carriers.includes(carrier.carrierCode)}
                    onChange={(checked) =>
                      onChange({
                        ...values,
                        carriers: checked ? [...values.carriers, carrier.carrierCode] : values.carriers.filter((code) => code !== carrier.carrierCode),
                      })
                    }
                  />
                ))}
              </InlineStack>
            </BlockStack>
          )}
          {picksRate && text("maxAmount", `Optional, in ${page.currency}: above it the rule passes the order to the next one.`, { inputMode: "decimal" })}
          <FormLayout.Group>
            {select("box", [{ label: "Unchanged", value: "" }, ...page.boxes.map((box) => ({ label: box, value: box }))])}
            {select("signatureOptionCode", [
              { label: "Unchanged", value: "" },
              ...(catalog?.signatureOptions ?? []).map((option) => ({ label: option.label, value: option.code })),
            ])}
          </FormLayout.Group>
          <FormLayout.Group>
            {select("insure", [
              { label: "Unchanged", value: "" },
              { label: "Insure for the goods' value", value: "yes" },
              { label: "Do not insure", value: "no" },
            ])}
            {select("residential", [
              { label: "Unchanged", value: "" },
              { label: "Residential", value: "residential" },
              { label: "Commercial", value: "commercial" },
            ])}
          </FormLayout.Group>
        </FormLayout>
        <InlineStack gap="200">
          <Button variant="primary" onClick={onSave} loading={busy}>
            Save rule
          </Button>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </InlineStack>
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Test on an order before saving
          </Text>
          {page.orders.length === 0 ? (
            <Text as="p" tone="subdued">
              There are no open orders to test on. Sync orders in Orders to ship first.
            </Text>
          ) : (
            <InlineStack gap="200" blockAlign="end">
              <Select
                label="Order"
                options={page.orders.map((order) => ({ label: order.name, value: order.id }))}
                value={orderId}
                onChange={setOrderId}
                error={errors.orderId}
              />
              <Button onClick={() => onTest(orderId)} disabled={busy}>
                Test
              </Button>
            </InlineStack>
          )}
          {test && <TestResult test={test} />}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}

function TestResult({ test }: { test: RuleTest }) {
  return (
    <div data-testid="rule-test">
      <BlockStack gap="200">
        <Text as="p" fontWeight="semibold">
          {test.verdict}
        </Text>
        <ol>
          {test.rules.map((rule, index) => (
            <li key={index}>
              <Text as="span" fontWeight={rule.tested ? "bold" : "regular"}>
                {rule.name}
                {rule.tested ? " (this rule)" : ""}: {rule.holds ? "matches" : "does not match"}
              </Text>
              {rule.checks.length > 0 && (
                <Text as="span" tone="subdued">
                  {" "}
                  — {rule.checks.map((check) => `${check.holds ? "✓" : "✗"} ${check.why}`).join("; ")}
                </Text>
              )}
            </li>
          ))}
        </ol>
      </BlockStack>
    </div>
  );
}
