-- A shipment's row is rewritten at every quote, pick, booking and tracking pass. Half of each page is left free, so
-- PostgreSQL can put a row's new version beside the old one when no indexed column changes (a heap-only update):
-- storing a quote run's rates then adds nothing to the table's fifteen indexes (docs/decisions/050). Pages written
-- from now on are filled to half; existing ones as they are rewritten.
ALTER TABLE "Shipment" SET (fillfactor = 50);
