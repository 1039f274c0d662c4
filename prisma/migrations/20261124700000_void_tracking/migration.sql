-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN "voidCheckedAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "fulfillmentCancelledAt" DATETIME;

-- VOIDED now means a label voided at the provider; rows stored as VOIDED before were shipments with no book
-- number or fulfillment to follow, which have their own reason.
UPDATE "Shipment" SET "trackingStopReason" = 'NO_LABEL' WHERE "trackingStopReason" = 'VOIDED';
