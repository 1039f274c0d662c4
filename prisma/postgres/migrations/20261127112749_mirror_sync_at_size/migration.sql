-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN     "orderUpdatedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "MirrorFulfillmentOrder" ADD COLUMN     "syncedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "MirrorSync" ADD COLUMN     "exportLines" INTEGER,
ADD COLUMN     "linesSaved" INTEGER NOT NULL DEFAULT 0;

