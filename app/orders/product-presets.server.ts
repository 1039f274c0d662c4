import { z } from "zod";
import type { Context } from "../context";
import { selectShopRowsByIds } from "../db/db-batch.server";
import type { FulfillmentOrderLine } from "./types";
import type { PresetLookup, ProductPreset } from "./product-presets";
import { adminQuery } from "../shopify/gateway.server";
import type { AdminDocument } from "../shopify/admin-document";
import type { PresetProductsQuery, PresetProductsQueryVariables } from "../types/admin.generated";

/** Product presets as kept (ProductPreset rows, one per product or variant GID). */

/** What a row's data is read back as; written only after the schema of app/settings/product-presets.ts accepted it. */
const Stored = z.object({
  box: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("settings"), name: z.string() }),
      z.object({ kind: z.literal("own"), length: z.string(), width: z.string(), height: z.string(), dimUnit: z.enum(["in", "cm"]) }),
    ])
    .nullable(),
  hsCode: z.string().nullable(),
  countryOfOrigin: z.string().nullable(),
  description: z.string().nullable(),
}) satisfies z.ZodType<ProductPreset>;

export interface KeptPreset extends ProductPreset {
  targetId: string;
  title: string;
}

const kept = (row: { targetId: string; title: string; data: string }): KeptPreset => ({
  targetId: row.targetId,
  title: row.title,
  ...Stored.parse(JSON.parse(row.data)),
});

/** The presets of these products and variants (GIDs) the shop has. */
export async function loadPresets(ctx: Pick<Context, "db" | "shop">, targetIds: readonly string[]): Promise<KeptPreset[]> {
  const ids = [...new Set(targetIds)];
  if (ids.length === 0) return [];
  // Read raw: a quote run reads the presets of every product and variant of its orders' lines.
  const rows = await selectShopRowsByIds<{ targetId: string; title: string; data: string }>(ctx, {
    table: "ProductPreset",
    columns: ["targetId", "title", "data"],
    column: "targetId",
    ids,
  });
  return rows.map(kept);
}

/** The presets that apply to these lines (their variants' and products'), for the mapping. */
export async function presetsForLines(
  ctx: Pick<Context, "db" | "shop">,
  lines: ReadonlyArray<Pick<FulfillmentOrderLine, "variantId" | "productId">>,
): Promise<PresetLookup> {
  const ids = lines.flatMap((line) => [line.variantId, line.productId].filter((id): id is string => Boolean(id)));
  return new Map((await loadPresets(ctx, ids)).map((preset) => [preset.targetId, preset]));
}

/** Saves a preset for each target (a product or variant GID with its name); an empty preset is removed. */
export async function savePresets(
  { db, shop }: Pick<Context, "db" | "shop">,
  targets: ReadonlyArray<{ targetId: string; title: string }>,
  preset: (before: ProductPreset | null) => ProductPreset,
): Promise<void> {
  const before = new Map(
    (await db.productPreset.findMany({ where: { shop, targetId: { in: targets.map((target) => target.targetId) } } })).map((row) => [row.targetId, kept(row)]),
  );
  await db.$transaction(
    targets.map(({ targetId, title }) => {
      const next = preset(before.get(targetId) ?? null);
      const empty = next.box === null && !next.hsCode && !next.countryOfOrigin && !next.description;
      if (empty) return db.productPreset.deleteMany({ where: { shop, targetId } });
      const data = JSON.stringify(next);
      return db.productPreset.upsert({ where: { shop_targetId: { shop, targetId } }, create: { shop, targetId, title, data }, update: { title, data } });
    }),
  );
}

/** The shop's products a page at a time for the presets page, by title, with their first variants: a product with more is edited as a whole beyond them. */
const PRESET_PRODUCTS = `#graphql
  query PresetProducts($after: String, $query: String) {
    products(first: 25, after: $after, query: $query, sortKey: TITLE) {
      nodes {
        id
        title
        hasOnlyDefaultVariant
        variants(first: 20) {
          nodes {
            id
            title
            sku
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
` as AdminDocument<PresetProductsQuery, PresetProductsQueryVariables>;

const PresetProductsData = z.object({
  products: z.object({
    nodes: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        hasOnlyDefaultVariant: z.boolean(),
        variants: z.object({ nodes: z.array(z.object({ id: z.string(), title: z.string(), sku: z.string().nullable() })) }),
      }),
    ),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  }),
});

export interface PresetProduct {
  id: string;
  title: string;
  /** Its variants when it has more than the default one. */
  variants: Array<{ id: string; title: string; sku: string | null }>;
  sku: string | null;
}

/** One page of the shop's products matching `search` (a title or SKU), read through the shop's gateway. */
export async function readPresetProducts(
  ctx: Pick<Context, "shopify">,
  { search, after }: { search: string; after: string | null },
): Promise<{ products: PresetProduct[]; next: string | null }> {
  const words = search.trim().replace(/["\\]/g, "");
  const query = words ? `title:*${words}* OR sku:*${words}*` : null;
  const page = await adminQuery(await ctx.shopify(), PRESET_PRODUCTS, PresetProductsData, { after, query });
  return {
    products: page.products.nodes.map((node) => ({
      id: node.id,
      title: node.title,
      variants: node.hasOnlyDefaultVariant ? [] : node.variants.nodes,
      sku: node.hasOnlyDefaultVariant ? (node.variants.nodes[0]?.sku ?? null) : null,
    })),
    next: page.products.pageInfo.hasNextPage ? page.products.pageInfo.endCursor : null,
  };
}
