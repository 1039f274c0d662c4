-- DropIndex
DROP INDEX "MirrorFulfillmentOrder_orderId_idx";

-- DropIndex
DROP INDEX "Shipment_inBoxOf_idx";

-- DropIndex
DROP INDEX "Shipment_boxReturn_idx";

-- DropIndex
DROP INDEX "Shipment_fulfillmentOrderId_idx";

-- DropIndex
DROP INDEX "Shipment_runId_idx";

-- DropIndex
DROP INDEX "Shipment_batchId_idx";

-- DropIndex
DROP INDEX "Quote_shipmentId_idx";

-- CreateIndex
CREATE INDEX "MirrorFulfillmentOrder_orderId_shop_idx" ON "MirrorFulfillmentOrder"("orderId", "shop");

-- CreateIndex
CREATE INDEX "Shipment_inBoxOf_shop_idx" ON "Shipment"("inBoxOf", "shop");

-- CreateIndex
CREATE INDEX "Shipment_boxReturn_shop_idx" ON "Shipment"("boxReturn", "shop");

-- CreateIndex
CREATE INDEX "Shipment_fulfillmentOrderId_shop_idx" ON "Shipment"("fulfillmentOrderId", "shop");

-- CreateIndex
CREATE INDEX "Shipment_runId_shop_idx" ON "Shipment"("runId", "shop");

-- CreateIndex
CREATE INDEX "Shipment_batchId_shop_idx" ON "Shipment"("batchId", "shop");

-- CreateIndex
CREATE INDEX "Quote_shipmentId_shop_idx" ON "Quote"("shipmentId", "shop");

