import type { Clock } from "../clock.js";
import { accessTokens } from "./access-tokens.js";
import { bulkOperationRows } from "./bulk-operation-rows.js";
import { StoreCore } from "./core.js";
import { fulfillmentRows } from "./fulfillments.js";
import { orderRows } from "./orders.js";
import { returnRows } from "./returns.js";
import { shopRows } from "./shop.js";
import { webhookDeliveries } from "./webhook-deliveries.js";

export type { StoreListener } from "./core.js";
export type { NewOrderInput, NewOrderLine } from "./orders.js";

const areas = [shopRows, orderRows, fulfillmentRows, returnRows, accessTokens, webhookDeliveries, bulkOperationRows] as const;

/**
 * The local admin's persistent store, one object for its callers (GraphQL views, mutations, webhooks, the shell,
 * seeding, tests): StoreCore (database, statements, clock, events and transactions) with the methods of each
 * area: shop.ts (shop, staff, locations, catalog), orders.ts, fulfillments.ts (fulfillment orders, fulfillments
 * and Shopify's rules for them), returns.ts (returns, reverse fulfillment orders and deliveries, customer emails), access-tokens.ts, webhook-deliveries.ts and bulk-operation-rows.ts.
 */
export interface Store extends StoreCore, ShopRows, OrderRows, FulfillmentRows, ReturnRows, AccessTokens, WebhookDeliveries, BulkOperationRows {}

type ShopRows = typeof shopRows;
type OrderRows = typeof orderRows;
type FulfillmentRows = typeof fulfillmentRows;
type ReturnRows = typeof returnRows;
type AccessTokens = typeof accessTokens;
type WebhookDeliveries = typeof webhookDeliveries;
type BulkOperationRows = typeof bulkOperationRows;

class AreaStore extends StoreCore {}
for (const area of areas) Object.assign(AreaStore.prototype, area);

/**
 * Opens (creating when missing) the store at `dbPath`, or `":memory:"`. The areas' methods are on the prototype;
 * TypeScript cannot see Object.assign's effect on a class, hence the cast to the `Store` interface.
 */
export const Store = AreaStore as unknown as new (dbPath: string, clock?: Clock) => Store;
