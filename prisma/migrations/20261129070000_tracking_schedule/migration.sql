-- When a followed shipment is next polled moves out of its wide row into a narrow one (docs/decisions/055): a tracking
-- pass claims and reschedules every followed shipment, and a claim that rewrote a whole shipment row (its request,
-- lines and rates) wrote a page of the file for each shipment. Every shipment ever followed gets its row, due only
-- while it is followed.
CREATE TABLE "TrackingSchedule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "nextTrackAt" DATETIME,
    "lastTrackedAt" DATETIME,
    "answerDigest" TEXT,
    CONSTRAINT "TrackingSchedule_id_fkey" FOREIGN KEY ("id") REFERENCES "Shipment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "TrackingSchedule_shop_nextTrackAt_idx" ON "TrackingSchedule"("shop", "nextTrackAt");

INSERT INTO "TrackingSchedule" ("id", "shop", "nextTrackAt", "lastTrackedAt", "answerDigest")
SELECT "id", "shop", CASE WHEN "trackingState" = 'ACTIVE' THEN "nextTrackAt" END, "lastTrackedAt", "answerDigest"
FROM "Shipment"
WHERE "trackingState" <> 'NONE' OR "nextTrackAt" IS NOT NULL OR "lastTrackedAt" IS NOT NULL;

DROP INDEX "Shipment_shop_trackingState_nextTrackAt_idx";
CREATE INDEX "Shipment_shop_trackingState_idx" ON "Shipment"("shop", "trackingState");
ALTER TABLE "Shipment" DROP COLUMN "nextTrackAt";
ALTER TABLE "Shipment" DROP COLUMN "lastTrackedAt";
ALTER TABLE "Shipment" DROP COLUMN "answerDigest";
