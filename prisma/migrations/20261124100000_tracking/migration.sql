-- CreateTable
CREATE TABLE "TrackingEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "shipmentId" TEXT NOT NULL,
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

-- Tracking sync on the shipment (added in place, so migrations that add other Shipment columns merge cleanly)
ALTER TABLE "Shipment" ADD COLUMN "trackingState" TEXT NOT NULL DEFAULT 'NONE';
ALTER TABLE "Shipment" ADD COLUMN "nextTrackAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "lastTrackedAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "carrierStatus" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "lastEventText" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "lastEventPlace" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "lastEventAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "shopifyStatus" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "shopifyStatusAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "inTransitAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "deliveredAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "trackingStopReason" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "attentionReason" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "attentionAction" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "trackingError" TEXT;

-- CreateIndex
CREATE INDEX "Shipment_trackingState_nextTrackAt_idx" ON "Shipment"("trackingState", "nextTrackAt");

-- CreateIndex
CREATE INDEX "Shipment_shop_trackingState_idx" ON "Shipment"("shop", "trackingState");

-- CreateIndex
CREATE INDEX "TrackingEvent_shipmentId_eventTime_idx" ON "TrackingEvent"("shipmentId", "eventTime");

-- CreateIndex
CREATE INDEX "TrackingEvent_shop_writeStatus_idx" ON "TrackingEvent"("shop", "writeStatus");

-- CreateIndex
CREATE UNIQUE INDEX "TrackingEvent_shipmentId_eventTime_carrierStatus_message_key" ON "TrackingEvent"("shipmentId", "eventTime", "carrierStatus", "message");

