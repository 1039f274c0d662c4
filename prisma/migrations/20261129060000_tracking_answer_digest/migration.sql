-- A digest of the carrier's answer of a shipment's last settled poll (app/tracking/pass.server.ts): a poll that gets
-- the same answer, with nothing left to write, reschedules the shipment without reading its events.
ALTER TABLE "Shipment" ADD COLUMN "answerDigest" TEXT;
