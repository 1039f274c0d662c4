import { toShopifyDateTime } from "../clock.js";
import type { Store, NewOrderInput } from "../store/store.js";
import type { Address, ShippingLineData, WeightUnit } from "../store/types.js";
import { fulfillmentCreate, fulfillmentEventCreate, fulfillmentOrderHold, orderCancel } from "../store/fulfillment-ops.js";

/**
 * Deterministic demo data for the local admin (seeded PRNG; timestamps relative to the store's clock).
 * The first orders cover every case the app must handle (see SCENARIOS); the rest is a realistic random mix.
 */

export interface SeedOptions {
  orders?: number;
  seed?: number;
  shopDomain?: string;
}

export const DEFAULT_SEED_ORDERS = 60;
export const MAX_SEED_ORDERS = 100_000;

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ProductSpec {
  title: string;
  vendor: string;
  type: string;
  unit: WeightUnit;
  weight: number;
  hs: string | null;
  origin: string | null;
  originProvince?: string;
  countryHs?: { countryCode: string; code: string }[];
  requiresShipping?: boolean;
  variants: { title: string; sku: string; price: string }[];
}

const PRODUCTS: ProductSpec[] = [
  {
    title: "Canvas Tote Bag",
    vendor: "Harbor Goods",
    type: "Bags",
    unit: "GRAMS",
    weight: 340,
    hs: "420222",
    origin: "IN",
    variants: [
      { title: "Natural", sku: "TOTE-NAT", price: "28.00" },
      { title: "Black", sku: "TOTE-BLK", price: "28.00" },
    ],
  },
  {
    title: "Ceramic Pour-Over Set",
    vendor: "Kiln & Co",
    type: "Kitchen",
    unit: "KILOGRAMS",
    weight: 1.2,
    hs: "691200",
    origin: "JP",
    countryHs: [
      { countryCode: "US", code: "6912004400" },
      { countryCode: "CA", code: "6912000090" },
    ],
    variants: [{ title: "Default Title", sku: "POUR-SET", price: "64.00" }],
  },
  {
    title: "Merino Wool Beanie",
    vendor: "Fjord Knits",
    type: "Apparel",
    unit: "OUNCES",
    weight: 3.5,
    hs: "650500",
    origin: "NZ",
    variants: [
      { title: "Charcoal", sku: "BEANIE-CHR", price: "32.00" },
      { title: "Rust", sku: "BEANIE-RST", price: "32.00" },
    ],
  },
  {
    title: "Cast Iron Skillet 10in",
    vendor: "Keystone Foundry",
    type: "Kitchen",
    unit: "POUNDS",
    weight: 5.2,
    hs: "732393",
    origin: "US",
    originProvince: "PA",
    variants: [{ title: "Default Title", sku: "SKILLET-10", price: "45.00" }],
  },
  {
    title: "Organic Coffee Beans 12oz",
    vendor: "Altura Roasters",
    type: "Coffee",
    unit: "OUNCES",
    weight: 12,
    hs: "090121",
    origin: "CO",
    countryHs: [{ countryCode: "US", code: "0901210045" }],
    variants: [
      { title: "Whole Bean", sku: "COFFEE-WB", price: "18.50" },
      { title: "Ground", sku: "COFFEE-GR", price: "18.50" },
    ],
  },
  {
    title: "Linen Apron",
    vendor: "Harbor Goods",
    type: "Kitchen",
    unit: "GRAMS",
    weight: 280,
    hs: "621142",
    origin: "PT",
    variants: [{ title: "Sage", sku: "APRON-SAGE", price: "39.00" }],
  },
  {
    title: "Trail Running Shoes",
    vendor: "Ridgeline",
    type: "Footwear",
    unit: "POUNDS",
    weight: 1.8,
    hs: "640411",
    origin: "VN",
    countryHs: [
      { countryCode: "US", code: "6404116000" },
      { countryCode: "CA", code: "6404119000" },
      { countryCode: "GB", code: "6404110000" },
    ],
    variants: [
      { title: "US 8", sku: "TRAIL-08", price: "129.00" },
      { title: "US 9", sku: "TRAIL-09", price: "129.00" },
      { title: "US 10", sku: "TRAIL-10", price: "129.00" },
    ],
  },
  {
    title: "Stoneware Mug",
    vendor: "Kiln & Co",
    type: "Kitchen",
    unit: "GRAMS",
    weight: 450,
    hs: "691200",
    origin: "PT",
    variants: [
      { title: "Speckled White", sku: "MUG-SPK", price: "22.00" },
      { title: "Midnight", sku: "MUG-MID", price: "22.00" },
    ],
  },
  {
    title: "Adjustable Desk Lamp",
    vendor: "Lumen Works",
    type: "Lighting",
    unit: "KILOGRAMS",
    weight: 2.4,
    hs: "940520",
    origin: "CN",
    countryHs: [{ countryCode: "US", code: "9405204010" }],
    variants: [{ title: "Brass", sku: "LAMP-BRS", price: "89.00" }],
  },
  {
    title: "Enamel Pin Set",
    vendor: "Harbor Goods",
    type: "Accessories",
    unit: "GRAMS",
    weight: 0,
    hs: null,
    origin: null,
    variants: [{ title: "Default Title", sku: "PINS-SET", price: "12.00" }],
  },
  {
    title: "Sticker Pack",
    vendor: "Harbor Goods",
    type: "Accessories",
    unit: "GRAMS",
    weight: 20,
    hs: null,
    origin: "US",
    variants: [{ title: "Default Title", sku: "STICKERS", price: "6.00" }],
  },
  {
    title: "Travel Poster (A2)",
    vendor: "Atlas Prints",
    type: "Art",
    unit: "GRAMS",
    weight: 180,
    hs: "491199",
    origin: "GB",
    variants: [
      { title: "Lisbon", sku: "POSTER-LIS", price: "35.00" },
      { title: "Kyoto", sku: "POSTER-KYO", price: "35.00" },
    ],
  },
  {
    title: "Gift Card",
    vendor: "Consign Demo Store",
    type: "Gift Cards",
    unit: "GRAMS",
    weight: 0,
    hs: null,
    origin: null,
    requiresShipping: false,
    variants: [{ title: "$50", sku: "GIFT-50", price: "50.00" }],
  },
];

