-- CreateTable
CREATE TABLE "OrderCustoms" (
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "lines" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "orderId")
);
