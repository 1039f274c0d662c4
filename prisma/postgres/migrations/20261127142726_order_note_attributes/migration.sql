-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN     "customAttributes" TEXT,
ADD COLUMN     "note" TEXT;

