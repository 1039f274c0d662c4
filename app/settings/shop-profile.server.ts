import { z } from "zod";
import { KeptPerShop } from "../kept-per-shop.server";
import type { Context } from "../context";
import { placeName } from "../locale/places";
import { FALLBACK_TIME_ZONE, TimeZone } from "../locale/shop-time";
import { adminQuery } from "../shopify/gateway.server";
import { addressLine, fromShopifyAddress, type SenderLocation } from "./addresses";
import type { ShopProfile } from "./onboarding-form";
import type { AdminDocument } from "../shopify/admin-document";
import type {
  OnboardingShopProfileQuery,
  OnboardingShopProfileQueryVariables,
  PrimarySenderLocationQuery,
  PrimarySenderLocationQueryVariables,
  SenderLocationsQuery,
  SenderLocationsQueryVariables,
  ShopSummaryQuery,
  ShopSummaryQueryVariables,
} from "../types/admin.generated";

/**
 * What onboarding, Settings, the home page and quoting read from Shopify: the shop's own details (its profile,
 * and the summary of its name, currency, weight unit and origin) and the locations it ships from.
 */

/** A location's address as a sender address is made from it: the primary location's in the profile, every sender location's. */
const LOCATION_ADDRESS_FIELDS = `#graphql
  fragment LocationAddressFields on LocationAddress {
    address1
    address2
    city
    provinceCode
    zip
    countryCode
    phone
  }
`;

const SHOP_PROFILE = `#graphql
  query OnboardingShopProfile {
    shop {
      name
      email
      shopOwnerName
      shopAddress {
        company
        address1
        address2
        city
        provinceCode
        zip
        countryCodeV2
        phone
      }
    }
    location {
      address {
        ...LocationAddressFields
      }
    }
  }
  ${LOCATION_ADDRESS_FIELDS}
` as AdminDocument<OnboardingShopProfileQuery, OnboardingShopProfileQueryVariables>;

const nullableText = z.string().nullable();

/** The fields LocationAddress and ShopAddress share (they differ in how they name the country code). */
const AddressParts = z.object({
  address1: nullableText,
  address2: nullableText,
  city: nullableText,
  provinceCode: nullableText,
  zip: nullableText,
  phone: nullableText,
});
const LocationAddress = AddressParts.extend({ countryCode: nullableText });

const ShopProfileData = z.object({
  shop: z.object({
    name: z.string(),
    email: z.string(),
    shopOwnerName: z.string(),
    shopAddress: AddressParts.extend({ company: nullableText, countryCodeV2: nullableText }),
  }),
  location: z.object({ address: LocationAddress }).nullable(),
});

/** The shop's name, owner, email and address, and its primary location's address. */
export async function loadShopProfile(ctx: Pick<Context, "shopify">): Promise<ShopProfile> {
  const { shop, location } = await adminQuery(await ctx.shopify(), SHOP_PROFILE, ShopProfileData);
  const { countryCodeV2, ...address } = shop.shopAddress;
  return {
    name: shop.name,
    email: shop.email,
    ownerName: shop.shopOwnerName,
    address: { ...address, countryCode: countryCodeV2 },
    primaryLocation: location?.address ?? null,
  };
}

const SHOP_SUMMARY = `#graphql
  query ShopSummary {
    shop {
      name
      currencyCode
      weightUnit
      ianaTimezone
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
    ianaTimezone: z.string(),
    shopAddress: z.object({
      city: z.string().nullable(),
      provinceCode: z.string().nullable(),
      countryCodeV2: z.string().nullable(),
    }),
  }),
});

/** The shop's name, currency, weight unit and where it ships from, for the app's pages and quoting. */
export const ShopSummary = z.object({
  name: z.string(),
  currencyCode: z.string(),
  weightUnit: z.enum(["GRAMS", "KILOGRAMS", "OUNCES", "POUNDS"]),
  origin: z.string(),
  countryCode: z.string().nullable(),
});
export type ShopSummary = z.infer<typeof ShopSummary>;

/** The shop's summary and its time zone (`shop.ianaTimezone`, checked by whoever keeps it), as Shopify answers them now. */
export async function readShopSummary(ctx: Pick<Context, "shopify">): Promise<{ summary: ShopSummary; timeZone: string }> {
  const { shop } = await adminQuery(await ctx.shopify(), SHOP_SUMMARY, ShopSummaryData);
  const origin = placeName({ city: shop.shopAddress.city, provinceCode: shop.shopAddress.provinceCode, countryCode: shop.shopAddress.countryCodeV2 });
  return {
    summary: { name: shop.name, currencyCode: shop.currencyCode, weightUnit: shop.weightUnit, origin, countryCode: shop.shopAddress.countryCodeV2 },
    timeZone: shop.ianaTimezone,
  };
}

/** How long what Consign keeps of the shop's profile serves before Shopify is asked again. */
export const PROFILE_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The shop's summary and time zone, kept with the shop's profile (ShopProfile) and read again through the Admin API
 * once a day old, so a page load asks Shopify nothing and a merchant who changes them in Shopify sees it within a
 * day. A time zone the runtime cannot write dates in is kept as UTC. While Shopify cannot be read, what is kept
 * serves; with nothing kept, Shopify's error is thrown.
 */
export async function loadKeptShop(ctx: Pick<Context, "db" | "shop" | "now" | "shopify" | "log">): Promise<{ summary: ShopSummary; timeZone: string }> {
  const { db, shop } = ctx;
  const now = ctx.now();
  const kept = await db.shopProfile.findUnique({ where: { shop } });
  const keptSummary = kept?.summary ? ShopSummary.safeParse(JSON.parse(kept.summary)) : null;
  const keptShop = kept && keptSummary?.success ? { summary: keptSummary.data, timeZone: kept.timeZone } : null;
  if (keptShop && now.getTime() - kept!.readAt.getTime() < PROFILE_KEPT_MS) return keptShop;
  let answer: Awaited<ReturnType<typeof readShopSummary>>;
  try {
    answer = await readShopSummary(ctx);
  } catch (error) {
    if (!keptShop) throw error;
    ctx.log.warn({ err: error }, "the shop's profile could not be read from Shopify; the one kept serves");
    return keptShop;
  }
  const timeZone = TimeZone.safeParse(answer.timeZone).success ? answer.timeZone : FALLBACK_TIME_ZONE;
  const data = { timeZone, summary: JSON.stringify(answer.summary), readAt: now };
  await db.shopProfile.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return { summary: answer.summary, timeZone };
}

/** The shop's name, currency, weight unit and where it ships from, as kept (loadKeptShop). */
export async function loadShopSummary(ctx: Pick<Context, "db" | "shop" | "now" | "shopify" | "log">): Promise<ShopSummary> {
  return (await loadKeptShop(ctx)).summary;
}

/** What a sender location is read with: the location list and the primary location share it. */
const SENDER_LOCATION_FIELDS = `#graphql
  fragment SenderLocationFields on Location {
    id
    name
    isFulfillmentService
    address {
      ...LocationAddressFields
    }
  }
