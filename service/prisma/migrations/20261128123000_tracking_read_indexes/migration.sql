-- Every tracking read charges the customer's scanned return labels first: found by index, not by reading all their
-- labels; and a label's charge or refund is found by its book number, not by reading the customer's whole ledger.
CREATE INDEX "Shipment_customerId_scanChargeCents_idx" ON "Shipment"("customerId", "scanChargeCents");
CREATE INDEX "LedgerEntry_customerId_reference_idx" ON "LedgerEntry"("customerId", "reference");
