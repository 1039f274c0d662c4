-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN "shippingLine" TEXT;
