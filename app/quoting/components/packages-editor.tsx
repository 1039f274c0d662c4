import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import type { FieldErrors, Outcome } from "../../outcome";
import type { PackageChoice } from "../packages";

/**
 * A shipment's packages, editable in place: a box of Settings and a weight for each, "Add package" to split
 * the order, then re-quote with them. Problems come back on the field they concern.
 */
export function PackagesEditor({
  shipment,
  boxes,
  onDone,
}: {
  shipment: { id: string; packages: PackageChoice[]; weightUnit: string };
  boxes: string[];
  onDone: () => void;
}) {
  const repack = useFetcher<Outcome<{ message?: string }, { fieldErrors?: FieldErrors }>>();
  const [packages, setPackages] = useState<PackageChoice[]>(shipment.packages);
  const busy = repack.state !== "idle";
  const refused = repack.data && !repack.data.ok ? repack.data : null;
  const errorOn = (field: string) => refused?.fieldErrors?.[field];

  useEffect(() => {
    if (repack.state === "idle" && repack.data?.ok) onDone();
  }, [repack.state, repack.data, onDone]);

  const update = (index: number, change: Partial<PackageChoice>) =>
    setPackages((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  const options = [...new Set([...boxes, ...packages.map((entry) => entry.box)])].map((name) => ({ label: name, value: name }));

  return (
    <div data-testid="packages-editor" style={{ padding: "12px", border: "1px solid var(--p-color-border-secondary)", borderRadius: "8px" }}>
      <repack.Form method="post">
        <input type="hidden" name="intent" value="repack" />
        <input type="hidden" name="shipmentId" value={shipment.id} />
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            Boxes
          </Text>
          <Text as="p" tone="subdued" variant="bodySm">
            Weights include the packaging. Split the order into more boxes with Add box; the order is quoted again in them.
          </Text>
          {packages.map((entry, index) => (
            <InlineStack key={index} gap="200" blockAlign="end" wrap={false}>
              <div style={{ minWidth: 180 }}>
                <Select
                  label={`Box ${index + 1}`}
                  name="box"
                  options={options}
                  value={entry.box}
                  onChange={(box) => update(index, { box })}
                  error={errorOn(`packages[${index}].box`)}
                />
              </div>
              <div style={{ width: 140 }}>
                <TextField
                  label={`Box ${index + 1} weight`}
                  name="weight"
                  inputMode="decimal"
                  autoComplete="off"
                  suffix={shipment.weightUnit}
                  value={entry.weight}
                  onChange={(weight) => update(index, { weight })}
                  error={errorOn(`packages[${index}].weight`)}
                />
              </div>
              {packages.length > 1 && (
                <Button
                  variant="plain"
                  tone="critical"
                  onClick={() => setPackages((current) => current.filter((_, at) => at !== index))}
                  accessibilityLabel={`Remove box ${index + 1}`}
                >
                  Remove
                </Button>
              )}
            </InlineStack>
          ))}
          {refused && !Object.keys(refused.fieldErrors ?? {}).some((field) => field.startsWith("packages[")) && (
            <Banner tone="critical">
              <p data-testid="packages-error">{refused.message}</p>
            </Banner>
          )}
          <InlineStack gap="200">
            <Button
              disabled={packages.length >= 10}
              onClick={() => setPackages((current) => [...current, { box: current[current.length - 1]?.box ?? boxes[0] ?? "", weight: "" }])}
            >
              Add box
            </Button>
            <Button submit variant="primary" loading={busy}>
              Re-quote with these boxes
            </Button>
            <Button variant="plain" onClick={onDone}>
              Cancel
            </Button>
          </InlineStack>
        </BlockStack>
      </repack.Form>
    </div>
  );
}