`;

/**
 * Locations a page at a time, ten: Shopify asks a query's requested cost (about two points a location asked for)
 * before it answers, so a page of 50 waited a second for points whenever a write-back kept the bucket low, while
 * most shops have a few locations (more are read page by page).
 */
const SENDER_LOCATIONS = `#graphql
  query SenderLocations($after: String) {
    shop {
      name
      email
    }
    locations(first: 10, after: $after, sortKey: NAME) {
      nodes {
        ...SenderLocationFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${SENDER_LOCATION_FIELDS}
  ${LOCATION_ADDRESS_FIELDS}
` as AdminDocument<SenderLocationsQuery, SenderLocationsQueryVariables>;

const ShopIdentity = z.object({ name: z.string(), email: z.string() });
const LocationNode = z.object({ id: z.string(), name: z.string(), isFulfillmentService: z.boolean(), address: LocationAddress });

const SenderLocationsData = z.object({
  shop: ShopIdentity,
  locations: z.object({
    nodes: z.array(LocationNode),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
  }),
});

/** A location as a sender address: its name, the shop as company, the shop's email. */
function toSenderLocation(location: z.infer<typeof LocationNode>, shop: z.infer<typeof ShopIdentity>): SenderLocation {
  const sender = fromShopifyAddress(location.address, { name: location.name, company: shop.name, email: shop.email });
  return { id: location.id, name: location.name, summary: addressLine(sender), sender };
}

/**
 * The shop's locations as last read, for three minutes: Settings and the print menu show them on every load, and
 * a busy shop's write-back needs the throttle that reading them again would spend (issue 30). A location added in
 * Shopify shows within three minutes.
 */
const keptLocations = new KeptPerShop<SenderLocation[]>(3 * 60 * 1000);

/**
 * The active locations the merchant ships from, as sender addresses, as read within the last three minutes.
 * Fulfillment-service locations are left out: their service ships, not the merchant.
 */
export async function loadSenderLocations(ctx: Pick<Context, "shopify" | "shop" | "now">): Promise<SenderLocation[]> {
  return keptLocations.get(ctx.shop, ctx.now()) ?? keptLocations.set(ctx.shop, await readSenderLocations(ctx), ctx.now());
}

async function readSenderLocations(ctx: Pick<Context, "shopify">): Promise<SenderLocation[]> {
  const context = await ctx.shopify();
  const locations: SenderLocation[] = [];
  let after: string | null = null;
  do {
    const page: z.infer<typeof SenderLocationsData> = await adminQuery(context, SENDER_LOCATIONS, SenderLocationsData, { after });
    for (const location of page.locations.nodes) {
      if (!location.isFulfillmentService) locations.push(toSenderLocation(location, page.shop));
    }
    after = page.locations.pageInfo.hasNextPage ? page.locations.pageInfo.endCursor : null;
  } while (after);
  return locations;
}

const PRIMARY_SENDER_LOCATION = `#graphql
  query PrimarySenderLocation {
    shop {
      name
      email
    }
    location {
      ...SenderLocationFields
    }
  }
  ${SENDER_LOCATION_FIELDS}
  ${LOCATION_ADDRESS_FIELDS}
` as AdminDocument<PrimarySenderLocationQuery, PrimarySenderLocationQueryVariables>;

const PrimarySenderLocationData = z.object({ shop: ShopIdentity, location: LocationNode.nullable() });

/** The shop's primary location (Shopify's `location` without an id) as a sender, or null when a fulfillment service holds it. */
export async function loadPrimarySenderLocation(ctx: Pick<Context, "shopify">): Promise<SenderLocation | null> {
  const { shop, location } = await adminQuery(await ctx.shopify(), PRIMARY_SENDER_LOCATION, PrimarySenderLocationData);
  return location && !location.isFulfillmentService ? toSenderLocation(location, shop) : null;
}
