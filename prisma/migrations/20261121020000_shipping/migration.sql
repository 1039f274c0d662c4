-- CreateTable
CREATE TABLE "ShippingAccount" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "customerId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "sealedPassword" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "connectedAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "data" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "QuoteRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "orderIds" TEXT NOT NULL,
    "shipmentsTotal" INTEGER NOT NULL DEFAULT 0,
    "shipmentsDone" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "BlockedOrder" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "issues" TEXT NOT NULL,
    CONSTRAINT "BlockedOrder_runId_fkey" FOREIGN KEY ("runId") REFERENCES "QuoteRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "runId" TEXT,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderId" TEXT NOT NULL,
    "lines" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "quoteStatus" TEXT NOT NULL DEFAULT 'PENDING',
    "quoteError" TEXT,
    "quotedAt" DATETIME,
    "selectedQuoteId" INTEGER,
    "selectionReason" TEXT,
    "selectedBy" TEXT,
    "batchId" TEXT,
    "bookingStatus" TEXT NOT NULL DEFAULT 'NONE',
    "bookingError" TEXT,
    "bookNumber" TEXT,
    "trackingNumber" TEXT,
    "carrierCode" TEXT,
    "serviceCode" TEXT,
    "shippingCost" TEXT,
    "currency" TEXT,
    "zone" TEXT,
    "bookedAt" DATETIME,
    "fulfillmentStatus" TEXT NOT NULL DEFAULT 'NONE',
    "fulfillmentId" TEXT,
    "fulfillmentError" TEXT,
    "fulfilledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Shipment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "QuoteRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Shipment_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Quote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "quoteId" INTEGER NOT NULL,
    "shipmentId" TEXT NOT NULL,
    "carrierCode" TEXT NOT NULL,
    "serviceCode" TEXT NOT NULL,
    "serviceDescription" TEXT NOT NULL,
    "packageTypeCode" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "totalAmount" TEXT NOT NULL,
    "baseAmount" TEXT NOT NULL,
    "surcharges" TEXT NOT NULL,
    "zone" TEXT NOT NULL,
    "quotedWeight" TEXT NOT NULL,
    "quotedWeightType" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "Quote_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "remoteBatchId" INTEGER,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "prepayBalance" TEXT,
    "bookedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "QuoteRun_shop_startedAt_idx" ON "QuoteRun"("shop", "startedAt");

-- CreateIndex
CREATE INDEX "BlockedOrder_runId_idx" ON "BlockedOrder"("runId");

-- CreateIndex
CREATE INDEX "Shipment_shop_orderId_idx" ON "Shipment"("shop", "orderId");

-- CreateIndex
CREATE INDEX "Shipment_fulfillmentOrderId_idx" ON "Shipment"("fulfillmentOrderId");

-- CreateIndex
CREATE INDEX "Shipment_runId_idx" ON "Shipment"("runId");

-- CreateIndex
CREATE INDEX "Shipment_batchId_idx" ON "Shipment"("batchId");

-- CreateIndex
CREATE INDEX "Shipment_shop_bookingStatus_idx" ON "Shipment"("shop", "bookingStatus");

-- CreateIndex
CREATE INDEX "Shipment_shop_fulfillmentStatus_idx" ON "Shipment"("shop", "fulfillmentStatus");

-- CreateIndex
CREATE INDEX "Quote_shipmentId_idx" ON "Quote"("shipmentId");

-- CreateIndex
CREATE UNIQUE INDEX "Quote_shop_quoteId_key" ON "Quote"("shop", "quoteId");

-- CreateIndex
CREATE INDEX "Batch_shop_createdAt_idx" ON "Batch"("shop", "createdAt");

