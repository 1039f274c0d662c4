import type { DimUnit } from "../../shipping-api/contract";
import type { FulfillmentOrderLine } from "./types";

/**
 * Product presets (issue 25 §2), pure: per product or variant, kept in Consign, the box it ships in (a Settings
 * box, or its own box with its sizes) and customs defaults (HS code, country of origin, description) used when
 * Shopify has none. A variant's preset is used over its product's. The mapping chooses a shipment's box with
 * them (chooseBox in shipment-mapping.ts). The schema that checks what the merchant
 * types is app/settings/product-presets.ts.
 */

export type PresetBox = { kind: "settings"; name: string } | { kind: "own"; length: string; width: string; height: string; dimUnit: DimUnit };

export interface ProductPreset {
  box: PresetBox | null;
  hsCode: string | null;
  countryOfOrigin: string | null;
  description: string | null;
}

/** The shop's presets by Product or ProductVariant GID. */
export type PresetLookup = ReadonlyMap<string, ProductPreset>;

/** The line's variant's preset, else its product's, else null. */
export function presetOf(presets: PresetLookup, line: Pick<FulfillmentOrderLine, "variantId" | "productId">): ProductPreset | null {
  return (line.variantId && presets.get(line.variantId)) || (line.productId && presets.get(line.productId)) || null;
}

/** The line with its preset's customs details where Shopify (and what was typed for the order) has none. */
export function withPresetCustoms(line: FulfillmentOrderLine, preset: ProductPreset | null): FulfillmentOrderLine {
  if (!preset) return line;
  return {
    ...line,
    hsCode: line.hsCode?.trim() ? line.hsCode : (preset.hsCode ?? line.hsCode),
    countryOfOrigin: line.countryOfOrigin || preset.countryOfOrigin,
    customsDescription: line.customsDescription ?? preset.description,
  };
}
