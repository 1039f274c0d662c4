-- Shipping rules with conditions, product presets (issue 25), and the note saying how a shipment was packed.
ALTER TABLE "Shipment" ADD COLUMN "packingNote" TEXT;

-- CreateTable
CREATE TABLE "ShippingRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ProductPreset" (
    "shop" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "targetId")
);

-- CreateIndex
CREATE INDEX "ShippingRule_shop_position_idx" ON "ShippingRule"("shop", "position");
