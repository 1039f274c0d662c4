-- A shipment's events are found by the unique key's first column (shipmentId): the index by shipment and time cost
-- every insert of a tracking pass a fourth B-tree.
-- DropIndex
DROP INDEX "TrackingEvent_shipmentId_eventTime_idx";

