-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN "fulfillmentAttempts" INTEGER NOT NULL DEFAULT 0;
