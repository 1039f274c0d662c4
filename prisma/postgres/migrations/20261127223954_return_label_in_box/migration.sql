-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "boxReturn" TEXT,
ADD COLUMN     "boxReturnNote" TEXT,
ADD COLUMN     "inBoxOf" TEXT;

-- CreateIndex
CREATE INDEX "Shipment_inBoxOf_idx" ON "Shipment"("inBoxOf");

-- CreateIndex
CREATE INDEX "Shipment_boxReturn_idx" ON "Shipment"("boxReturn");

