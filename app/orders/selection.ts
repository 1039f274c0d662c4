import { z } from "zod";
import { describeIssues } from "../field-errors";
import { shopifyGid } from "../shopify/gid";

/** Order GIDs as Shopify writes them. */
export const OrderGid = z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/, "must be an order id like gid://shopify/Order/1001");

/**
 * The orders a merchant selected, from the URL the order-list bulk action opens. Admin links append `ids[]`
 * (one per order) or `id` (a single order); numeric ids are accepted as well. Duplicates are dropped, order kept.
 */
export function parseOrderSelection(params: URLSearchParams): { ids: string[] } | { error: string } {
  const raw = [...params.getAll("ids[]"), ...params.getAll("ids"), ...params.getAll("id")]
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value.length > 0)
    .map((value) => shopifyGid("Order", value));
  const ids = new Set<string>();
  for (const value of raw) {
    const parsed = OrderGid.safeParse(value);
    if (!parsed.success) return { error: describeIssues(parsed.error.issues, () => ({ label: `The order id “${value}”` })).message };
    ids.add(parsed.data);
  }
  return { ids: [...ids] };
}

/**
 * `?orders=1001,1002` as the admin's extensions send a selection: one to `max` numeric order ids, each once, in
 * the order given; a refusal names the field and what it takes.
 */
export function orderNumbersQuery(max: number) {
  const field = `must be the orders' numeric ids, separated by commas (e.g. 1001,1002), at most ${max}`;
  return z.object({
    orders: z
      .string({ error: field })
      .max(max * 21, field)
      .transform((text) => [...new Set(text.split(","))])
      .pipe(
        z
          .array(z.string().regex(/^\d{1,20}$/, field))
          .min(1, field)
          .max(max, field),
      ),
  });
}
