-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "replacesId" TEXT;

