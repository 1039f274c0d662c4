import { Banner, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useCallback, useState } from "react";
import { BookingStatusBadge } from "../../../batches/components/batch-status";
import type { ShipmentBooking } from "../../../booking/single-booking.server";
import { PackagesEditor } from "../../../quoting/components/packages-editor";
import { formatWeight } from "../../../quoting/rate-display";
import type { FieldErrors } from "../../../field-errors";
import type { ServiceNames } from "../../../shipping/service-names";
import { BookedShipment } from "./booked-shipment";
import { BookingForm, type Choices } from "./booking-form";

/** One shipment of the order: its packages (editable until booked), then its booking form, or what it was booked as, or why it cannot be. */
export function ShipmentCard({
  orderNumber,
  shipment,
  heading,
  fieldErrors,
  choices,
  boxes,
  names,
}: {
  orderNumber: string;
  shipment: ShipmentBooking;
  heading: string;
  fieldErrors: FieldErrors;
  choices: Choices;
  boxes: string[];
  names: ServiceNames;
}) {
  const [repacking, setRepacking] = useState(false);
  const closeEditor = useCallback(() => setRepacking(false), []);
  const bookable = !shipment.booked && !shipment.blocked;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {heading}
          </Text>
          <Text as="span" tone="subdued">
            to {shipment.destination}
          </Text>
          <BookingStatusBadge status={shipment.bookingStatus} />
        </InlineStack>
        {bookable && shipment.packages.length > 0 && (
          <InlineStack gap="200" blockAlign="center">
            <Text as="span">
              <span data-testid="booking-packages">
                {shipment.packages.map((entry) => `${entry.box}, ${formatWeight(entry.weight, shipment.weightUnit)}`).join(" + ")}
              </span>
            </Text>
            {!repacking && (
              <Button variant="plain" onClick={() => setRepacking(true)}>
                Change packages
              </Button>
            )}
          </InlineStack>
        )}
        {bookable && repacking && (
          <PackagesEditor
            shipment={{ id: shipment.shipmentId, packages: shipment.packages, weightUnit: shipment.weightUnit, packing: shipment.packing }}
            boxes={boxes}
            onDone={closeEditor}
          />
        )}
        {shipment.booked ? (
          <BookedShipment orderNumber={orderNumber} shipmentId={shipment.shipmentId} booked={shipment.booked} names={names} />
        ) : shipment.blocked ? (
          <Banner tone="info">
            <p data-testid="booking-blocked">{shipment.blocked}</p>
          </Banner>
        ) : (
          <BookingForm orderNumber={orderNumber} shipment={shipment} fieldErrors={fieldErrors} choices={choices} names={names} />
        )}
        {shipment.bookingError && shipment.bookingStatus === "FAILED" && (
          <Text as="p" tone="critical">
            Last attempt: {shipment.bookingError}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