const US_ADDRESSES: Omit<Address, "firstName" | "lastName" | "phone" | "company">[] = [
  {
    address1: "742 Evergreen Terrace",
    city: "Springfield",
    province: "Illinois",
    provinceCode: "IL",
    zip: "62704",
    country: "United States",
    countryCode: "US",
  },
  {
    address1: "2300 N Lamar Blvd",
    address2: "Apt 4B",
    city: "Austin",
    province: "Texas",
    provinceCode: "TX",
    zip: "78705",
    country: "United States",
    countryCode: "US",
  },
  { address1: "500 Boylston St", city: "Boston", province: "Massachusetts", provinceCode: "MA", zip: "02116", country: "United States", countryCode: "US" },
  {
    address1: "1421 Larimer St",
    address2: "Unit 210",
    city: "Denver",
    province: "Colorado",
    provinceCode: "CO",
    zip: "80202",
    country: "United States",
    countryCode: "US",
  },
  {
    address1: "88 Colin P Kelly Jr St",
    city: "San Francisco",
    province: "California",
    provinceCode: "CA",
    zip: "94107",
    country: "United States",
    countryCode: "US",
  },
  { address1: "3201 NE Sandy Blvd", city: "Portland", province: "Oregon", provinceCode: "OR", zip: "97232", country: "United States", countryCode: "US" },
  { address1: "415 Main St", city: "Burlington", province: "Vermont", provinceCode: "VT", zip: "05401", country: "United States", countryCode: "US" },
  { address1: "1200 Peachtree St NE", city: "Atlanta", province: "Georgia", provinceCode: "GA", zip: "30309", country: "United States", countryCode: "US" },
];

