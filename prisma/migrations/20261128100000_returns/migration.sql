-- CreateTable
CREATE TABLE "ShopReturn" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "returnCreatedAt" DATETIME NOT NULL,
    "requestApprovedAt" DATETIME,
    "closedAt" DATETIME,
    "readAt" DATETIME NOT NULL
);

-- AlterTable: a return label is a Shipment of kind RETURN (docs/decisions/041)
ALTER TABLE "Shipment" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'OUTBOUND';
ALTER TABLE "Shipment" ADD COLUMN "returnId" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "labelToken" TEXT;
ALTER TABLE "Shipment" ADD COLUMN "labelTokenExpiresAt" DATETIME;
ALTER TABLE "Shipment" ADD COLUMN "scanBased" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_labelToken_key" ON "Shipment"("labelToken");

-- CreateIndex
CREATE INDEX "Shipment_shop_returnId_idx" ON "Shipment"("shop", "returnId");

-- CreateIndex
CREATE INDEX "ShopReturn_shop_returnCreatedAt_idx" ON "ShopReturn"("shop", "returnCreatedAt");

-- CreateIndex
CREATE INDEX "ShopReturn_shop_status_idx" ON "ShopReturn"("shop", "status");

-- CreateIndex
CREATE INDEX "ShopReturn_shop_orderId_idx" ON "ShopReturn"("shop", "orderId");

