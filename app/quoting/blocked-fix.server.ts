import { z } from "zod";
import type { Context } from "../context";
import type { Outcome } from "../outcome";
import { parseCustoms } from "../orders/customs";
import { saveOrderCustoms } from "../orders/customs.server";
import { DECLINED, saveWeightsToProducts, type ProductWeightOutcome } from "../orders/product-weights.server";
import { QuotingInputError } from "./errors";
import { requoteBlockedOrder, type BlockIssue } from "./quote-run.server";

/**
 * Whether the typed weights also go to the products in Shopify: `saveToProduct` is the form's checkbox;
 * `productAccess` "declined" says the merchant refused the permission the page asked for (App Bridge's
 * scopes.request) before posting.
 */
const ProductChoice = z.object({
  saveToProduct: z.literal("on").optional(),
  productAccess: z.literal("declined").optional(),
});

/**
 * The requote's outcome, and with "Also save this weight to the product in Shopify" ticked, whether the
 * products were changed (`product`; absent when it was not ticked or no weight was typed).
 */
export type LineDetailsOutcome = Outcome<
  { shipments: number; finished: Promise<void>; product?: ProductWeightOutcome },
  { issues: BlockIssue[]; product?: ProductWeightOutcome }
>;

/**
 * "Save and quote again" on the rates page: what the merchant typed for an order blocked in the run (weights,
 * HS codes, origins) is kept for the order, and the order is quoted again into the same run; with
 * `saveToProduct`, the typed weights are also written to the lines' variants in Shopify (a refusal there leaves
 * the weights kept for the order, and `product` says why). Throws QuotingInputError naming the field for input
 * that cannot be kept, for an order not blocked in this run, and while the run is still quoting.
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
    saveToProduct?: unknown;
    productAccess?: unknown;
  },
): Promise<LineDetailsOutcome> {
  const parsed = parseCustoms(posted);
  if (!parsed.ok) throw new QuotingInputError(400, Object.keys(parsed.fieldErrors)[0] ?? "lines", parsed.message);
  const choice = ProductChoice.safeParse({ saveToProduct: posted.saveToProduct ?? undefined, productAccess: posted.productAccess ?? undefined });
  if (!choice.success) throw new QuotingInputError(400, "saveToProduct", "Tick “Also save this weight to the product in Shopify” or leave it empty.");
  if (!(await saveOrderCustoms(ctx, runId, parsed.orderId, parsed.entries))) {
    throw new QuotingInputError(404, "orderId", "This order is not blocked in this run; open its run from Rates.");
  }
  const requoted = await requoteBlockedOrder(ctx, runId, parsed.orderId);
  const weights = Object.entries(parsed.entries).flatMap(([lineId, entry]) => (entry.weight ? [{ lineId, weight: entry.weight }] : []));
  if (!choice.data.saveToProduct || weights.length === 0) return requoted;
  const product = choice.data.productAccess === "declined" ? DECLINED : await saveWeightsToProducts(ctx, weights);
  return { ...requoted, product };
}
