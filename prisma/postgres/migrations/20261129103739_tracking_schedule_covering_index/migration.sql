-- A tracking pass's claim picks the first ids among the shop's due schedules: with the id in the index it reads
-- no row of the table to pick them (app/tracking/pass.server.ts).
-- DropIndex
DROP INDEX "TrackingSchedule_shop_nextTrackAt_idx";

-- CreateIndex
CREATE INDEX "TrackingSchedule_shop_nextTrackAt_id_idx" ON "TrackingSchedule"("shop", "nextTrackAt", "id");

