-- CreateTable
CREATE TABLE "ShopProfile" (
    "shop" TEXT NOT NULL,
    "timeZone" TEXT NOT NULL,
    "readAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopProfile_pkey" PRIMARY KEY ("shop")
);

