-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "fulfillmentCancelledAt" TIMESTAMP(3),
ADD COLUMN     "voidCheckedAt" TIMESTAMP(3);

-- VOIDED now means a label voided at the provider; rows stored as VOIDED before were shipments with no book
-- number or fulfillment to follow, which have their own reason.
UPDATE "Shipment" SET "trackingStopReason" = 'NO_LABEL' WHERE "trackingStopReason" = 'VOIDED';
