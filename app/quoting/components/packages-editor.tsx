import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineError, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import type { WeightUnit } from "../../../shipping-api/contract";
import type { FieldErrors, Outcome } from "../../outcome";
import { MAX_PACKAGES, assignmentOf, derivedBoxWeight, evenAssignment, type PackageChoice, type PackingFacts } from "../packages";
import { formatWeight } from "../rate-display";

/**
 * A shipment's packages, editable in place: a box of Settings and a weight for each, "Add box" to split the
 * order and, with several boxes, how many of each item go in each box (shared out evenly to start with), then
 * re-quote with them. Where the items' weights are known, each box offers their weight with the packaging; the
 * weight typed is the one quoted. Problems come back on the field they concern.
 */
export function PackagesEditor({
  shipment,
  boxes,
  onDone,
}: {
  shipment: { id: string; packages: PackageChoice[]; weightUnit: string; packing: PackingFacts };
  boxes: string[];
  onDone: () => void;
}) {
  const repack = useFetcher<Outcome<{ message?: string }, { fieldErrors?: FieldErrors }>>();
  const { lines } = shipment.packing;
  const [packages, setPackages] = useState<PackageChoice[]>(shipment.packages);
  // What each box holds, as typed: [box][line].
  const [held, setHeld] = useState<string[][]>(() => assignmentOf(shipment.packages, lines).map((box) => box.map(String)));
  const busy = repack.state !== "idle";
  const refused = repack.data && !repack.data.ok ? repack.data : null;
  const errorOn = (field: string) => refused?.fieldErrors?.[field];

  useEffect(() => {
    if (repack.state === "idle" && repack.data?.ok) onDone();
  }, [repack.state, repack.data, onDone]);

  const update = (index: number, change: Partial<PackageChoice>) =>
    setPackages((current) => current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)));
  /** Boxes added or removed: the items are shared out evenly over the boxes again. */
  const reshape = (next: PackageChoice[]) => {
    setPackages(next);
    setHeld(evenAssignment(lines, next.length).map((box) => box.map(String)));
  };
  const options = [...new Set([...boxes, ...packages.map((entry) => entry.box)])].map((name) => ({ label: name, value: name }));
  const split = packages.length > 1 && lines.length > 0;
  // A box's items as numbers (what is not a whole number counts as none here; the server names it).
  const quantities = (box: number) => lines.map((_, line) => (/^\d+$/.test(held[box]?.[line]?.trim() ?? "") ? Number(held[box]![line]) : 0));
  const offered = (box: number) =>
    derivedBoxWeight(shipment.packing, split ? quantities(box) : lines.map((line) => line.quantity), shipment.weightUnit as WeightUnit);
  const shownInline = (field: string) => field.startsWith("packages[") || field.startsWith("lines[");

  return (
    <div data-testid="packages-editor" style={{ padding: "12px", border: "1px solid var(--p-color-border-secondary)", borderRadius: "8px" }}>
      {/* The server checks what was typed and says what is wrong in the merchant's words, not the browser's. */}
      <repack.Form method="post" noValidate>
        <input type="hidden" name="intent" value="repack" />
        <input type="hidden" name="shipmentId" value={shipment.id} />
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            Boxes
          </Text>
          <Text as="p" tone="subdued" variant="bodySm">
            Weights include the packaging. Split the order into more boxes with Add box, say which items go in each, and the order is quoted again in them.
          </Text>
          {packages.map((entry, index) => {
            const suggestion = offered(index);
            return (
              <InlineStack key={index} gap="200" blockAlign="end">
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
                {suggestion !== null && suggestion !== entry.weight && (
                  <span data-testid="derived-weight">
                    <Button
                      variant="plain"
                      onClick={() => update(index, { weight: suggestion })}
                      accessibilityLabel={`Use ${formatWeight(suggestion, shipment.weightUnit)} for box ${index + 1}: its items and the packaging`}
                    >
                      {`Use ${formatWeight(suggestion, shipment.weightUnit)} (items and packaging)`}
                    </Button>
                  </span>
                )}
                {packages.length > 1 && (
                  <Button
                    variant="plain"
                    tone="critical"
                    onClick={() => reshape(packages.filter((_, at) => at !== index))}
                    accessibilityLabel={`Remove box ${index + 1}`}
                  >
                    Remove
                  </Button>
                )}
              </InlineStack>
            );
          })}
          {split && <BoxContents lines={lines} held={held} onChange={setHeld} errorOn={errorOn} />}
          {refused && !Object.keys(refused.fieldErrors ?? {}).some(shownInline) && (
            <Banner tone="critical">
              <p data-testid="packages-error">{refused.message}</p>
            </Banner>
          )}
          <InlineStack gap="200">
            <Button
              disabled={packages.length >= MAX_PACKAGES}
              onClick={() => reshape([...packages, { box: packages[packages.length - 1]?.box ?? boxes[0] ?? "", weight: "" }])}
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

/**
 * Which items go in which box: a row per item, a quantity per box, and how many are not in a box yet (or one
 * too many). Posted as `line` (each item once) and `quantity` (per item, its quantity in each box in box order).
 */
function BoxContents({
  lines,
  held,
  onChange,
  errorOn,
}: {
  lines: PackingFacts["lines"];
  held: string[][];
  onChange: (held: string[][]) => void;
  errorOn: (field: string) => string | undefined;
}) {
  const set = (box: number, line: number, value: string) =>
    onChange(held.map((row, at) => (at === box ? row.map((each, index) => (index === line ? value : each)) : row)));
  const cell = { padding: "4px 8px", verticalAlign: "top" } as const;
  return (
    <BlockStack gap="100">
      <Text as="h4" variant="headingXs">
        What goes in each box
      </Text>
      <Text as="p" tone="subdued" variant="bodySm">
        Every item goes in exactly one box; its packing slip lists what is in that box. Adding or removing a box shares the items out evenly again.
      </Text>
      <div style={{ overflowX: "auto" }}>
        <table data-testid="box-contents" style={{ borderCollapse: "collapse" }}>
          <caption style={{ position: "absolute", width: 1, height: 1, overflow: "hidden", clipPath: "inset(50%)" }}>Items in each box</caption>
          <thead>
            <tr>
              <th scope="col" style={{ ...cell, textAlign: "left" }}>
                <Text as="span" variant="bodySm" fontWeight="semibold">
                  Item
                </Text>
              </th>
              {held.map((_, box) => (
                <th key={box} scope="col" style={{ ...cell, textAlign: "left" }}>
                  <Text as="span" variant="bodySm" fontWeight="semibold">
                    {`Box ${box + 1}`}
                  </Text>
                </th>
              ))}
              <th scope="col" style={{ ...cell, textAlign: "left" }}>
                <Text as="span" variant="bodySm" fontWeight="semibold">
                  Not in a box
                </Text>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => {
              const placed = held.reduce((sum, box) => sum + (/^\d+$/.test(box[index]?.trim() ?? "") ? Number(box[index]) : 0), 0);
              const left = line.quantity - placed;
              // The message goes beside the row (a quantity's cell is too narrow for it); its field is outlined.
              const problem = errorOn(`lines[${index}]`) ?? held.map((_, at) => errorOn(`packages[${at}].lines[${index}]`)).find(Boolean);
              return (
                <tr key={line.id} data-testid="box-contents-line" data-line-name={line.name} data-sku={line.sku} data-quantity={line.quantity}>
                  <th scope="row" style={{ ...cell, textAlign: "left", fontWeight: "normal", maxWidth: 280 }}>
                    <input type="hidden" name="line" value={line.id} />
                    <BlockStack gap="050">
                      <Text as="span">{`${line.quantity} × ${line.name}`}</Text>
                      {line.sku && (
                        <Text as="span" tone="subdued" variant="bodySm">
                          {line.sku}
                        </Text>
                      )}
                    </BlockStack>
                  </th>
                  {held.map((box, at) => (
                    <td key={at} style={{ ...cell, width: 88 }}>
                      <TextField
                        label={`${line.name} in box ${at + 1}`}
                        labelHidden
                        name="quantity"
                        type="number"
                        min={0}
                        max={line.quantity}
                        autoComplete="off"
                        value={box[index] ?? ""}
                        onChange={(value) => set(at, index, value)}
                        error={Boolean(errorOn(`packages[${at}].lines[${index}]`))}
                      />
                    </td>
                  ))}
                  <td style={{ ...cell, minWidth: 120, maxWidth: 260 }}>
                    <span data-testid="box-contents-left" data-left={left}>
                      <Text as="span" tone={left === 0 ? "subdued" : left > 0 ? "caution" : "critical"}>
                        {left === 0 ? "All in boxes" : left > 0 ? `${left} not in a box` : `${-left} too many`}
                      </Text>
                    </span>
                    {problem && <InlineError message={problem} fieldID={`line-${line.id}`} />}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </BlockStack>
  );
}