const BUSINESS_ADDRESSES: Omit<Address, "firstName" | "lastName" | "phone">[] = [
  {
    company: "Northwind Outfitters LLC",
    address1: "233 S Wacker Dr",
    address2: "Suite 4400",
    city: "Chicago",
    province: "Illinois",
    provinceCode: "IL",
    zip: "60606",
    country: "United States",
    countryCode: "US",
  },
  {
    company: "Bluebird Café",
    address1: "1 Pike Pl",
    city: "Seattle",
    province: "Washington",
    provinceCode: "WA",
    zip: "98101",
    country: "United States",
    countryCode: "US",
  },
  {
    company: "Tidewater Design Studio",
    address1: "4 Pennsylvania Plaza",
    address2: "Floor 12",
    city: "New York",
    province: "New York",
    provinceCode: "NY",
    zip: "10001",
    country: "United States",
    countryCode: "US",
  },
];

/** US area codes in service, for seeded phone numbers that are real numbers' shape. */
const US_AREA_CODES = [201, 206, 212, 213, 214, 303, 305, 312, 404, 415, 503, 512, 602, 617, 702, 718, 773, 801, 808, 907] as const;

/** A phone number of the destination's country, as a customer there types it (four random digits at the end). */
const INTL_PHONE_PREFIXES: Record<string, string> = {
  GB: "+44 20 7946 ",
  CA: "+1 416-555-",
  CA_BC: "+1 604-555-",
  DE: "+49 30 901820",
  AU: "+61 2 9374 ",
  JP: "+81 3 3201 ",
};

function intlPhone(key: string, _country: number, _area: number, last: number): string {
  return `${INTL_PHONE_PREFIXES[key] ?? "+44 20 7946 "}${last}`;
}

const INTERNATIONAL: Record<string, Omit<Address, "firstName" | "lastName" | "phone" | "company">> = {
  GB: { address1: "221B Baker Street", city: "London", zip: "NW1 6XE", country: "United Kingdom", countryCode: "GB" },
  CA: { address1: "290 Bremner Blvd", city: "Toronto", province: "Ontario", provinceCode: "ON", zip: "M5V 3L9", country: "Canada", countryCode: "CA" },
  CA_BC: {
    address1: "1055 W Georgia St",
    address2: "Suite 1500",
    city: "Vancouver",
    province: "British Columbia",
    provinceCode: "BC",
    zip: "V6E 3P3",
    country: "Canada",
    countryCode: "CA",
  },
  DE: { address1: "Friedrichstraße 68", city: "Berlin", zip: "10117", country: "Germany", countryCode: "DE" },
  AU: { address1: "1 Macquarie St", city: "Sydney", province: "New South Wales", provinceCode: "NSW", zip: "2000", country: "Australia", countryCode: "AU" },
  JP: { address1: "千代田区丸の内1-9-1", city: "東京", province: "Tokyo", provinceCode: "JP-13", zip: "100-0005", country: "Japan", countryCode: "JP" },
};

const FIRST = [
  "Olivia",
  "Liam",
  "Amara",
  "Noah",
  "Priya",
  "Mateo",
  "Hannah",
  "Kenji",
  "Sofia",
  "Elijah",
  "Chloé",
  "Darius",
  "Ingrid",
  "Tomás",
  "Aaliyah",
  "Wei",
];
const LAST = [
  "Bennett",
  "Okafor",
  "Nguyen",
  "García",
  "Patel",
  "Schmidt",
  "O'Connell",
  "Kowalski",
  "Haddad",
  "Johansson",
  "Reyes",
  "Fischer",
  "Tanaka",
  "Brooks",
];
const TAGS = ["priority", "gift", "wholesale", "vip", "fragile", "subscription"];

const SHIPPING: Record<string, ShippingLineData> = {
  standard: { title: "Standard Shipping", code: "STANDARD", source: "shopify", carrierIdentifier: null, price: "6.95" },
  express: { title: "UPS 2nd Day Air", code: "02", source: "ups_shipping", carrierIdentifier: "ups", price: "18.40" },
  priority: { title: "USPS Priority Mail", code: "Priority", source: "usps", carrierIdentifier: "usps", price: "9.85" },
  international: { title: "International Shipping", code: "INTL", source: "shopify", carrierIdentifier: null, price: "24.00" },
  free: { title: "Free Shipping", code: "FREE", source: "shopify", carrierIdentifier: null, price: "0.00" },
};

