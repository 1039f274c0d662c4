import type { Api } from "@shopify/ui-extensions/admin.order-details.block.render";

// The extension API Shopify's admin gives this target, as `shopify app generate extension` declares it.
declare global {
  const shopify: Api;
}
