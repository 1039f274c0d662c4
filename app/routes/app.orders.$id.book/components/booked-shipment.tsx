import { BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import { useState } from "react";
import { openLabelFile } from "../../../batches/components/label-file";
import type { ShipmentBooking } from "../../../booking/single-booking.server";
import { TrackingNumbers } from "../../../components/tracking-numbers";
import { DocumentsSelect } from "../../../documents/documents-select";
import { PRINT_CHOICE_NAMES_ONE, type PrintChoice } from "../../../documents/print-choice";
import { formatMoney } from "../../../shipping/money";
import { carrierAndService, type ServiceNames } from "../../../shipping/service-names";

/** A booked shipment: its tracking, service, cost and book number, and its label to download or print. */
export function BookedShipment({
  orderNumber,
  shipmentId,
  booked,
  names,
}: {
  orderNumber: string;
  shipmentId: string;
  booked: NonNullable<ShipmentBooking["booked"]>;
  names: ServiceNames;
}) {
  const [error, setError] = useState<string | null>(null);
  const [documents, setDocuments] = useState<PrintChoice>("labels");
  const open = async (mode: "download" | "print") => {
    setError(null);
    setError(await openLabelFile(`/app/orders/${orderNumber}/label?shipment=${encodeURIComponent(shipmentId)}&documents=${documents}`, mode));
  };
  return (
    <BlockStack gap="200">
      <TrackingNumbers numbers={booked.trackingNumbers} testId="shipment-tracking" />
      <Text as="p">
        {[
          booked.carrierCode && booked.serviceCode ? carrierAndService(names, { carrierCode: booked.carrierCode, serviceCode: booked.serviceCode }) : null,
          booked.shippingCost && booked.currency ? formatMoney(booked.shippingCost, booked.currency) : null,
          `book number ${booked.bookNumber}`,
        ]
          .filter((part) => part !== null)
          .join(" · ")}
      </Text>
      <InlineStack gap="200">
        <DocumentsSelect value={documents} onChange={setDocuments} names={PRINT_CHOICE_NAMES_ONE} />
        <Button variant="primary" onClick={() => void open("download")}>
          {`Download ${PRINT_CHOICE_NAMES_ONE[documents]}`}
        </Button>
        <Button onClick={() => void open("print")}>{`Print ${PRINT_CHOICE_NAMES_ONE[documents]}`}</Button>
      </InlineStack>
      {error && (
        <Text as="p" tone="critical">
          {error}
        </Text>
      )}
    </BlockStack>
  );
}
