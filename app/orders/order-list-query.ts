import { z } from "zod";

/**
 * The Orders to ship filters as they travel in the URL: the list's own query, and the "select all matching
 * orders" bulk action, which sends the same parameters to the quote page with `all=1`. A value that does
 * not parse falls back to "no filter" rather than failing the page. The page itself is app/list-page.server.ts's.
 */
export const AGE_FILTERS = { "1": "Over 1 day old", "3": "Over 3 days old", "7": "Over a week old" } as const;

export const OrderListQuery = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional()
    .catch(undefined),
  scope: z.enum(["all", "domestic", "international"]).catch("all"),
  tag: z.string().trim().min(1).max(255).optional().catch(undefined),
  age: z
    .enum(Object.keys(AGE_FILTERS) as [keyof typeof AGE_FILTERS])
    .optional()
    .catch(undefined),
  quoted: z.enum(["any", "quoted", "not-quoted"]).catch("any"),
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;

/** The filter parameters (not the page) of a list URL, to carry them to another URL. */
export const FILTER_PARAMS = ["q", "country", "scope", "tag", "age", "quoted"] as const;

export function parseOrderListQuery(params: URLSearchParams): OrderListQuery {
  return OrderListQuery.parse(Object.fromEntries(params));
}
