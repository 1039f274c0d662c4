import type { ServiceNames } from "../../../shipping/service-names";
import { useFetcher } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Text, useIndexResourceState } from "@shopify/polaris";
import { useEffect } from "react";
import type { BatchCandidate } from "../../../batches/batch-store.server";
import { CandidateTable } from "../../../batches/components/candidate-table";
import type { BatchActionResult } from "../batch.server";

/** Orders with picked rates not in a batch yet, to add to this open batch. */
export function AddOrders({ candidates, busy, names }: { candidates: BatchCandidate[]; busy: boolean; names: ServiceNames }) {
  const fetcher = useFetcher<BatchActionResult>();
  const rows = candidates.map((candidate) => ({ ...candidate, id: candidate.shipmentId }));
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(rows);
  const chosen = allResourcesSelected ? rows.map((row) => row.id) : selectedResources;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) clearSelection();
  }, [fetcher.state, fetcher.data, clearSelection]);
  if (rows.length === 0) return null;
  return (
    <Card padding="0">
      <BlockStack gap="0">
        <div style={{ padding: "12px 16px" }}>
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingSm">
              Add orders with picked rates
            </Text>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value="add" />
              {chosen.map((id) => (
                <input key={id} type="hidden" name="shipmentIds" value={id} />
              ))}
              <Button submit disabled={chosen.length === 0 || busy} loading={fetcher.state !== "idle"}>
                {`Add ${chosen.length} to batch`}
              </Button>
            </fetcher.Form>
          </InlineStack>
          {fetcher.data && !fetcher.data.ok && (
            <Text as="p" tone="critical">
              {fetcher.data.message}
            </Text>
          )}
        </div>
        <CandidateTable
          rows={candidates}
          selected={selectedResources}
          allSelected={allResourcesSelected}
          onSelectionChange={handleSelectionChange}
          names={names}
        />
      </BlockStack>
    </Card>
  );
}
