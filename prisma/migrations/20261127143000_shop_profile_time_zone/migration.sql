-- The shop's time zone as Shopify gives it (shop.ianaTimezone), kept with when it was read.
-- CreateTable
CREATE TABLE "ShopProfile" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "timeZone" TEXT NOT NULL,
    "readAt" DATETIME NOT NULL
);

