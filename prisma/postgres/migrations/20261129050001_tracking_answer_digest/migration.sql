-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "answerDigest" TEXT;

