import { z } from "zod";

/**
 * The rates page's filters, so a run of hundreds of orders can be worked through: orders that need the
 * merchant (blocked, failed, expired, or a picked service below what the customer paid for), international
 * ones, and those whose picked rate is with one carrier. Filters combine (all must hold). Pure.
 */

export const RatesFilter = z.object({
  attention: z.literal("1").optional().catch(undefined),
  international: z.literal("1").optional().catch(undefined),
  carrier: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,40}$/)
    .optional()
    .catch(undefined),
});
export type RatesFilter = z.infer<typeof RatesFilter>;

/** What the filters look at, per order. */
export interface OrderFacts {
  orderId: string;
  /** Blocked, failed, expired, or the pick falls short of the customer's choice: something to do. */
  attention: boolean;
  /** Some shipment goes to another country than it ships from. */
  international: boolean;
  /** The carriers of the picked rates. */
  carriers: readonly string[];
}

export function matchesFilter(facts: OrderFacts, filter: RatesFilter): boolean {
  if (filter.attention && !facts.attention) return false;
  if (filter.international && !facts.international) return false;
  if (filter.carrier && !facts.carriers.includes(filter.carrier)) return false;
  return true;
}

export function isFiltered(filter: RatesFilter): boolean {
  return Boolean(filter.attention || filter.international || filter.carrier);
}

export interface FilterCounts {
  all: number;
  attention: number;
  international: number;
  /** Orders per picked carrier, by carrier code. */
  carriers: Array<{ carrierCode: string; orders: number }>;
}

/** How many orders each filter would show on its own, for the filter's labels. */
export function filterCounts(facts: readonly OrderFacts[]): FilterCounts {
  const carriers = new Map<string, number>();
  for (const order of facts) for (const carrier of new Set(order.carriers)) carriers.set(carrier, (carriers.get(carrier) ?? 0) + 1);
  return {
    all: facts.length,
    attention: facts.filter((order) => order.attention).length,
    international: facts.filter((order) => order.international).length,
    carriers: [...carriers].sort(([a], [b]) => a.localeCompare(b)).map(([carrierCode, orders]) => ({ carrierCode, orders })),
  };
}
