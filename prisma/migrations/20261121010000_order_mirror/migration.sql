-- CreateTable
CREATE TABLE "MirrorOrder" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "orderCreatedAt" DATETIME NOT NULL,
    "cancelledAt" DATETIME,
    "email" TEXT,
    "currencyCode" TEXT NOT NULL,
    "tags" TEXT NOT NULL DEFAULT '[]',
    "displayFulfillmentStatus" TEXT NOT NULL,
    "destinationCountry" TEXT,
    "shippingAddress" TEXT,
    "syncedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "MirrorFulfillmentOrder" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestStatus" TEXT NOT NULL,
    "deliveryMethod" TEXT,
    "assignedLocationId" TEXT,
    "assignedToFulfillmentService" BOOLEAN NOT NULL DEFAULT false,
    "supportedActions" TEXT NOT NULL DEFAULT '[]',
    "holds" TEXT NOT NULL DEFAULT '[]',
    "lines" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "MirrorFulfillmentOrder_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "MirrorOrder" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MirrorSync" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "bulkOperationId" TEXT,
    "status" TEXT NOT NULL,
    "ordersSeen" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "MirrorOrder_shop_orderCreatedAt_idx" ON "MirrorOrder"("shop", "orderCreatedAt");

-- CreateIndex
CREATE INDEX "MirrorOrder_shop_name_idx" ON "MirrorOrder"("shop", "name");

-- CreateIndex
CREATE INDEX "MirrorFulfillmentOrder_orderId_idx" ON "MirrorFulfillmentOrder"("orderId");

-- CreateIndex
CREATE INDEX "MirrorFulfillmentOrder_shop_idx" ON "MirrorFulfillmentOrder"("shop");

-- CreateIndex
CREATE INDEX "MirrorSync_shop_startedAt_idx" ON "MirrorSync"("shop", "startedAt");

