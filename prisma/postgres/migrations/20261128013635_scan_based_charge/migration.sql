-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "chargedAt" TIMESTAMP(3);

