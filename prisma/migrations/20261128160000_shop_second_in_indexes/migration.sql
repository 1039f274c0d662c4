-- SQLite, without statistics, took any index that starts with "shop" for a query on a column and the shop (a run's
-- shipments, a batch's, the quotes of some shipments), and read every row of the shop through it: a run's 3,850
-- shipments were read in 120-155 ms among 53,850, the quotes of re-quoted shipments found among all the shop's. Each
-- column's own index now takes the shop second, so both equalities use it (and the column alone still does).
DROP INDEX "Shipment_runId_idx";
CREATE INDEX "Shipment_runId_shop_idx" ON "Shipment"("runId", "shop");
DROP INDEX "Shipment_batchId_idx";
CREATE INDEX "Shipment_batchId_shop_idx" ON "Shipment"("batchId", "shop");
DROP INDEX "Shipment_fulfillmentOrderId_idx";
CREATE INDEX "Shipment_fulfillmentOrderId_shop_idx" ON "Shipment"("fulfillmentOrderId", "shop");
DROP INDEX "Shipment_inBoxOf_idx";
CREATE INDEX "Shipment_inBoxOf_shop_idx" ON "Shipment"("inBoxOf", "shop");
DROP INDEX "Shipment_boxReturn_idx";
CREATE INDEX "Shipment_boxReturn_shop_idx" ON "Shipment"("boxReturn", "shop");
DROP INDEX "Quote_shipmentId_idx";
CREATE INDEX "Quote_shipmentId_shop_idx" ON "Quote"("shipmentId", "shop");
DROP INDEX "MirrorFulfillmentOrder_orderId_idx";
CREATE INDEX "MirrorFulfillmentOrder_orderId_shop_idx" ON "MirrorFulfillmentOrder"("orderId", "shop");
