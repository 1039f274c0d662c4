-- The prepay balance last reported by the Shipping API, and the prepay settings of accounts Consign created.
ALTER TABLE "ShippingAccount" ADD COLUMN "prepayBalance" TEXT;
ALTER TABLE "ShippingAccount" ADD COLUMN "prepayBalanceAt" DATETIME;
ALTER TABLE "ShippingAccount" ADD COLUMN "prepayMinimum" TEXT;
ALTER TABLE "ShippingAccount" ADD COLUMN "prepayRecharge" TEXT;
