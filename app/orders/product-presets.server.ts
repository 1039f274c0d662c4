import { z } from "zod";
import type { Context } from "../context";
import { readByIds } from "../db/id-lists.server";
import type { FulfillmentOrderLine } from "./types";
import type { PresetLookup, ProductPreset } from "./product-presets";

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
  const rows = await readByIds(ctx, ids, (chunk) => ctx.db.productPreset.findMany({ where: { shop: ctx.shop, targetId: { in: chunk } } }));
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
