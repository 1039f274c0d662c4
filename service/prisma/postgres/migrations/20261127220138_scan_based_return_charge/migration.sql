-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "scanChargeCents" INTEGER;

