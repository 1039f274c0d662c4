import type { Context } from "../context";
import { parseCustoms } from "../orders/customs";
import { saveOrderCustoms } from "../orders/customs.server";
import { QuotingInputError } from "./errors";
import { requoteBlockedOrder, type BlockedRequoteOutcome } from "./quote-run.server";

/**
 * "Save and quote again" on the rates page: what the merchant typed for an order blocked in the run (weights,
 * HS codes, origins) is kept for the order, and the order is quoted again into the same run. Throws
 * QuotingInputError naming the field for input that cannot be kept, for an order not blocked in this run, and
 * while the run is still quoting.
 */
export async function saveLineDetailsAndRequote(
  ctx: Context,
  runId: string,
  posted: {
    orderId?: unknown;
    lineId: unknown[];
    hsCode: unknown[];
    countryOfOrigin: unknown[];
    product?: unknown[];
    weight: unknown[];
    weightUnit?: unknown;
  },
): Promise<BlockedRequoteOutcome> {
  const parsed = parseCustoms(posted);
  if (!parsed.ok) throw new QuotingInputError(400, Object.keys(parsed.fieldErrors)[0] ?? "lines", parsed.message);
  if (!(await saveOrderCustoms(ctx, runId, parsed.orderId, parsed.entries))) {
    throw new QuotingInputError(404, "orderId", "This order is not blocked in this run; open its run from Rates.");
  }
  return requoteBlockedOrder(ctx, runId, parsed.orderId);
}
