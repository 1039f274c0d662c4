-- AlterTable: a return label in the box (issue 24 §5, docs/decisions/044)
ALTER TABLE "Shipment" ADD COLUMN "inBoxOf" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "boxReturn" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "boxReturnNote" TEXT;

-- CreateIndex
CREATE INDEX "Shipment_inBoxOf_idx" ON "Shipment"("inBoxOf");

-- CreateIndex
CREATE INDEX "Shipment_boxReturn_idx" ON "Shipment"("boxReturn");
