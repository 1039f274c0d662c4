import { z } from "zod";
import { DimUnit } from "../../shipping-api/contract";
import type { Context } from "../context";
import { describeFieldErrors, fieldErrors, inMerchantWords, type FieldErrors } from "../field-errors";
import type { Outcome } from "../outcome";
import { HsCode, Origin } from "../orders/customs";
import type { PresetBox, ProductPreset } from "../orders/product-presets";
import { loadPresets, readPresetProducts, savePresets } from "../orders/product-presets.server";
import { loadSettings } from "../settings/account.server";
import { AdminApiError } from "../shopify/gateway.server";
import { BoxPresetSchema } from "../settings/settings";
import { plural } from "../plural";

/**
 * The product presets page (issue 25 §2): the shop's products (read through the gateway, a page at a time, with
 * search) and their variants, each with its preset; one edited at a time, or a box set on many at once.
 */

/** A product or variant the merchant picked, with its name to keep beside its preset. */
export const PresetTarget = z.object({
  targetId: z.string().regex(/^gid:\/\/shopify\/(Product|ProductVariant)\/\d+$/, "is not a product of this store; reload the page"),
  title: z.string().trim().min(1).max(300),
});
export type PresetTarget = z.infer<typeof PresetTarget>;

export const PresetForm = z.object({
  /** default: the shop's default box (no preset box); settings: `boxName`; own: the sizes. */
  box: z.enum(["default", "settings", "own"]),
  boxName: z.string().max(255),
  length: z.string().max(40),
  width: z.string().max(40),
  height: z.string().max(40),
  dimUnit: DimUnit,
  hsCode: z.string().max(40),
  countryOfOrigin: z.string().max(40),
  description: z.string().max(300),
});
export type PresetFormValues = z.infer<typeof PresetForm>;

const PRESET_LABELS: Record<string, string> = {
  box: "Box",
  boxName: "Box",
  length: "Length",
  width: "Width",
  height: "Height",
  dimUnit: "Unit",
  hsCode: "HS code",
  countryOfOrigin: "Country of origin",
  description: "Customs description",
  targets: "Products",
};

type Refused = { ok: false; message: string; fieldErrors: FieldErrors };

function refused(errors: FieldErrors): Refused {
  const said = describeFieldErrors(errors, (path) => ({ label: PRESET_LABELS[String(path[0])] }));
  return { ok: false, message: `Nothing was saved. ${said.message}.`, fieldErrors: said.fieldErrors };
}

export function presetFormValues(preset: ProductPreset | null): PresetFormValues {
  const box = preset?.box ?? null;
  return {
    box: box === null ? "default" : box.kind,
    boxName: box?.kind === "settings" ? box.name : "",
    length: box?.kind === "own" ? box.length : "",
    width: box?.kind === "own" ? box.width : "",
    height: box?.kind === "own" ? box.height : "",
    dimUnit: box?.kind === "own" ? box.dimUnit : "in",
    hsCode: preset?.hsCode ?? "",
    countryOfOrigin: preset?.countryOfOrigin ?? "",
    description: preset?.description ?? "",
  };
}

/** The preset the form describes, checked (a Settings box that exists, sizes within a parcel's, an HS code's digits), or refused on its fields. */
export function parsePresetForm(input: unknown, boxes: readonly string[]): Outcome<{ preset: ProductPreset }, { fieldErrors: FieldErrors }> {
  const form = PresetForm.safeParse(input, { error: inMerchantWords });
  if (!form.success) {
    return refused(fieldErrors(form.error.issues));
  }
  const values = form.data;
  const errors: FieldErrors = {};
  let box: PresetBox | null = null;
  if (values.box === "settings") {
    if (!boxes.includes(values.boxName)) errors.boxName = "choose one of your boxes in Settings";
    else box = { kind: "settings", name: values.boxName };
  } else if (values.box === "own") {
    const own = BoxPresetSchema.safeParse(
      { kind: "custom", name: "own", length: values.length, width: values.width, height: values.height, dimUnit: values.dimUnit },
      { error: inMerchantWords },
    );
    if (own.success && own.data.kind === "custom")
      box = { kind: "own", length: own.data.length, width: own.data.width, height: own.data.height, dimUnit: own.data.dimUnit };
    else for (const issue of own.error?.issues ?? []) errors[String(issue.path[0])] ??= issue.message;
  }
  const hsCode = values.hsCode.trim() ? HsCode.safeParse(values.hsCode) : null;
  if (hsCode && !hsCode.success) errors.hsCode = hsCode.error.issues[0]!.message;
  const origin = values.countryOfOrigin.trim() ? Origin.safeParse(values.countryOfOrigin) : null;
  if (origin && !origin.success) errors.countryOfOrigin = origin.error.issues[0]!.message;
  if (Object.keys(errors).length > 0) return refused(errors);
  return {
    ok: true,
    preset: { box, hsCode: hsCode?.data ?? null, countryOfOrigin: origin?.data ?? null, description: values.description.trim() || null },
  };
}

