-- The shop's summary (name, currency, weight unit, origin) kept with its time zone, read again once a day.
ALTER TABLE "ShopProfile" ADD COLUMN "summary" TEXT;
