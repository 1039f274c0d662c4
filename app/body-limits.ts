/**
 * What each address of the app reads of a request body, at most (docs/decisions/020). The app's server
 * (server/edge.ts) refuses a declared length over it with 413 before the request reaches Remix, and the
 * routes' readers (app/request-body.server.ts) count a body sent without one while it streams.
 */

const MiB = 1024 * 1024;

/**
 * The largest webhook body a route reads: 8 MiB. The largest delivery is an order topic (orders/updated
 * carries the whole order) for the largest order the app is built to handle, 500 lines: a line of the REST
 * payload with its price sets, tax lines and discount allocations is about 3 KB, and a line can appear three
 * times (the order's `line_items`, a fulfillment's, a refund's), so about 4.5 MB; with the addresses,
 * shipping lines and the rest, well under 8 MiB.
 */
export const WEBHOOK_BODY_LIMIT = 8 * MiB;

/**
 * The largest form or JSON body a page posts: 1 MiB. The largest form is a new batch of 5,000 orders (its
 * most), each a shipment id of at most 64 characters: about 400 KB url-encoded and 750 KB as multipart.
 */
export const FORM_BODY_LIMIT = 1 * MiB;

/** The login form (a shop domain): 16 KiB. */
export const LOGIN_BODY_LIMIT = 16 * 1024;

/**
 * The admin extensions' routes (`/api/`: the order-details block's data, the print actions' documents): 16 KiB.
 * They are read with GET; a body sent to them is only read to be refused (405), so the connection stays usable.
 */
export const EXTENSION_BODY_LIMIT = 16 * 1024;

/**
 * Shopify Flow's requests (`/flow/`): an action run's ids and the order's reference, or a trigger lifecycle callback's
 * trigger, shop and time, well under 64 KiB.
 */
export const FLOW_ACTION_BODY_LIMIT = 64 * 1024;

/**
 * What the webhook routes may hold in memory at once, before their HMAC is checked: 32 MiB, four bodies at
 * the limit (a real delivery is a few kilobytes, so thousands of them fit). A body that does not fit is
 * answered 503 with Retry-After, which Shopify retries, instead of letting parallel unauthenticated bodies
 * push the app past its memory budget.
 */
export const WEBHOOK_BYTES_IN_FLIGHT = 32 * MiB;

/** The most a request to `pathname` may send: the webhook routes', the login form's, the extensions' routes', or a page's form. */
export function bodyLimitFor(pathname: string): number {
  if (pathname.startsWith("/webhooks/")) return WEBHOOK_BODY_LIMIT;
  if (pathname.startsWith("/auth/")) return LOGIN_BODY_LIMIT;
  if (pathname.startsWith("/api/")) return EXTENSION_BODY_LIMIT;
  if (pathname.startsWith("/flow/")) return FLOW_ACTION_BODY_LIMIT;
  return FORM_BODY_LIMIT;
}

/** The refusal of a body over `limit` bytes, in words (the edge's 413 and the readers' say the same). */
export function tooLargeMessage(limit: number): string {
  const size = limit >= MiB ? `${limit / MiB} MiB` : `${limit / 1024} KiB`;
  return `The request body is larger than this address takes (${size}).`;
}
