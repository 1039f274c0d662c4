import type { SerializeFrom } from "@remix-run/node";
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import type { PresetFormValues, PresetRow } from "../../../automation/presets-page.server";

/** One product's or variant's preset: its box and customs defaults. */
export function PresetEditor({
  row,
  boxes,
  result,
  busy,
  onSave,
  onCancel,
}: {
  row: SerializeFrom<PresetRow>;
  boxes: string[];
  result: { ok: boolean; message?: string; fieldErrors?: Record<string, string> } | undefined;
  busy: boolean;
  onSave: (values: PresetFormValues) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<PresetFormValues>(row.values);
  const errors = result && !result.ok ? (result.fieldErrors ?? {}) : {};
  const text = (field: keyof PresetFormValues, label: string, help?: string) => (
    <TextField
      label={label}
      value={values[field]}
      onChange={(value) => setValues({ ...values, [field]: value })}
      error={errors[field]}
      helpText={help}
      autoComplete="off"
    />
  );
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          Preset of {row.title}
        </Text>
        {result && !result.ok && (
          <Banner tone="critical" title="Nothing was saved">
            <p data-testid="preset-refusal">{result.message}</p>
          </Banner>
        )}
        <FormLayout>
          <Select
            label="Box"
            options={[
              { label: "The default box", value: "default" },
              { label: "A box of Settings", value: "settings" },
              { label: "Ships in its own box", value: "own" },
            ]}
            value={values.box}
            onChange={(box) => setValues({ ...values, box: box as PresetFormValues["box"], boxName: values.boxName || boxes[0] || "" })}
          />
          {values.box === "settings" && (
            <Select
              label="Box of Settings"
              options={boxes.map((box) => ({ label: box, value: box }))}
              value={values.boxName}
              onChange={(boxName) => setValues({ ...values, boxName })}
              error={errors.boxName}
            />
          )}
          {values.box === "own" && (
            <FormLayout.Group condensed>
              {text("length", "Length")}
              {text("width", "Width")}
              {text("height", "Height")}
              <Select
                label="Unit"
                options={["in", "cm"]}
                value={values.dimUnit}
                onChange={(dimUnit) => setValues({ ...values, dimUnit: dimUnit as "in" | "cm" })}
              />
            </FormLayout.Group>
          )}
          <FormLayout.Group>
            {text("hsCode", "HS code", "Used when Shopify has none, like 6912.00.")}
            {text("countryOfOrigin", "Country of origin", "Two letters, like PT.")}
          </FormLayout.Group>
          {text("description", "Customs description", "What the customs form says instead of the product's name, like “Stoneware mug”.")}
        </FormLayout>
        <InlineStack gap="200">
          <Button variant="primary" onClick={() => onSave(values)} loading={busy}>
            Save preset
          </Button>
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
