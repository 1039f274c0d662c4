-- When a followed shipment is next polled moves out of its wide row into a narrow one (docs/decisions/055): a tracking
-- pass claims and reschedules every followed shipment, and each claim of a shipment row wrote a new version of the
-- whole row (its request, lines and rates) and, the due time being indexed, an entry in each of its indexes. Every
-- shipment ever followed gets its row, due only while it is followed.

-- CreateTable
CREATE TABLE "TrackingSchedule" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "nextTrackAt" TIMESTAMP(3),
    "lastTrackedAt" TIMESTAMP(3),
    "answerDigest" TEXT,

    CONSTRAINT "TrackingSchedule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TrackingSchedule_shop_nextTrackAt_idx" ON "TrackingSchedule"("shop", "nextTrackAt");

-- AddForeignKey
ALTER TABLE "TrackingSchedule" ADD CONSTRAINT "TrackingSchedule_id_fkey" FOREIGN KEY ("id") REFERENCES "Shipment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The schedules of the shipments there are
INSERT INTO "TrackingSchedule" ("id", "shop", "nextTrackAt", "lastTrackedAt", "answerDigest")
SELECT "id", "shop", CASE WHEN "trackingState" = 'ACTIVE' THEN "nextTrackAt" END, "lastTrackedAt", "answerDigest"
FROM "Shipment"
WHERE "trackingState" <> 'NONE' OR "nextTrackAt" IS NOT NULL OR "lastTrackedAt" IS NOT NULL;

-- DropIndex
DROP INDEX "Shipment_shop_trackingState_nextTrackAt_idx";

-- CreateIndex
CREATE INDEX "Shipment_shop_trackingState_idx" ON "Shipment"("shop", "trackingState");

-- AlterTable
ALTER TABLE "Shipment" DROP COLUMN "answerDigest",
DROP COLUMN "lastTrackedAt",
DROP COLUMN "nextTrackAt";
