-- DropIndex
DROP INDEX "TrackingEvent_shipmentId_eventTime_carrierStatus_message_key";

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "trackingNumbers" TEXT;

-- AlterTable: TrackingEvent gains the piece's tracking number, part of its unique key. Events stored before came
-- from Track Shipment answers that only followed the shipment's own number, so they take it.
ALTER TABLE "TrackingEvent" ADD COLUMN     "trackingNumber" TEXT;
UPDATE "TrackingEvent" e SET "trackingNumber" = COALESCE((SELECT s."trackingNumber" FROM "Shipment" s WHERE s."id" = e."shipmentId"), '');
ALTER TABLE "TrackingEvent" ALTER COLUMN "trackingNumber" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "TrackingEvent_shipmentId_trackingNumber_eventTime_carrierSt_key" ON "TrackingEvent"("shipmentId", "trackingNumber", "eventTime", "carrierStatus", "message");
