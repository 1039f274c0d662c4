-- AlterTable
ALTER TABLE "Shipment" ADD COLUMN     "signalsDueAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "OrderSignal" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "shipmentId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "occurrence" TEXT NOT NULL DEFAULT '',
    "payload" TEXT NOT NULL,
    "tagStatus" TEXT NOT NULL,
    "tagError" TEXT,
    "flowStatus" TEXT NOT NULL,
    "flowError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" TIMESTAMP(3),

    CONSTRAINT "OrderSignal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlowActionRun" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "shipmentIds" TEXT,
    "answer" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowActionRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OrderSignal_shop_doneAt_createdAt_idx" ON "OrderSignal"("shop", "doneAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderSignal_shipmentId_kind_occurrence_key" ON "OrderSignal"("shipmentId", "kind", "occurrence");

-- CreateIndex
CREATE INDEX "FlowActionRun_shop_orderId_idx" ON "FlowActionRun"("shop", "orderId");

-- CreateIndex
CREATE INDEX "Shipment_shop_signalsDueAt_idx" ON "Shipment"("shop", "signalsDueAt");

