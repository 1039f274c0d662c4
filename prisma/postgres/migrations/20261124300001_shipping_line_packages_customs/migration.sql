-- AlterTable
ALTER TABLE "MirrorOrder" ADD COLUMN     "shippingLine" TEXT;

-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "packages" TEXT;

-- CreateTable
CREATE TABLE "OrderCustoms" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "lines" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderCustoms_pkey" PRIMARY KEY ("shop","orderId")
);

