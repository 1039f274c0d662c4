import { z } from "zod";

/**
 * Shopify ids as the Admin GraphQL API writes them (`gid://shopify/Order/1001`). Webhook payloads, admin links
 * and compliance requests give the bare number instead; a value that is already a GID is kept as it is.
 */
export function shopifyGid(type: string, id: number | string): string {
  return typeof id === "number" || /^\d+$/.test(id) ? `gid://shopify/${type}/${id}` : id;
}

/** The numeric part of an order GID, as used in admin and app URLs. */
export function orderNumber(orderId: string): string {
  return orderId.slice(orderId.lastIndexOf("/") + 1);
}

/**
 * A payload field holding a Shopify id of `type`, read as the GID: a positive integer, its digits, or a GID of
 * that type. Anything else (a negative number, another type's GID, free text) is refused where it is parsed,
 * instead of reaching the Admin API as an id it cannot resolve.
 */
export const ShopifyId = (type: string) =>
  z
    .union(
      [
        z.number().int().positive(),
        z.string().regex(new RegExp(`^(\\d+|gid://shopify/${type}/\\d+)$`), `must be a ${type} id (digits or gid://shopify/${type}/…)`),
      ],
      { error: `must be a ${type} id` },
    )
    .transform((id) => shopifyGid(type, id));