interface Catalog {
  variants: { id: number; sku: string; productTitle: string }[];
  bySku: Map<string, number>;
  locations: { main: number; west: number; thirdParty: number };
}

function seedShopAndCatalog(store: Store, shopDomain: string): Catalog {
  store.insertShop({
    name: "Consign Demo Store",
    email: "owner@consign-demo.example",
    myshopify_domain: shopDomain,
    currency_code: "USD",
    weight_unit: "POUNDS",
    unit_system: "IMPERIAL_SYSTEM",
    iana_timezone: "America/New_York",
    address: {
      company: "Consign Demo Store",
      address1: "55 Water St",
      address2: "Floor 3",
      city: "Brooklyn",
      province: "New York",
      provinceCode: "NY",
      zip: "11201",
      country: "United States",
      countryCode: "US",
      phone: "+1 718-555-0100",
    },
  });
  store.insertStaffUser({ id: 1, first_name: "Dana", last_name: "Rivera", email: "dana@consign-demo.example", account_owner: 1, locale: "en" });
  store.insertStaffUser({ id: 2, first_name: "Sam", last_name: "Lee", email: "sam@consign-demo.example", account_owner: 0, locale: "en" });
  const main = store.insertLocation({
    name: "Brooklyn Warehouse",
    address1: "55 Water St",
    address2: "Floor 3",
    city: "Brooklyn",
    province: "New York",
    province_code: "NY",
    zip: "11201",
    country: "United States",
    country_code: "US",
    phone: "+1 718-555-0100",
    is_active: 1,
    fulfills_online_orders: 1,
    is_fulfillment_service: 0,
    fulfillment_service_handle: null,
  });
  const west = store.insertLocation({
    name: "Oakland Studio",
    address1: "2150 Broadway",
    address2: null,
    city: "Oakland",
    province: "California",
    province_code: "CA",
    zip: "94612",
    country: "United States",
    country_code: "US",
    phone: "+1 510-555-0144",
    is_active: 1,
    fulfills_online_orders: 1,
    is_fulfillment_service: 0,
    fulfillment_service_handle: null,
  });
  const thirdParty = store.insertLocation({
    name: "ParcelPro Fulfillment",
    address1: "1 Logistics Way",
    address2: null,
    city: "Joliet",
    province: "Illinois",
    province_code: "IL",
    zip: "60436",
    country: "United States",
    country_code: "US",
    phone: "+1 815-555-0190",
    is_active: 1,
    fulfills_online_orders: 1,
    is_fulfillment_service: 1,
    fulfillment_service_handle: "parcelpro-fulfillment",
  });
  const variants: Catalog["variants"] = [];
  const bySku = new Map<string, number>();
  for (const spec of PRODUCTS) {
    const productId = store.insertProduct({
      title: spec.title,
      vendor: spec.vendor,
      product_type: spec.type,
      handle: spec.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
    });
    spec.variants.forEach((v, i) => {
      const { variantId } = store.insertVariant({
        product_id: productId,
        title: v.title,
        sku: v.sku,
        price: v.price,
        position: i + 1,
        weight_unit: spec.unit,
        weight_value: spec.weight,
        harmonized_system_code: spec.hs,
        country_code_of_origin: spec.origin,
        province_code_of_origin: spec.originProvince ?? null,
        requiresShipping: spec.requiresShipping,
        countryHsCodes: spec.countryHs,
      });
      if (spec.requiresShipping !== false) variants.push({ id: variantId, sku: v.sku, productTitle: spec.title });
      bySku.set(v.sku, variantId);
    });
  }
  return { variants, bySku, locations: { main, west, thirdParty } };
}

type Scenario = {
  order: NewOrderInput;
  after?: (orderId: number) => void;
};

