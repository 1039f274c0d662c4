-- DropIndex
DROP INDEX "Shipment_trackingState_nextTrackAt_idx";

-- DropIndex
DROP INDEX "Shipment_shop_trackingState_idx";

-- CreateIndex
CREATE INDEX "Shipment_shop_trackingState_nextTrackAt_idx" ON "Shipment"("shop", "trackingState", "nextTrackAt");

