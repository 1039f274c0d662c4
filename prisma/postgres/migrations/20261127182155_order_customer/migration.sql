-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN     "customerId" TEXT;

-- CreateIndex
CREATE INDEX "Shipment_shop_fulfillmentId_idx" ON "Shipment"("shop", "fulfillmentId");

