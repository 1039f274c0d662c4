-- A webhook id is unique per shop, not across shops: the row gets an id of its own and keeps the
-- X-Shopify-Webhook-Id beside its shop. Rows recorded before keep their id, which was the webhook id.
-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "webhookId" TEXT;
UPDATE "WebhookDelivery" SET "webhookId" = "id";
ALTER TABLE "WebhookDelivery" ALTER COLUMN "webhookId" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_shop_webhookId_key" ON "WebhookDelivery"("shop", "webhookId");
