import type { Api } from "@shopify/ui-extensions/admin.order-index.selection-print-action.render";

// The extension API Shopify's admin gives the print action targets (order page and order list selection alike).
declare global {
  const shopify: Api;
}
