import { useState } from "react";
import { BlockStack, Box, Button, Card, InlineError, InlineGrid, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import type { FieldErrors } from "../../../field-errors";
import { MAX_RETURN_BOXES } from "../../../returns/return-boxes";

/** What the split form needs of a return: its name and the lines it can split. */
export interface SplittableReturn {
  id: string;
  name: string;
  splittable: Array<{ lineId: string; title: string; quantity: number }>;
}

/** Every unit in a box, one unit to each box in turn: a split that is valid as it stands. */
function dealt(lines: SplittableReturn["splittable"], count: number): Array<Record<string, number>> {
  const boxes = Array.from({ length: count }, () => ({}) as Record<string, number>);
  let next = 0;
  for (const line of lines)
    for (let unit = 0; unit < line.quantity; unit++) {
      const box = boxes[next % count]!;
      box[line.lineId] = (box[line.lineId] ?? 0) + 1;
      next++;
    }
  return boxes;
}

/**
 * "Split into boxes" for one return that needs a label (docs/decisions/041 "a return's boxes"): how many boxes,
 * then how many of each item goes in each, every unit dealt to a box to start with. Each problem shows next to its
 * box or item; the labels are quoted for every box at once.
 */
export function SplitBoxes({
  entry,
  busy,
  fieldErrors,
  submit,
  close,
}: {
  entry: SplittableReturn;
  busy: boolean;
  fieldErrors: FieldErrors;
  submit: (data: Record<string, string>) => void;
  close: () => void;
}) {
  const units = entry.splittable.reduce((sum, line) => sum + line.quantity, 0);
  const most = Math.min(units, MAX_RETURN_BOXES);
  const [boxes, setBoxes] = useState(() => dealt(entry.splittable, 2));
  const setCount = (value: string) => setBoxes(dealt(entry.splittable, Number(value)));
  const setQuantity = (box: number, lineId: string, value: string) =>
    setBoxes((current) => current.map((each, index) => (index === box ? { ...each, [lineId]: Math.max(0, Math.trunc(Number(value) || 0)) } : each)));
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Split return {entry.name} into boxes
          </Text>
          <Box minWidth="140px">
            <Select
              label="Boxes"
              labelInline
              options={Array.from({ length: most - 1 }, (_, index) => String(index + 2))}
              value={String(boxes.length)}
              onChange={setCount}
            />
          </Box>
        </InlineStack>
        <Text as="p" tone="subdued">
          Put each item in one box. Each box gets its own return label, sent to the customer with the items it holds.
        </Text>
        {fieldErrors.boxes && <InlineError message={fieldErrors.boxes} fieldID="split-boxes" />}
        <InlineGrid columns={{ xs: 1, md: Math.min(boxes.length, 4) }} gap="300">
          {boxes.map((box, index) => (
            <div key={index} data-testid="split-box" data-box={index + 1}>
              <Box padding="300" borderWidth="025" borderColor="border" borderRadius="200">
                <BlockStack gap="200">
                  <Text as="h3" variant="headingSm">
                    Box {index + 1}
                  </Text>
                  {entry.splittable.map((line) => (
                    <TextField
                      key={line.lineId}
                      label={`${line.title} (of ${line.quantity})`}
                      type="number"
                      min={0}
                      max={line.quantity}
                      autoComplete="off"
                      value={String(box[line.lineId] ?? 0)}
                      onChange={(value) => setQuantity(index, line.lineId, value)}
                    />
                  ))}
                  {fieldErrors[`boxes[${index}]`] && <InlineError message={fieldErrors[`boxes[${index}]`]!} fieldID={`split-box-${index}`} />}
                </BlockStack>
              </Box>
            </div>
          ))}
        </InlineGrid>
        {entry.splittable.map((line, index) =>
          fieldErrors[`lines[${index}]`] ? <InlineError key={line.lineId} message={fieldErrors[`lines[${index}]`]!} fieldID={`split-line-${index}`} /> : null,
        )}
        <InlineStack gap="200" align="end">
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button variant="primary" loading={busy} onClick={() => submit({ intent: "split", returnId: entry.id, boxes: JSON.stringify(boxes) })}>
            {`Get labels for ${boxes.length} boxes`}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
