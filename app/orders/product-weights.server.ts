import { z } from "zod";
import type { Context } from "../context";
import type { Outcome } from "../outcome";
import type { AdminDocument, AsInput } from "../shopify/admin-document";
import { AdminApiError, AdminTransportError, adminQuery } from "../shopify/gateway.server";
import type {
  FulfillmentLineVariantsQuery,
  FulfillmentLineVariantsQueryVariables,
  SetVariantWeightsMutation,
  SetVariantWeightsMutationVariables,
} from "../types/admin.generated";
import type { ProductVariantsBulkInput } from "../types/admin.types";
import type { ShopifyWeightUnit } from "./weights";

/**
 * A weight the merchant typed for an order's line, also saved to the line's product variant in Shopify when they
 * chose so (the rates page's "Also save this weight to the product in Shopify"). Needs the optional scope
 * `write_products` (shopify.app.toml), which the page asks for first; without it Shopify refuses the write and
 * the weight stays kept for the order only. The mirror keeps no variant ids: the lines' variants are read here,
 * in one query, when a merchant asks for this.
 */

/** Variants and products of the fulfillment order lines the weights were typed for. */
export const LINE_VARIANTS = `#graphql
  query FulfillmentLineVariants($lineIds: [ID!]!) {
    nodes(ids: $lineIds) {
      ... on FulfillmentOrderLineItem {
        id
        productTitle
        variant {
          id
          product {
            id
            title
          }
        }
      }
    }
  }
` as AdminDocument<FulfillmentLineVariantsQuery, FulfillmentLineVariantsQueryVariables>;

/** One product's variants' weights (their inventory item's measurement), all or none. */
export const SET_VARIANT_WEIGHTS = `#graphql
  mutation SetVariantWeights($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
    productVariantsBulkUpdate(productId: $productId, variants: $variants) {
      productVariants {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<SetVariantWeightsMutation, SetVariantWeightsMutationVariables>;

const LineVariants = z.object({
  // nodes() answers null for an id Shopify no longer knows; a node of another type comes back empty.
  nodes: z.array(
    z
      .object({
        id: z.string(),
        productTitle: z.string(),
        variant: z.object({ id: z.string(), product: z.object({ id: z.string(), title: z.string() }) }).nullable(),
      })
      .nullable()
      .catch(null),
  ),
});

const SetVariantWeights = z.object({
  productVariantsBulkUpdate: z
    .object({
      productVariants: z.array(z.object({ id: z.string() })).nullable(),
      userErrors: z.array(z.object({ field: z.array(z.string()).nullable(), message: z.string() })),
    })
    .nullable(),
});

/** What Shopify's refusal for a missing scope becomes, wherever the app writes products. */
export const MAY_NOT_EDIT_PRODUCTS = "Consign may not edit products in this store: allow it when asked, or set the weight in Shopify";

/**
 * Saved on the products (their titles), or not: `declined` when the merchant did not allow Consign to edit
 * products, `refused` when Shopify refused or could not be reached; `message` says why and what to do.
 */
export type ProductWeightOutcome = Outcome<{ products: string[] }, { reason: "declined" | "refused" }>;

/** The merchant said no to the permission the page asked for: nothing is sent to Shopify. */
export const DECLINED: ProductWeightOutcome = {
  ok: false,
  reason: "declined",
  message: "You did not allow Consign to edit products. Tick the box and allow it when asked, or set the weight in Shopify.",
};

/** Per unit, as typed, by fulfillment order line id. */
export type LineWeights = ReadonlyArray<{ lineId: string; weight: { value: number; unit: ShopifyWeightUnit } }>;

/**
 * Writes each line's weight to its variant in Shopify, one productVariantsBulkUpdate per product. Refusals
 * (no permission, userErrors, a line whose product is gone, Shopify unreachable) come back as `refused` with
 * the merchant's words; products written before a refusal stay written, and the message names them.
 */
export async function saveWeightsToProducts(ctx: Pick<Context, "shopify" | "log">, weights: LineWeights): Promise<ProductWeightOutcome> {
  if (weights.length === 0) return { ok: true, products: [] };
  const saved: string[] = [];
  const refused = (why: string): ProductWeightOutcome => ({
    ok: false,
    reason: "refused",
    message: saved.length > 0 ? `${why} (${saved.join(", ")} ${saved.length === 1 ? "was" : "were"} saved)` : why,
  });
  try {
    const shopify = await ctx.shopify();
    const { nodes } = await adminQuery(shopify, LINE_VARIANTS, LineVariants, { lineIds: weights.map((entry) => entry.lineId) });
    const byProduct = new Map<string, { title: string; variants: AsInput<ProductVariantsBulkInput>[] }>();
    for (const [index, { weight }] of weights.entries()) {
      const line = nodes[index];
      if (!line?.variant) return refused(`${line?.productTitle ?? "An item"} has no product in Shopify any more; its weight is kept for this order`);
      const product = byProduct.get(line.variant.product.id) ?? { title: line.variant.product.title, variants: [] };
      product.variants.push({ id: line.variant.id, inventoryItem: { measurement: { weight: { value: weight.value, unit: weight.unit } } } });
      byProduct.set(line.variant.product.id, product);
    }
    for (const [productId, { title, variants }] of byProduct) {
      const answer = await adminQuery(shopify, SET_VARIANT_WEIGHTS, SetVariantWeights, { productId, variants });
      const errors = answer.productVariantsBulkUpdate?.userErrors ?? [];
      if (errors.length > 0 || !answer.productVariantsBulkUpdate) {
        return refused(`Shopify did not save the weight of ${title}: ${errors.map((error) => error.message).join("; ") || "no reason given"}`);
      }
      saved.push(title);
    }
    ctx.log.info({ products: saved.length, variants: weights.length }, "weights saved to products");
    return { ok: true, products: saved };
  } catch (error) {
    if (error instanceof AdminApiError && error.graphQLErrors.some((entry) => entry.extensions?.code === "ACCESS_DENIED")) {
      return refused(MAY_NOT_EDIT_PRODUCTS);
    }
    if (!(error instanceof AdminApiError || error instanceof AdminTransportError)) throw error;
    ctx.log.warn({ err: error }, "saving weights to products failed");
    return refused("Shopify did not answer: save again in a minute, or set the weight in Shopify");
  }
}
