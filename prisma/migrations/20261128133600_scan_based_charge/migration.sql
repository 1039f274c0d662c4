-- AlterTable: what a used scan-based return label was charged, read back by tracking (issue 24 §4, docs/decisions/041)
ALTER TABLE "Shipment" ADD COLUMN "chargedAt" DATETIME;
