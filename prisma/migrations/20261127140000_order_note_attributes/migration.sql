-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN "note" TEXT;
ALTER TABLE "MirrorOrder" ADD COLUMN "customAttributes" TEXT;
