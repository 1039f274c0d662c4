import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, IndexTable, InlineStack, Select, Text, useIndexResourceState } from "@shopify/polaris";
import { useState } from "react";
import type { loadPresetsPage, PresetRow } from "../../../automation/presets-page.server";

type Page = SerializeFrom<Awaited<ReturnType<typeof loadPresetsPage>>>;

/** The products and variants of this page, selectable, with a box to set on the selected ones at once. */
export function PresetsTable({
  page,
  busy,
  onEdit,
  onSetBox,
}: {
  page: Page;
  busy: boolean;
  onEdit: (row: PresetRow) => void;
  onSetBox: (rows: PresetRow[], boxName: string | null) => void;
}) {
  const rows = page.rows.map((row) => ({ ...row, id: row.targetId }));
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(rows);
  const [boxName, setBoxName] = useState(page.boxes[0] ?? "");
  const selected = rows.filter((row) => selectedResources.includes(row.id));
  const setBox = (name: string | null) => {
    onSetBox(selected, name);
    clearSelection();
  };

  if (rows.length === 0) {
    if (page.problem) return null;
    return (
      <Card>
        <Text as="p" tone="subdued">
          <span data-testid="presets-empty">
            {page.search
              ? `No product's title or SKU contains “${page.search}”. Search for another.`
              : "Your store has no products yet. Add one in Shopify first."}
          </span>
        </Text>
      </Card>
    );
  }
  return (
    <Card padding="0">
      <Box padding="400">
        <InlineStack gap="200" blockAlign="end">
          <Select label="Box for the selected products" options={page.boxes.map((box) => ({ label: box, value: box }))} value={boxName} onChange={setBoxName} />
          <Button onClick={() => setBox(boxName)} disabled={busy || selected.length === 0}>
            {`Set box for ${selected.length} selected`}
          </Button>
          <Button onClick={() => setBox(null)} disabled={busy || selected.length === 0}>
            Use the default box
          </Button>
        </InlineStack>
      </Box>
      <IndexTable
        resourceName={{ singular: "product", plural: "products" }}
        itemCount={rows.length}
        selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
        onSelectionChange={handleSelectionChange}
        headings={[{ title: "Product" }, { title: "SKU" }, { title: "Box" }, { title: "Customs defaults" }, { title: "" }]}
      >
        {rows.map((row, index) => (
          <IndexTable.Row id={row.id} key={row.id} position={index} selected={selectedResources.includes(row.id)}>
            <IndexTable.Cell>
              <span data-testid="preset-row" data-title={row.title}>
                <Text as="span" fontWeight={row.variant ? "regular" : "semibold"}>
                  {row.variant ? `↳ ${row.title}` : row.title}
                </Text>
              </span>
            </IndexTable.Cell>
            <IndexTable.Cell>{row.sku ?? "—"}</IndexTable.Cell>
            <IndexTable.Cell>
              <span data-testid="preset-box">
                {row.box ? (
                  <Badge tone="info">{row.box}</Badge>
                ) : (
                  <Text as="span" tone="subdued">
                    Default
                  </Text>
                )}
              </span>
            </IndexTable.Cell>
            <IndexTable.Cell>
              {row.customs ?? (
                <Text as="span" tone="subdued">
                  From Shopify
                </Text>
              )}
            </IndexTable.Cell>
            <IndexTable.Cell>
              {/* A click on the button edits the row; it does not also select it. */}
              <div onClick={(event) => event.stopPropagation()}>
                <Button onClick={() => onEdit(row)} accessibilityLabel={`Edit the preset of ${row.title}`}>
                  Edit
                </Button>
              </div>
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </IndexTable>
      {(page.next || page.search) && (
        <Box padding="400">
          <BlockStack>
            <InlineStack gap="400">
              {page.next && <Link to={`?${new URLSearchParams({ q: page.search, after: page.next }).toString()}`}>Next products</Link>}
              <Link to={page.search ? `?${new URLSearchParams({ q: page.search }).toString()}` : "?"}>First products</Link>
            </InlineStack>
          </BlockStack>
        </Box>
      )}
    </Card>
  );
}
