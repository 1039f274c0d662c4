-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN "orderUpdatedAt" DATETIME;

-- AlterTable
ALTER TABLE "MirrorFulfillmentOrder" ADD COLUMN "syncedAt" DATETIME;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_MirrorSync" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "bulkOperationId" TEXT,
    "status" TEXT NOT NULL,
    "ordersSeen" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "exportLines" INTEGER,
    "linesSaved" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_MirrorSync" ("bulkOperationId", "error", "finishedAt", "id", "ordersSeen", "shop", "startedAt", "status") SELECT "bulkOperationId", "error", "finishedAt", "id", "ordersSeen", "shop", "startedAt", "status" FROM "MirrorSync";
DROP TABLE "MirrorSync";
ALTER TABLE "new_MirrorSync" RENAME TO "MirrorSync";
CREATE INDEX "MirrorSync_shop_startedAt_idx" ON "MirrorSync"("shop", "startedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