export interface PresetRow {
  targetId: string;
  /** "Floor lamp" or "Floor lamp – Oak" */
  title: string;
  sku: string | null;
  /** A variant's row, under its product's. */
  variant: boolean;
  /** "Own box 20 × 14 × 48 in", "Poster tube", or null for the default box. */
  box: string | null;
  values: PresetFormValues;
  customs: string | null;
}

function boxWords(box: PresetBox | null): string | null {
  if (!box) return null;
  return box.kind === "settings" ? box.name : `Own box ${box.length} × ${box.width} × ${box.height} ${box.dimUnit}`;
}

/**
 * A page of products from Shopify; a cursor Shopify no longer knows (an old or edited address) starts again at the
 * first page, and products that cannot be read are no page at all, with the problem in words.
 */
async function productsPage(ctx: Context, search: string, after: string | null) {
  try {
    return { ...(await readPresetProducts(ctx, { search, after })), problem: null };
  } catch (error) {
    if (!(error instanceof AdminApiError)) throw error;
    if (after !== null) return productsPage(ctx, search, null);
    return { products: [], next: null, problem: `Your products could not be read from Shopify (${error.message}). Reload the page in a minute.` };
  }
}

export async function loadPresetsPage(ctx: Context, { search, after }: { search: string; after: string | null }) {
  const [settings, page] = await Promise.all([loadSettings(ctx), productsPage(ctx, search, after)]);
  const targets = page.products.flatMap((product) => [
    { targetId: product.id, title: product.title, sku: product.sku, variant: false },
    ...product.variants.map((variant) => ({ targetId: variant.id, title: `${product.title} – ${variant.title}`, sku: variant.sku, variant: true })),
  ]);
  const presets = new Map(
    (
      await loadPresets(
        ctx,
        targets.map((target) => target.targetId),
      )
    ).map((preset) => [preset.targetId, preset]),
  );
  const rows: PresetRow[] = targets.map((target) => {
    const preset = presets.get(target.targetId) ?? null;
    const customs = [preset?.hsCode && `HS ${preset.hsCode}`, preset?.countryOfOrigin && `made in ${preset.countryOfOrigin}`, preset?.description]
      .filter(Boolean)
      .join(", ");
    return { ...target, box: boxWords(preset?.box ?? null), values: presetFormValues(preset), customs: customs || null };
  });
  return { rows, next: page.next, search, problem: page.problem, boxes: settings.boxes.map((box) => box.name), defaultBox: settings.defaultBox };
}

export type PresetSaved = Outcome<{ message: string }, { fieldErrors: FieldErrors }>;

export async function savePresetForm(ctx: Context, target: PresetTarget, values: unknown): Promise<PresetSaved> {
  const settings = await loadSettings(ctx);
  const parsed = parsePresetForm(
    values,
    settings.boxes.map((box) => box.name),
  );
  if (!parsed.ok) return parsed;
  await savePresets(ctx, [target], () => parsed.preset);
  return { ok: true, message: `Preset of ${target.title} saved` };
}

/** Sets the box of every selected product or variant (null: back to the default box), keeping their customs details. */
export async function setPresetBoxes(ctx: Context, targets: readonly PresetTarget[], boxName: string | null): Promise<PresetSaved> {
  const settings = await loadSettings(ctx);
  if (boxName !== null && !settings.boxes.some((box) => box.name === boxName)) return refused({ boxName: "choose one of your boxes in Settings" });
  const box: PresetBox | null = boxName === null ? null : { kind: "settings", name: boxName };
  await savePresets(ctx, targets, (before) => ({
    box,
    hsCode: before?.hsCode ?? null,
    countryOfOrigin: before?.countryOfOrigin ?? null,
    description: before?.description ?? null,
  }));
  return { ok: true, message: `${boxName ?? "The default box"} set for ${plural(targets.length, "product")}` };
}
