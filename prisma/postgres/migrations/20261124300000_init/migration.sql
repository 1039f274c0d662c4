-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" TIMESTAMP(3),
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MirrorOrder" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "orderCreatedAt" TIMESTAMP(3) NOT NULL,
    "cancelledAt" TIMESTAMP(3),
    "email" TEXT,
    "currencyCode" TEXT NOT NULL,
    "tags" TEXT NOT NULL DEFAULT '[]',
    "displayFulfillmentStatus" TEXT NOT NULL,
    "destinationCountry" TEXT,
    "shippingAddress" TEXT,
    "syncedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MirrorOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MirrorFulfillmentOrder" (
    "id" TEXT NOT NULL,
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

    CONSTRAINT "MirrorFulfillmentOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MirrorSync" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "bulkOperationId" TEXT,
    "status" TEXT NOT NULL,
    "ordersSeen" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "MirrorSync_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShippingAccount" (
    "shop" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "sealedPassword" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "connectedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "prepayBalance" TEXT,
    "prepayBalanceAt" TIMESTAMP(3),
    "prepayMinimum" TEXT,
    "prepayRecharge" TEXT,

    CONSTRAINT "ShippingAccount_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "QuoteRun" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "orderIds" TEXT NOT NULL,
    "shipmentsTotal" INTEGER NOT NULL DEFAULT 0,
    "shipmentsDone" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "QuoteRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BlockedOrder" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "issues" TEXT NOT NULL,

    CONSTRAINT "BlockedOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "runId" TEXT,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "fulfillmentOrderId" TEXT NOT NULL,
    "lines" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "quoteStatus" TEXT NOT NULL DEFAULT 'PENDING',
    "quoteError" TEXT,
    "quotedAt" TIMESTAMP(3),
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
    "bookedAt" TIMESTAMP(3),
    "fulfillmentStatus" TEXT NOT NULL DEFAULT 'NONE',
    "fulfillmentAttempts" INTEGER NOT NULL DEFAULT 0,
    "fulfillmentId" TEXT,
    "fulfillmentError" TEXT,
    "fulfilledAt" TIMESTAMP(3),
    "trackingState" TEXT NOT NULL DEFAULT 'NONE',
    "nextTrackAt" TIMESTAMP(3),
    "lastTrackedAt" TIMESTAMP(3),
    "carrierStatus" TEXT,
    "lastEventText" TEXT,
    "lastEventPlace" TEXT,
    "lastEventAt" TIMESTAMP(3),
    "shopifyStatus" TEXT,
    "shopifyStatusAt" TIMESTAMP(3),
    "inTransitAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "trackingStopReason" TEXT,
    "attentionReason" TEXT,
    "attentionAction" TEXT,
    "trackingError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Shipment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TrackingEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "shipmentId" TEXT NOT NULL,
    "eventTime" TIMESTAMP(3) NOT NULL,
    "carrierStatus" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "city" TEXT,
    "province" TEXT,
    "country" TEXT,
    "reason" TEXT,
    "action" TEXT,
    "shopifyStatus" TEXT NOT NULL,
    "writeStatus" TEXT NOT NULL,
    "shopifyEventId" TEXT,
    "writeError" TEXT,
    "seenAt" TIMESTAMP(3) NOT NULL,
    "writtenAt" TIMESTAMP(3),

    CONSTRAINT "TrackingEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Quote" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Quote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "remoteBatchId" INTEGER,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "prepayBalance" TEXT,
    "bookedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Batch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

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
CREATE INDEX "Shipment_trackingState_nextTrackAt_idx" ON "Shipment"("trackingState", "nextTrackAt");

-- CreateIndex
CREATE INDEX "Shipment_shop_trackingState_idx" ON "Shipment"("shop", "trackingState");

-- CreateIndex
CREATE INDEX "TrackingEvent_shipmentId_eventTime_idx" ON "TrackingEvent"("shipmentId", "eventTime");

-- CreateIndex
CREATE INDEX "TrackingEvent_shop_writeStatus_idx" ON "TrackingEvent"("shop", "writeStatus");

-- CreateIndex
CREATE UNIQUE INDEX "TrackingEvent_shipmentId_eventTime_carrierStatus_message_key" ON "TrackingEvent"("shipmentId", "eventTime", "carrierStatus", "message");

-- CreateIndex
CREATE INDEX "Quote_shipmentId_idx" ON "Quote"("shipmentId");

-- CreateIndex
CREATE UNIQUE INDEX "Quote_shop_quoteId_key" ON "Quote"("shop", "quoteId");

-- CreateIndex
CREATE INDEX "Batch_shop_createdAt_idx" ON "Batch"("shop", "createdAt");

-- AddForeignKey
ALTER TABLE "MirrorFulfillmentOrder" ADD CONSTRAINT "MirrorFulfillmentOrder_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "MirrorOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BlockedOrder" ADD CONSTRAINT "BlockedOrder_runId_fkey" FOREIGN KEY ("runId") REFERENCES "QuoteRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Shipment" ADD CONSTRAINT "Shipment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "QuoteRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Shipment" ADD CONSTRAINT "Shipment_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "Batch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TrackingEvent" ADD CONSTRAINT "TrackingEvent_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Quote" ADD CONSTRAINT "Quote_shipmentId_fkey" FOREIGN KEY ("shipmentId") REFERENCES "Shipment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

