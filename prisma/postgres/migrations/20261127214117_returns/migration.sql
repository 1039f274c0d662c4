-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'OUTBOUND',
ADD COLUMN     "labelToken" TEXT,
ADD COLUMN     "labelTokenExpiresAt" TIMESTAMP(3),
ADD COLUMN     "returnId" TEXT,
ADD COLUMN     "scanBased" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ShopReturn" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "customerName" TEXT,
    "lines" TEXT NOT NULL,
    "customerAddress" TEXT,
    "customerNote" TEXT,
    "reverseFulfillmentOrderId" TEXT,
    "reverseLines" TEXT NOT NULL DEFAULT '[]',
    "returnCreatedAt" TIMESTAMP(3) NOT NULL,
    "requestApprovedAt" TIMESTAMP(3),
    "closedAt" TIMESTAMP(3),
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopReturn_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ShopReturn_shop_returnCreatedAt_idx" ON "ShopReturn"("shop", "returnCreatedAt");

-- CreateIndex
CREATE INDEX "ShopReturn_shop_status_idx" ON "ShopReturn"("shop", "status");

-- CreateIndex
CREATE INDEX "ShopReturn_shop_orderId_idx" ON "ShopReturn"("shop", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_labelToken_key" ON "Shipment"("labelToken");

-- CreateIndex
CREATE INDEX "Shipment_shop_returnId_idx" ON "Shipment"("shop", "returnId");

