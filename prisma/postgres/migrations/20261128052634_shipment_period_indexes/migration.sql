-- DropIndex
DROP INDEX "Shipment_shop_bookingStatus_idx";

-- CreateIndex
CREATE INDEX "Shipment_shop_bookingStatus_bookedAt_idx" ON "Shipment"("shop", "bookingStatus", "bookedAt");

-- CreateIndex
CREATE INDEX "Shipment_shop_deliveredAt_idx" ON "Shipment"("shop", "deliveredAt");

