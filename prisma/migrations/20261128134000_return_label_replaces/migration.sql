-- AlterTable: a return label booked in place of a voided one updates its reverse delivery (docs/decisions/041)
ALTER TABLE "Shipment" ADD COLUMN "replacesId" TEXT;
