import { z } from "zod";
import { adminQuery, type ShopAdmin } from "./gateway.server";
import type { AdminDocument } from "./admin-document";
import type { ShopSummaryQuery, ShopSummaryQueryVariables } from "../types/admin.generated";

const SHOP_SUMMARY = `#graphql
  query ShopSummary {
    shop {
      name
      currencyCode
      weightUnit
      shopAddress {
        city
        provinceCode
        countryCodeV2
      }
    }
  }
` as AdminDocument<ShopSummaryQuery, ShopSummaryQueryVariables>;

const ShopSummaryData = z.object({
  shop: z.object({
    name: z.string(),
    currencyCode: z.string(),
    weightUnit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]),
    shopAddress: z.object({
      city: z.string().nullable(),
      provinceCode: z.string().nullable(),
      countryCodeV2: z.string().nullable(),
    }),
  }),
});

export interface ShopSummary {
  name: string;
  currencyCode: string;
  weightUnit: "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";
  origin: string;
  countryCode: string | null;
}

/** The shop's name, currency, weight unit and where it ships from, for the app's home page. */
export async function loadShopSummary(context: ShopAdmin): Promise<ShopSummary> {
  const { shop } = await adminQuery(context, SHOP_SUMMARY, ShopSummaryData);
  const origin = [shop.shopAddress.city, shop.shopAddress.provinceCode, shop.shopAddress.countryCodeV2]
    .filter((part): part is string => Boolean(part))
    .join(", ");
  return { name: shop.name, currencyCode: shop.currencyCode, weightUnit: shop.weightUnit, origin, countryCode: shop.shopAddress.countryCodeV2 };
}
