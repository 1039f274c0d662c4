import { z } from "zod";

/**
 * Shopify ids as the Admin GraphQL API writes them (`gid://shopify/Order/1001`). Webhook payloads, admin links
 * and compliance requests give the bare number instead; a value that is already a GID is kept as it is.
 */
export function shopifyGid(type: string, id: number | string): string {
  return typeof id === "number" || /^\d+$/.test(id) ? `gid://shopify/${type}/${id}` : id;
}

/** A payload field holding a number or a GID of `type`, read as the GID. */
export const ShopifyId = (type: string) => z.union([z.number().int(), z.string()]).transform((id) => shopifyGid(type, id));