function fulfillAll(store: Store, orderId: number, tracking: { company: string; number: string } | null, quantities?: number[]): number | null {
  const fo = store.listFulfillmentOrders(orderId)[0];
  if (!fo) return null;
  const lines = store.listFoLineItems(fo.id);
  const items = quantities ? lines.map((l, i) => ({ id: l.id, quantity: quantities[i] ?? 0 })).filter((i) => i.quantity > 0) : null;
  const outcome = fulfillmentCreate(store, {
    lineItemsByFulfillmentOrder: [
      { fulfillmentOrderId: fo.id, fulfillmentOrderGid: `gid://shopify/FulfillmentOrder/${fo.id}`, fulfillmentOrderLineItems: items },
    ],
    notifyCustomer: true,
    trackingInfo: tracking,
    message: null,
  });
  if (!outcome.ok) throw new Error(`Seed fulfillment failed: ${outcome.userErrors.map((e) => e.message).join("; ")}`);
  return outcome.value.fulfillmentId;
}

/** Seeds an empty store. Refuses a store that already has a shop (the run command only seeds empty stores). */
export function seedStore(store: Store, options: SeedOptions = {}): { orders: number } {
  if (!store.isEmpty()) throw new Error("The store already has data; seed only an empty store (delete the database file to reseed).");
  const count = Math.max(0, Math.min(options.orders ?? DEFAULT_SEED_ORDERS, MAX_SEED_ORDERS));
  const rand = prng(options.seed ?? 20261021);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const now = store.clock();
  const daysAgo = (days: number, hour = int(8, 20)) => {
    const d = new Date(now - days * 86_400_000);
    d.setUTCHours(hour, int(0, 59), int(0, 59), 0);
    return toShopifyDateTime(d);
  };
  const person = () => ({ firstName: pick(FIRST), lastName: pick(LAST) });
  // Real area codes (carriers and Consign check numbers as libphonenumber does); as many draws as before, so the rest of the seed is unchanged.
  const phone = () => `+1 ${US_AREA_CODES[int(201, 989) % US_AREA_CODES.length]}-555-${String(int(100, 9999)).padStart(4, "0")}`;
  const emailFor = (p: { firstName: string; lastName: string }, n: number) =>
    `${p.firstName}.${p.lastName}${n}`
      .toLowerCase()
      .normalize("NFD")
      .replace(/[^a-z0-9.]/g, "") + "@example.com";

  store.muted(() =>
    store.transaction(() => {
      const catalog = seedShopAndCatalog(store, options.shopDomain ?? "consign-demo.myshopify.com");
      const sku = (s: string) => {
        const id = catalog.bySku.get(s);
        if (id === undefined) throw new Error(`Seed catalog lacks ${s}`);
        return id;
      };
      const { main, west, thirdParty } = catalog.locations;
      const us = (i: number, extra: Partial<Address> = {}): Address => ({
        ...person(),
        ...(US_ADDRESSES[i % US_ADDRESSES.length] as Address),
        phone: phone(),
        ...extra,
      });
      const intl = (key: string, extra: Partial<Address> = {}): Address => ({
        ...person(),
        ...(INTERNATIONAL[key] as Address),
        phone: intlPhone(key, int(30, 81), int(100, 999), int(1000, 9999)),
        ...extra,
      });

      const scenarios: Scenario[] = [
        // domestic residential, one item, a gift: the theme's "Gift message" attribute and a delivery note
        {
          order: {
            shippingAddress: us(0),
            shippingLine: SHIPPING.standard!,
            note: "Please leave the parcel with the neighbour at number 12 if nobody is home, not on the porch.",
            customAttributes: [{ key: "Gift message", value: "Happy birthday, Sam! A tote for the farmers' market on Saturdays. Love, Aunt Ruth" }],
            lines: [{ variantId: sku("TOTE-NAT"), quantity: 1 }],
          },
        },
        // domestic business (company set), multi-item
        {
          order: {
            shippingAddress: { ...person(), ...(BUSINESS_ADDRESSES[0] as Address), phone: phone() },
            shippingLine: SHIPPING.express!,
            tags: ["wholesale"],
            lines: [
              { variantId: sku("MUG-SPK"), quantity: 6 },
              { variantId: sku("POUR-SET"), quantity: 2 },
              { variantId: sku("COFFEE-WB"), quantity: 4 },
            ],
          },
        },
        // quantities > 1, heavy
        { order: { shippingAddress: us(1), shippingLine: SHIPPING.priority!, lines: [{ variantId: sku("SKILLET-10"), quantity: 3 }] } },
        // the same SKU on two lines (a second line at a different price, e.g. a promotion)
        {
          order: {
            shippingAddress: us(2),
            shippingLine: SHIPPING.standard!,
            note: "Second mug is the promo one",
            lines: [
              { variantId: sku("MUG-MID"), quantity: 1 },
              { variantId: sku("MUG-MID"), quantity: 2, price: "17.60" },
            ],
          },
        },
        // international
        {
          order: {
            shippingAddress: intl("GB"),
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "GBP",
            lines: [
              { variantId: sku("BEANIE-CHR"), quantity: 2 },
              { variantId: sku("POSTER-LIS"), quantity: 1 },
            ],
          },
        },
        {
          order: {
            shippingAddress: intl("CA"),
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "CAD",
            lines: [{ variantId: sku("TRAIL-09"), quantity: 1 }],
          },
        },
        {
          order: {
            shippingAddress: intl("CA_BC", { company: "Salish Sea Provisions" }),
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "CAD",
            lines: [{ variantId: sku("COFFEE-GR"), quantity: 5 }],
          },
        },
        {
          order: {
            shippingAddress: intl("DE"),
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "EUR",
            lines: [{ variantId: sku("LAMP-BRS"), quantity: 1 }],
          },
        },
        {
          order: {
            shippingAddress: intl("AU"),
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "AUD",
            lines: [
              { variantId: sku("APRON-SAGE"), quantity: 1 },
              { variantId: sku("TOTE-BLK"), quantity: 1 },
            ],
          },
        },
        {
          order: {
            shippingAddress: intl("JP", { firstName: "太郎", lastName: "山田" }),
            email: "taro.yamada@example.jp",
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "JPY",
            lines: [{ variantId: sku("POUR-SET"), quantity: 1 }],
          },
        },
        // long names and non-ASCII
        {
          order: {
            shippingAddress: intl("DE", {
              firstName: "Zoë",
              lastName: "Müller-Łukasiewicz",
              company: "Überlandwerk Nord-Ostsee Logistik- und Versandgesellschaft mbH",
              address2: "Hinterhaus, 4. Obergeschoss links, bei Familie Øster-Ångström",
            }),
            email: "zoe.mueller@example.de",
            note: "Bitte beim Nachbarn im Erdgeschoss abgeben, falls niemand zu Hause ist.",
            customAttributes: [
              { key: "gift_wrap", value: "yes" },
              { key: "gift_message", value: "Alles Gute zum Geburtstag, liebe Zoë! Viel Freude mit der Mütze im Winter. Deine Łucja" },
            ],
            shippingLine: SHIPPING.international!,
            presentmentCurrencyCode: "EUR",
            lines: [
              { variantId: sku("STICKERS"), quantity: 3 },
              { variantId: sku("BEANIE-RST"), quantity: 1 },
            ],
          },
        },
        // partially fulfilled: 1 of 3 units shipped with tracking
        {
          order: {
            shippingAddress: us(3),
            shippingLine: SHIPPING.express!,
            lines: [
              { variantId: sku("COFFEE-WB"), quantity: 3 },
              { variantId: sku("TOTE-NAT"), quantity: 1 },
            ],
          },
          after: (id) => fulfillAll(store, id, { company: "UPS", number: "1Z999AA10123456784" }, [1, 0]),
        },
        // fully fulfilled with carrier events
        {
          order: { shippingAddress: us(4), shippingLine: SHIPPING.priority!, lines: [{ variantId: sku("MUG-SPK"), quantity: 2 }] },
          after: (id) => {
            const fid = fulfillAll(store, id, { company: "USPS", number: "9400111899223197428490" });
            if (fid === null) return;
            fulfillmentEventCreate(store, {
              fulfillmentId: fid,
              status: "IN_TRANSIT",
              happenedAt: daysAgo(2),
              city: "Jersey City",
              province: "NJ",
              country: "US",
            });
            fulfillmentEventCreate(store, {
              fulfillmentId: fid,
              status: "OUT_FOR_DELIVERY",
              happenedAt: daysAgo(1),
              city: "San Francisco",
              province: "CA",
              country: "US",
            });
          },
        },
        // on hold
        {
          order: { shippingAddress: us(5), shippingLine: SHIPPING.standard!, tags: ["fraud-review"], lines: [{ variantId: sku("LAMP-BRS"), quantity: 2 }] },
          after: (id) => {
            const fo = store.listFulfillmentOrders(id)[0];
            if (fo)
              fulfillmentOrderHold(store, fo.id, {
                reason: "HIGH_RISK_OF_FRAUD",
                reasonNotes: "Billing and shipping countries differ; verify with the customer",
              });
          },
        },
        // assigned to a third-party fulfillment service
        {
          order: { shippingAddress: us(6), shippingLine: SHIPPING.standard!, lines: [{ variantId: sku("TRAIL-10"), quantity: 1, locationId: thirdParty }] },
          after: (id) => {
            const fo = store.listFulfillmentOrders(id)[0];
            if (fo) store.sql("UPDATE fulfillment_orders SET request_status = 'ACCEPTED', status = 'IN_PROGRESS' WHERE id = ?").run(fo.id);
            store.recomputeOrder(id, { touch: false });
          },
        },
        // local pickup (no shipping address)
        {
          order: {
            shippingAddress: null,
            billingAddress: us(7),
            email: "pickup.customer@example.com",
            deliveryMethod: "PICK_UP",
            shippingLine: { title: "Pickup at Brooklyn Warehouse", code: "PICKUP", source: "shopify", carrierIdentifier: null, price: "0.00" },
            lines: [{ variantId: sku("SKILLET-10"), quantity: 1 }],
          },
        },
        // missing phone (order and address)
        {
          order: {
            shippingAddress: us(0, { phone: null }),
            phone: null,
            shippingLine: SHIPPING.standard!,
            lines: [{ variantId: sku("APRON-SAGE"), quantity: 2 }],
          },
        },
        // missing weight (product with weight 0, no HS code)
        { order: { shippingAddress: us(1), shippingLine: SHIPPING.free!, lines: [{ variantId: sku("PINS-SET"), quantity: 2 }] } },
        // PO box
        {
          order: {
            shippingAddress: {
              ...person(),
              address1: "PO Box 1234",
              city: "Juneau",
              province: "Alaska",
              provinceCode: "AK",
              zip: "99801",
              country: "United States",
              countryCode: "US",
              phone: phone(),
            },
            shippingLine: SHIPPING.priority!,
            lines: [{ variantId: sku("BEANIE-CHR"), quantity: 1 }],
          },
        },
        // two locations → two fulfillment orders
        {
          order: {
            shippingAddress: us(2),
            shippingLine: SHIPPING.standard!,
            lines: [
              { variantId: sku("TOTE-BLK"), quantity: 1, locationId: main },
              { variantId: sku("POSTER-KYO"), quantity: 2, locationId: west },
            ],
          },
        },
        // an address Shopify's validation flags (bad ZIP)
        { order: { shippingAddress: us(3, { zip: "8020" }), shippingLine: SHIPPING.standard!, lines: [{ variantId: sku("STICKERS"), quantity: 1 }] } },
        // a gift card alongside a shippable item, and a test order
        {
          order: {
            shippingAddress: us(4),
            shippingLine: SHIPPING.standard!,
            test: true,
            lines: [
              { variantId: sku("GIFT-50"), quantity: 1 },
              { variantId: sku("MUG-SPK"), quantity: 1 },
            ],
          },
        },
        // cancelled
        {
          order: { shippingAddress: us(5), shippingLine: SHIPPING.standard!, lines: [{ variantId: sku("TOTE-NAT"), quantity: 2 }] },
          after: (id) => orderCancel(store, id, "CUSTOMER", "Customer changed their mind"),
        },
        // scheduled (a pre-order that ships in five days)
        {
          order: { shippingAddress: us(6), shippingLine: SHIPPING.standard!, tags: ["pre-order"], lines: [{ variantId: sku("POSTER-KYO"), quantity: 1 }] },
          after: (id) => {
            const fo = store.listFulfillmentOrders(id)[0];
            if (fo)
              store.sql("UPDATE fulfillment_orders SET status = 'SCHEDULED', fulfill_at = ? WHERE id = ?").run(toShopifyDateTime(now + 5 * 86_400_000), fo.id);
            store.recomputeOrder(id, { touch: false });
          },
        },
      ];

      for (let i = 0; i < count; i++) {
        const created = daysAgo(Math.max(0, 50 - Math.floor((i * 50) / Math.max(count, 1))));
        const scenario = scenarios[i];
        if (scenario) {
          const p = scenario.order.shippingAddress ?? scenario.order.billingAddress ?? person();
          const input: NewOrderInput = {
            email: emailFor({ firstName: p.firstName ?? "guest", lastName: p.lastName ?? "" }, i),
            phone: scenario.order.shippingAddress?.phone ?? null,
            ...scenario.order,
            createdAt: created,
          };
          const id = store.createOrder(input);
          scenario.after?.(id);
          continue;
        }
        const r = rand();
        const address =
          r < 0.7
            ? us(int(0, 7))
            : r < 0.78
              ? { ...person(), ...(BUSINESS_ADDRESSES[int(0, 2)] as Address), phone: phone() }
              : intl(pick(Object.keys(INTERNATIONAL)));
        const lineCount = int(1, 4);
        const lines = Array.from({ length: lineCount }, () => ({ variantId: pick(catalog.variants).id, quantity: rand() < 0.75 ? 1 : int(2, 4) }));
        const tags = rand() < 0.3 ? [pick(TAGS)] : [];
        const id = store.createOrder({
          createdAt: created,
          email: emailFor({ firstName: address.firstName ?? "guest", lastName: address.lastName ?? "" }, i),
          phone: rand() < 0.8 ? (address.phone ?? null) : null,
          tags,
          shippingAddress: address,
          presentmentCurrencyCode:
            address.countryCode === "US"
              ? "USD"
              : address.countryCode === "GB"
                ? "GBP"
                : address.countryCode === "CA"
                  ? "CAD"
                  : address.countryCode === "AU"
                    ? "AUD"
                    : address.countryCode === "JP"
                      ? "JPY"
                      : "EUR",
          shippingLine:
            address.countryCode === "US" ? pick([SHIPPING.standard!, SHIPPING.express!, SHIPPING.priority!, SHIPPING.free!]) : SHIPPING.international!,
          lines,
        });
        const state = rand();
        const carrier = pick([
          { company: "UPS", prefix: "1Z999AA1" },
          { company: "USPS", prefix: "94001118992231" },
          { company: "FedEx", prefix: "7946" },
        ]);
        const tracking = { company: carrier.company, number: `${carrier.prefix}${String(int(10_000_000, 99_999_999))}` };
        if (state < 0.25) fulfillAll(store, id, tracking);
        else if (state < 0.33 && lines.some((l) => l.quantity > 1)) {
          fulfillAll(
            store,
            id,
            tracking,
            lines.map((l) => (l.quantity > 1 ? 1 : 0)),
          );
        } else if (state < 0.36) {
          const fo = store.listFulfillmentOrders(id)[0];
          if (fo) fulfillmentOrderHold(store, fo.id, { reason: pick(["AWAITING_PAYMENT", "INCORRECT_ADDRESS", "OTHER"]), reasonNotes: null });
        }
      }
    }),
  );
  return { orders: count };
}
