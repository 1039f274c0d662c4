-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN "orderUpdatedAt" DATETIME;

-- AlterTable
ALTER TABLE "MirrorFulfillmentOrder" ADD COLUMN "syncedAt" DATETIME;

-- AlterTable
ALTER TABLE "MirrorSync" ADD COLUMN "exportLines" INTEGER;
ALTER TABLE "MirrorSync" ADD COLUMN "linesSaved" INTEGER NOT NULL DEFAULT 0;
