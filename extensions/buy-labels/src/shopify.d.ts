import type { Api } from "@shopify/ui-extensions/admin.order-index.selection-action.render";

// The extension API Shopify's admin gives these targets, as `shopify app generate extension` declares it (the
// order page's action, admin.order-details.action.render, has the same: data.selected, close, auth, navigation).
declare global {
  const shopify: Api;
}
