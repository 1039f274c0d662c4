-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN "packages" TEXT;
