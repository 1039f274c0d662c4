import { z } from "zod";
import type { FieldErrors, Outcome } from "../outcome";
import { sayProblem, type FieldName } from "../field-errors";
import type { MirroredOrder } from "./order-node";
import { API_WEIGHT_UNIT, toNanograms, weightIn, type ShopifyWeightUnit } from "./weights";

/**
 * Line details typed in Consign for lines Shopify has none for (an HS code, a country of origin, a weight), so
 * an order blocked for them can be quoted without leaving the app. Pure: parsing what the merchant typed, in
 * their words, and laying it over the mirrored order's lines. Kept for the order (OrderCustoms); Shopify's
 * products stay as they are, unless the merchant also saves a typed weight to the product
 * (product-weights.server.ts).
 */

export interface LineCustoms {
  hsCode?: string;
  countryOfOrigin?: string;
  /** Per unit, in the shop's weight unit as typed. */
  weight?: { value: number; unit: ShopifyWeightUnit };
}

/** By fulfillment order line item id. */
export type OrderCustomsEntries = Record<string, LineCustoms>;

export const HsCode = z
  .string()
  .trim()
  .transform((value) => value.replace(/[.\s]/g, ""))
  .pipe(z.string().regex(/^\d{6,10}$/, "must be 6 to 10 digits, like 6912.00 or 691200"));
export const Origin = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, "must be a two-letter country code, like PT or US"));

/** Heaviest a unit of one item may be typed as, 1,000 kg: a freight pallet, not a typo of a few more zeros. */
const MAX_ITEM = toNanograms(1000, "KILOGRAMS");

export const WeightUnitField = z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]);

function weightOf(typed: string, unit: ShopifyWeightUnit): { value: number } | { problem: string } {
  const text = typed.trim().replace(",", ".");
  const word = API_WEIGHT_UNIT[unit];
  if (!/^\d{1,7}(\.\d{1,6})?$/.test(text) || Number(text) <= 0) return { problem: `must be more than 0, like 0.5 (in ${word})` };
  const value = Number(text);
  if (toNanograms(value, unit) > MAX_ITEM) return { problem: `must be at most ${Math.floor(weightIn(MAX_ITEM, word)).toLocaleString("en-US")} ${word}` };
  return { value };
}

export const CustomsForm = z.object({
  orderId: z.string().min(1, "choose an order").max(100),
  lineId: z.array(z.string().min(1).max(100)).min(1, "there is no item to fix; reload the page").max(100),
  hsCode: z.array(z.string().max(40)),
  countryOfOrigin: z.array(z.string().max(40)),
  /** Each line's product as the form shows it, to name the item in a problem ("Sticker Pack: HS code …"). */
  product: z.array(z.string().max(300)).max(100).optional(),
  /** Per line, aligned with lineId; absent from forms without weights. */
  weight: z.array(z.string().max(40)).default([]),
  weightUnit: WeightUnitField.default("POUNDS"),
});

/**
 * A refusal names one field (`lines[0].hsCode`, where the rates page shows it), and its message names the item:
 * "Sticker Pack: HS code must be 6 to 10 digits…".
 */
export type CustomsResult = Outcome<{ orderId: string; entries: OrderCustomsEntries }, { fieldErrors: FieldErrors }>;

function refuse(field: string, name: FieldName, problem: string): CustomsResult {
  const message = sayProblem(name, problem);
  return { ok: false, message, fieldErrors: { [field]: message } };
}

const LABELS = { hsCode: "HS code", countryOfOrigin: "country of origin" } as const;

/** One entry per line (`lineId`, `hsCode`, `countryOfOrigin`, `weight` repeated); a blank field leaves Shopify's value. */
export function parseCustoms(posted: {
  orderId?: unknown;
  lineId: unknown[];
  hsCode: unknown[];
  countryOfOrigin: unknown[];
  product?: unknown[];
  weight?: unknown[];
  weightUnit?: unknown;
}): CustomsResult {
  const parsed = CustomsForm.safeParse(posted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "lines");
    return refuse(field, { label: field === "orderId" ? "order" : "items" }, issue.message);
  }
  const { orderId, lineId, hsCode, countryOfOrigin, product, weight, weightUnit } = parsed.data;
  const item = (index: number) => product?.[index]?.trim() || `Item ${index + 1}`;
  const entries: OrderCustomsEntries = {};
  for (const [index, id] of lineId.entries()) {
    const entry: LineCustoms = {};
    for (const [name, schema, value] of [
      ["hsCode", HsCode, hsCode[index]],
      ["countryOfOrigin", Origin, countryOfOrigin[index]],
    ] as const) {
      if (!value?.trim()) continue;
      const checked = schema.safeParse(value);
      if (!checked.success) return refuse(`lines[${index}].${name}`, { subject: item(index), label: LABELS[name] }, checked.error.issues[0]!.message);
      entry[name] = checked.data;
    }
    const typedWeight = weight[index]?.trim();
    if (typedWeight) {
      const checked = weightOf(typedWeight, weightUnit);
      if ("problem" in checked) return refuse(`lines[${index}].weight`, { subject: item(index), label: "weight" }, checked.problem);
      entry.weight = { value: checked.value, unit: weightUnit };
    }
    if (entry.hsCode || entry.countryOfOrigin || entry.weight) entries[id] = entry;
  }
  if (Object.keys(entries).length === 0) {
    return weight.length > 0
      ? refuse("lines[0].weight", {}, "type a weight, an HS code or a country of origin for at least one item")
      : refuse("lines[0].hsCode", {}, "type an HS code or a country of origin for at least one item");
  }
  return { ok: true, orderId, entries };
}

/** The order with the merchant's customs details over its lines' (where Shopify has none or they typed one). */
export function applyCustoms(order: MirroredOrder, entries: OrderCustomsEntries): MirroredOrder {
  return {
    ...order,
    fulfillmentOrders: order.fulfillmentOrders.map((fo) => ({
      ...fo,
      lines: fo.lines.map((line) => {
        const entry = Object.hasOwn(entries, line.id) ? entries[line.id] : undefined;
        return entry
          ? {
              ...line,
              hsCode: entry.hsCode ?? line.hsCode,
              countryOfOrigin: entry.countryOfOrigin ?? line.countryOfOrigin,
              weight: entry.weight ?? line.weight,
            }
          : line;
      }),
    })),
  };
}
