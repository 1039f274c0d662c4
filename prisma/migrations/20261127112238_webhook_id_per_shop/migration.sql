-- A webhook id is unique per shop, not across shops: the row gets an id of its own and keeps the
-- X-Shopify-Webhook-Id beside its shop. Rows recorded before keep their id, which was the webhook id.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "processedAt" DATETIME
);
INSERT INTO "new_WebhookDelivery" ("id", "shop", "webhookId", "topic", "payload", "receivedAt", "processedAt")
SELECT "id", "shop", "id", "topic", "payload", "receivedAt", "processedAt" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_processedAt_idx" ON "WebhookDelivery"("processedAt");
CREATE UNIQUE INDEX "WebhookDelivery_shop_webhookId_key" ON "WebhookDelivery"("shop", "webhookId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
