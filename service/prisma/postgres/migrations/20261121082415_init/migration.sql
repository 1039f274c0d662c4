-- CreateTable
CREATE TABLE "Customer" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "profileCode" TEXT NOT NULL,
    "franchiseId" TEXT,
    "mailingAddress" TEXT NOT NULL,
    "billingAddress" TEXT NOT NULL,
    "minimumBalanceCents" INTEGER NOT NULL,
    "rechargeAmountCents" INTEGER NOT NULL,
    "balanceCents" INTEGER NOT NULL,
    "salesRep" TEXT,
    "industry" TEXT,
    "utm" TEXT,
    "monthlyVolume" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" SERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "balanceAfterCents" INTEGER NOT NULL,
    "reference" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProviderAccount" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "providerCode" TEXT NOT NULL,
    "sealedFields" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProviderAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuoteRequest" (
    "id" SERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "shipment" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "QuoteRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Quote" (
    "id" SERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "requestId" INTEGER NOT NULL,
    "batchId" INTEGER,
    "batchSeq" INTEGER,
    "carrierCode" TEXT NOT NULL,
    "serviceCode" TEXT NOT NULL,
    "packageTypeCode" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "totalCents" INTEGER NOT NULL,
    "detail" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "bookingError" TEXT,
    "bookNumber" TEXT,
    "trackingNumber" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Quote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Batch" (
    "id" SERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "quoteCount" INTEGER NOT NULL,
    "bookedCount" INTEGER NOT NULL,
    "errorCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "Batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" SERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "bookNumber" TEXT NOT NULL,
    "trackingNumber" TEXT NOT NULL,
    "quoteId" INTEGER,
    "batchId" INTEGER,
    "carrierCode" TEXT NOT NULL,
    "serviceCode" TEXT NOT NULL,
    "transitDays" INTEGER NOT NULL,
    "bookedAt" TIMESTAMP(3) NOT NULL,
    "searchText" TEXT NOT NULL,
    "record" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "labelFormat" TEXT NOT NULL,

    CONSTRAINT "Shipment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Counter" (
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "Counter_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "Customer_email_key" ON "Customer"("email");

-- CreateIndex
CREATE INDEX "LedgerEntry_customerId_id_idx" ON "LedgerEntry"("customerId", "id");

-- CreateIndex
CREATE INDEX "ProviderAccount_customerId_idx" ON "ProviderAccount"("customerId");

-- CreateIndex
CREATE INDEX "Quote_customerId_idx" ON "Quote"("customerId");

-- CreateIndex
CREATE INDEX "Quote_batchId_idx" ON "Quote"("batchId");

-- CreateIndex
CREATE INDEX "Batch_customerId_id_idx" ON "Batch"("customerId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_bookNumber_key" ON "Shipment"("bookNumber");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_trackingNumber_key" ON "Shipment"("trackingNumber");

-- CreateIndex
CREATE INDEX "Shipment_customerId_id_idx" ON "Shipment"("customerId", "id");

-- CreateIndex
CREATE INDEX "Shipment_batchId_idx" ON "Shipment"("batchId");

