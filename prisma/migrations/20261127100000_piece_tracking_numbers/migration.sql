-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN "trackingNumbers" TEXT;

-- RedefineTables: TrackingEvent gains the piece's tracking number, part of its unique key. Events stored before
-- came from Track Shipment answers that only followed the shipment's own number, so they take it.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TrackingEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "shipmentId" TEXT NOT NULL,
    "trackingNumber" TEXT NOT NULL,
    "eventTime" DATETIME NOT NULL,
    "carrierStatus" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "city" TEXT,
    "province" TEXT,
    "country" TEXT,
    "reason" TEXT,
    "action" TEXT,
    "shopifyStatus" TEXT NOT NULL,
    "writeStatus" TEXT NOT NULL,
    "shopifyEventId" TEXT,
    "writeError" TEXT,
    "seenAt" DATETIME NOT NULL,
    "writtenAt" DATETIME,
    CONSTRAINT "TrackingEvent_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_TrackingEvent" ("id", "shop", "shipmentId", "trackingNumber", "eventTime", "carrierStatus", "message", "city", "province", "country", "reason", "action", "shopifyStatus", "writeStatus", "shopifyEventId", "writeError", "seenAt", "writtenAt")
SELECT e."id", e."shop", e."shipmentId", COALESCE(s."trackingNumber", ''), e."eventTime", e."carrierStatus", e."message", e."city", e."province", e."country", e."reason", e."action", e."shopifyStatus", e."writeStatus", e."shopifyEventId", e."writeError", e."seenAt", e."writtenAt"
FROM "TrackingEvent" e LEFT JOIN "Shipment" s ON s."id" = e."shipmentId";
DROP TABLE "TrackingEvent";
ALTER TABLE "new_TrackingEvent" RENAME TO "TrackingEvent";
CREATE INDEX "TrackingEvent_shipmentId_eventTime_idx" ON "TrackingEvent"("shipmentId", "eventTime");
CREATE INDEX "TrackingEvent_shop_writeStatus_idx" ON "TrackingEvent"("shop", "writeStatus");
CREATE UNIQUE INDEX "TrackingEvent_shipmentId_trackingNumber_eventTime_carrierStatus_message_key" ON "TrackingEvent"("shipmentId", "trackingNumber", "eventTime", "carrierStatus", "message");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
