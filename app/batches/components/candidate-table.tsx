import { IndexTable, type IndexTableProps } from "@shopify/polaris";
import { formatMoney } from "../../shipping/money";
import type { BatchCandidate } from "../batch-store.server";

/** Orders with a picked rate that can go into a batch, selectable: the new-batch page and "add orders". */
export function CandidateTable({
  rows,
  selected,
  allSelected,
  onSelectionChange,
}: {
  rows: readonly BatchCandidate[];
  selected: readonly string[];
  allSelected: boolean;
  onSelectionChange: NonNullable<IndexTableProps["onSelectionChange"]>;
}) {
  return (
    <IndexTable
      resourceName={{ singular: "order", plural: "orders" }}
      itemCount={rows.length}
      selectedItemsCount={allSelected ? "All" : selected.length}
      onSelectionChange={onSelectionChange}
      headings={[{ title: "Order" }, { title: "Carrier" }, { title: "Service" }, { title: "Rate" }, { title: "Rate valid until" }]}
    >
      {rows.map((row, index) => (
        <IndexTable.Row id={row.shipmentId} key={row.shipmentId} position={index} selected={allSelected || selected.includes(row.shipmentId)}>
          <IndexTable.Cell>
            <span data-testid="candidate-order">{row.orderName}</span>
          </IndexTable.Cell>
          <IndexTable.Cell>{row.carrierCode}</IndexTable.Cell>
          <IndexTable.Cell>{row.serviceDescription}</IndexTable.Cell>
          <IndexTable.Cell>{row.totalAmount ? formatMoney(row.totalAmount, row.currency) : "—"}</IndexTable.Cell>
          <IndexTable.Cell>{row.expiresAt ? new Date(row.expiresAt).toLocaleDateString() : "—"}</IndexTable.Cell>
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
