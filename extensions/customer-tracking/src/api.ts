import type { Api } from "@shopify/ui-extensions/customer-account.order-status.fulfillment-details.render-after";

/**
 * The API Shopify's customer accounts give this target (session token, i18n, the fulfillment's id). The package's
 * own declarations type the global `shopify` as checkout's, without the target's API, so it is read through this.
 */
export const api = (): Api => (globalThis as unknown as { shopify: Api }).shopify;
