-- The Overview reads a period's booked and delivered labels (issue 30: 50,000 tracked shipments): by index, not by
-- reading every booked shipment of the shop. The new index starts with the one it replaces.
DROP INDEX "Shipment_shop_bookingStatus_idx";
CREATE INDEX "Shipment_shop_bookingStatus_bookedAt_idx" ON "Shipment"("shop", "bookingStatus", "bookedAt");
CREATE INDEX "Shipment_shop_deliveredAt_idx" ON "Shipment"("shop", "deliveredAt");
