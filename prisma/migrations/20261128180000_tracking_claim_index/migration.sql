-- A tracking pass claims a shop's due shipments, oldest due first (app/tracking/pass.server.ts). Through the
-- (trackingState, nextTrackAt) index SQLite read every shop's due shipments for each claim, and sorted them: at
-- 50,000 shipments across ten shops, a hundred claims of 500 read 50,000 rows each. The shop's own index takes the
-- due time third, so a claim reads its 500 rows in order; the shop and state alone still use it, and the minute's
-- schedule (the shops with any shipment due) reads it alone, without the table. The (trackingState, nextTrackAt)
-- index served nothing else, and every reschedule of a pass wrote it.
DROP INDEX "Shipment_shop_trackingState_idx";
DROP INDEX "Shipment_trackingState_nextTrackAt_idx";
CREATE INDEX "Shipment_shop_trackingState_nextTrackAt_idx" ON "Shipment"("shop", "trackingState", "nextTrackAt");
