import { IndexTable, type IndexTableProps } from "@shopify/polaris";
import { useShopTime } from "../../components/shop-time";
import { formatMoney } from "../../shipping/money";
import { carrierName, serviceName, type ServiceNames } from "../../shipping/service-names";
import type { BatchCandidate } from "../batch-store.server";

/** Orders with a picked rate that can go into a batch, selectable: the new-batch page and "add orders". */
export function CandidateTable({
  rows,
  selected,
  allSelected,
  onSelectionChange,
  names,
}: {
  rows: readonly BatchCandidate[];
  selected: readonly string[];
  allSelected: boolean;
  onSelectionChange: NonNullable<IndexTableProps["onSelectionChange"]>;
  /** Carrier and service names from List Services. */
  names: ServiceNames;
}) {
  const time = useShopTime();
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
          <IndexTable.Cell>
            <span data-testid="candidate-carrier">{carrierName(names, row.carrierCode)}</span>
          </IndexTable.Cell>
          <IndexTable.Cell>{serviceName(names, row)}</IndexTable.Cell>
          <IndexTable.Cell>{row.totalAmount ? formatMoney(row.totalAmount, row.currency) : "—"}</IndexTable.Cell>
          <IndexTable.Cell>{time.dateTime(row.expiresAt)}</IndexTable.Cell>
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
