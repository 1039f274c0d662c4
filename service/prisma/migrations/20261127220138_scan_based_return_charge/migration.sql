-- A scan-based return label is charged when first scanned, not when booked (service/README.md).
ALTER TABLE "Shipment" ADD COLUMN "scanChargeCents" INTEGER;
