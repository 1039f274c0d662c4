/**
 * Whether a shop's domain, as Shopify's library accepted it, can be a shop at all: the library checks the
 * `*.myshopify.com` shape but not DNS's lengths (a label is at most 63 characters, a name at most 253), so a
 * signed request naming a 300-character shop would otherwise be served as a shop no one can have.
 */
export function isPossibleShopDomain(shop: string): boolean {
  return shop.length <= 253 && shop.split(".").every((label) => label.length >= 1 && label.length <= 63);
}
