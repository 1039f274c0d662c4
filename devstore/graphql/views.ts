import { GraphQLError } from "graphql";
import { parseGidOrThrow, toGid } from "../gid.js";
import { filterFulfillmentOrders, isDisplayable, supportedActions } from "../store/fulfillments.js";
import type { Store } from "../store/store.js";
import type {
  Address,
  BulkOperationRow,
  CustomerRow,
  FoLineItemRow,
  FulfillmentEventRow,
  FulfillmentLineItemRow,
  FulfillmentOrderRow,
  FulfillmentRow,
  HoldRow,
  InventoryItemRow,
  LineItemRow,
  LocationRow,
  OrderRow,
  ProductRow,
  ReturnLineItemRow,
  ReturnRow,
  ReverseDeliveryLineItemRow,
  ReverseDeliveryRow,
  ReverseFulfillmentOrderLineItemRow,
  ReverseFulfillmentOrderRow,
  ShippingLineData,
  VariantRow,
} from "../store/types.js";
import { paginate, type ConnectionArgs, type PageContext } from "./connection.js";
import { validateAddress } from "./address-validation.js";
import { matchesTimeSearch } from "./order-search.js";
import { toGrams } from "./weights.js";

const ACCESS_SCOPES_DOCS = "https://shopify.dev/api/usage/access-scopes";

/** Shopify's refusal of a field the app's granted scopes do not reach (a top-level error; the field answers null). */
export function requireScope(ctx: Pick<ResolverContext, "grantedScopes">, field: string, scope: string): void {
  if (ctx.grantedScopes.has(scope)) return;
  const requiredAccess = `\`${scope}\` access scope.`;
  throw new GraphQLError(`Access denied for ${field} field. Required access: ${requiredAccess}`, {
    extensions: { code: "ACCESS_DENIED", documentation: ACCESS_SCOPES_DOCS, requiredAccess },
  });
}

/**
 * GraphQL views over store rows. A view is a plain object: a property is a field's value, a function property is
 * called with (args, context). The executor's field resolver refuses any field a view doesn't define, so an
 * unsupported field is an explicit error rather than a silent null.
 */

export type View = Record<string, unknown>;

export interface ResolverContext extends PageContext {
  store: Store;
  /** Base URL of this local admin (for bulk operation result URLs). */
  origin: string;
  startBulkOperation: (query: string) => { id: number } | { userError: string; code: string };
  searchExtensions: { path: (string | number)[]; query: string; warnings: { field: string; message: string }[] }[];
  /** The scopes the request's access token carries (the installation's required and granted optional ones). */
  grantedScopes: ReadonlySet<string>;
}

type Args = Record<string, unknown>;

const connArgs = (args: Args): ConnectionArgs => args as ConnectionArgs;
const bool = (n: number): boolean => n === 1;

function money(amount: string | number, shopCurrency: string, presentmentCurrency: string): View {
  const value = typeof amount === "number" ? amount.toFixed(2) : amount;
  return {
    shopMoney: { amount: value, currencyCode: shopCurrency },
    presentmentMoney: { amount: value, currencyCode: presentmentCurrency },
  };
}

const COUNTRY_NAMES: Record<string, string> = {
  US: "United States",
  CA: "Canada",
  GB: "United Kingdom",
  DE: "Germany",
  AU: "Australia",
  JP: "Japan",
  FR: "France",
  MX: "Mexico",
};

export const countryName = (code: string): string => COUNTRY_NAMES[code] ?? code;

function formattedAddress(a: Address, withName: boolean, withCompany: boolean): string[] {
  const name = [a.firstName, a.lastName].filter(Boolean).join(" ");
  const area = [a.city, a.provinceCode ?? a.province, a.zip].filter(Boolean).join(" ");
  return [withName ? name : null, withCompany ? a.company : null, a.address1, a.address2, area, a.country ?? countryName(a.countryCode)].filter(
    (s): s is string => Boolean(s),
  );
}

export function mailingAddressView(a: Address, idSource: string): View {
  return {
    id: `gid://shopify/MailingAddress/${idSource}?model_name=Address`,
    name: [a.firstName, a.lastName].filter(Boolean).join(" ") || null,
    firstName: a.firstName ?? null,
    lastName: a.lastName ?? null,
    company: a.company ?? null,
    address1: a.address1 ?? null,
    address2: a.address2 ?? null,
    city: a.city ?? null,
    province: a.province ?? null,
    provinceCode: a.provinceCode ?? null,
    zip: a.zip ?? null,
    country: a.country ?? countryName(a.countryCode),
    countryCodeV2: a.countryCode,
    countryCode: a.countryCode,
    phone: a.phone ?? null,
    latitude: null,
    longitude: null,
    coordinatesValidated: false,
    timeZone: null,
    formattedArea: [a.city, a.province, a.country ?? countryName(a.countryCode)].filter(Boolean).join(", "),
    formatted: (args: Args) => formattedAddress(a, args.withName === true, args.withCompany !== false),
    validationResultSummary: validateAddress(a),
  };
}

export function shopView(store: Store): View {
  const shop = store.getShop();
  const address = store.shopAddress();
  const owner = store.accountOwner();
  return {
    id: toGid("Shop", shop.id),
    name: shop.name,
    email: shop.email,
    contactEmail: shop.email,
    myshopifyDomain: shop.myshopify_domain,
    url: `https://${shop.myshopify_domain}`,
    currencyCode: shop.currency_code,
    enabledPresentmentCurrencies: [shop.currency_code],
    weightUnit: shop.weight_unit,
    unitSystem: shop.unit_system,
    ianaTimezone: shop.iana_timezone,
    createdAt: shop.created_at,
    shopOwnerName: owner ? `${owner.first_name} ${owner.last_name}` : shop.name,
    shopAddress: {
      ...mailingAddressView(address, "shop"),
      id: toGid("ShopAddress", shop.id),
      name: null,
      firstName: null,
      lastName: null,
      formatted: (args: Args) => formattedAddress(address, false, args.withCompany !== false),
    },
  };
}

export function locationView(store: Store, loc: LocationRow): View {
  const address = {
    address1: loc.address1,
    address2: loc.address2,
    city: loc.city,
    province: loc.province,
    provinceCode: loc.province_code,
    zip: loc.zip,
    country: loc.country ?? countryName(loc.country_code),
    countryCode: loc.country_code,
    phone: loc.phone,
    latitude: null,
    longitude: null,
    formatted: formattedAddress({ ...loc, provinceCode: loc.province_code, countryCode: loc.country_code }, false, false),
  };
  return {
    id: toGid("Location", loc.id),
    legacyResourceId: String(loc.id),
    name: loc.name,
    address,
    isActive: bool(loc.is_active),
    activatable: !bool(loc.is_active),
    deactivatable: bool(loc.is_active),
    fulfillsOnlineOrders: bool(loc.fulfills_online_orders),
    isFulfillmentService: bool(loc.is_fulfillment_service),
    shipsInventory: !bool(loc.is_fulfillment_service),
    hasActiveInventory: true,
    addressVerified: true,
    createdAt: loc.created_at,
    updatedAt: loc.updated_at,
    hasUnfulfilledOrders: () =>
      store.sql("SELECT 1 FROM fulfillment_orders WHERE assigned_location_id = ? AND status IN ('OPEN','IN_PROGRESS','ON_HOLD') LIMIT 1").get(loc.id) !==
      undefined,
  };
}

function weightView(unit: string, value: number): View {
  return { unit, value };
}

export function inventoryItemView(store: Store, item: InventoryItemRow): View {
  return {
    id: toGid("InventoryItem", item.id),
    legacyResourceId: String(item.id),
    sku: item.sku,
    requiresShipping: bool(item.requires_shipping),
    tracked: bool(item.tracked),
    harmonizedSystemCode: item.harmonized_system_code,
    countryCodeOfOrigin: item.country_code_of_origin,
    provinceCodeOfOrigin: item.province_code_of_origin,
    createdAt: item.created_at,
    updatedAt: item.updated_at,
    measurement: { id: toGid("InventoryItemMeasurement", item.id), weight: weightView(item.weight_unit, item.weight_value) },
    countryHarmonizedSystemCodes: (args: Args, ctx: ResolverContext) =>
      paginate(store.listCountryHsCodes(item.id), connArgs(args), ctx, (row) => ({
        countryCode: row.country_code,
        harmonizedSystemCode: row.harmonized_system_code,
      })),
    duplicateSkuCount: () =>
      item.sku ? (store.sql("SELECT COUNT(*) AS n FROM inventory_items WHERE sku = ? AND id <> ?").get(item.sku, item.id) as { n: number }).n : 0,
    variant: () => {
      const v = store.variantForInventoryItem(item.id);
      return v ? variantView(store, v) : null;
    },
  };
}

export function variantView(store: Store, v: VariantRow): View {
  const product = store.getProduct(v.product_id);
  return {
    id: toGid("ProductVariant", v.id),
    legacyResourceId: String(v.id),
    title: v.title,
    displayName: product ? `${product.title} - ${v.title}` : v.title,
    sku: v.sku,
    price: v.price,
    position: v.position,
    createdAt: v.created_at,
    updatedAt: v.updated_at,
    product: () => (product ? productView(store, product) : null),
    inventoryItem: () => {
      const item = store.getInventoryItem(v.inventory_item_id);
      return item ? inventoryItemView(store, item) : null;
    },
  };
}

export function productView(store: Store, p: ProductRow): View {
  return {
    id: toGid("Product", p.id),
    legacyResourceId: String(p.id),
    title: p.title,
    vendor: p.vendor,
    productType: p.product_type,
    handle: p.handle,
    status: p.status,
    tags: [],
    createdAt: p.created_at,
    updatedAt: p.updated_at,
    hasOnlyDefaultVariant: () => store.listVariants(p.id).length === 1,
    variants: (args: Args, ctx: ResolverContext) => paginate(store.listVariants(p.id), connArgs(args), ctx, (v) => variantView(store, v)),
  };
}

export function lineItemName(line: LineItemRow): string {
  return line.variant_title ? `${line.title} - ${line.variant_title}` : line.title;
}

export function lineItemView(store: Store, line: LineItemRow, order?: OrderRow): View {
  const o = order ?? store.getOrder(line.order_id);
  const shopCurrency = o?.currency_code ?? "USD";
  const presentment = o?.presentment_currency_code ?? shopCurrency;
  const fulfilled = () => Math.min(line.quantity, store.fulfilledQuantities(line.order_id).get(line.id) ?? 0);
  const unitWeight = store.lineItemWeight(line);
  return {
    id: toGid("LineItem", line.id),
    name: lineItemName(line),
    title: line.title,
    variantTitle: line.variant_title,
    sku: line.sku,
    vendor: line.vendor,
    quantity: line.quantity,
    currentQuantity: line.quantity,
    refundableQuantity: line.quantity,
    nonFulfillableQuantity: 0,
    unfulfilledQuantity: () => line.quantity - fulfilled(),
    fulfillableQuantity: () => (o?.cancelled_at ? 0 : line.quantity - fulfilled()),
    fulfillmentStatus: () => {
      const f = fulfilled();
      return f === 0 ? "unfulfilled" : f >= line.quantity ? "fulfilled" : "partial";
    },
    requiresShipping: bool(line.requires_shipping),
    isGiftCard: false,
    taxable: true,
    merchantEditable: true,
    restockable: true,
    weight: unitWeight ? weightView(unitWeight.unit, unitWeight.value) : null,
    originalUnitPriceSet: money(line.price, shopCurrency, presentment),
    discountedUnitPriceSet: money(line.price, shopCurrency, presentment),
    originalTotalSet: money(Number(line.price) * line.quantity, shopCurrency, presentment),
    discountedTotalSet: money(Number(line.price) * line.quantity, shopCurrency, presentment),
    variant: () => {
      const v = line.variant_id === null ? undefined : store.getVariant(line.variant_id);
      return v ? variantView(store, v) : null;
    },
    product: () => {
      const v = line.variant_id === null ? undefined : store.getVariant(line.variant_id);
      const p = v ? store.getProduct(v.product_id) : undefined;
      return p ? productView(store, p) : null;
    },
  };
}

function shippingLineView(data: ShippingLineData, order: OrderRow): View {
  const price = money(data.price, order.currency_code, order.presentment_currency_code);
  return {
    title: data.title,
    code: data.code,
    source: data.source,
    carrierIdentifier: data.carrierIdentifier,
    custom: data.source === null,
    isRemoved: false,
    deliveryCategory: null,
    originalPriceSet: price,
    discountedPriceSet: price,
    currentDiscountedPriceSet: price,
  };
}

/** Total weight in grams of the order's shippable units (Order.totalWeight is UnsignedInt64 grams). */
function orderWeightGrams(store: Store, lines: LineItemRow[]): string {
  let grams = 0;
  for (const line of lines) {
    if (line.requires_shipping !== 1) continue;
    const w = store.lineItemWeight(line);
    if (w) grams += toGrams(w.unit, w.value) * line.quantity;
  }
  return String(Math.round(grams));
}

/** A customer as an order shows it: who they are, by name and email. */
export function customerView(customer: CustomerRow): View {
  const displayName = [customer.first_name, customer.last_name].filter(Boolean).join(" ") || customer.email;
  return {
    id: toGid("Customer", customer.id),
    legacyResourceId: String(customer.id),
    firstName: customer.first_name,
    lastName: customer.last_name,
    displayName,
    email: customer.email,
    createdAt: customer.created_at,
  };
}

export function orderView(store: Store, order: OrderRow): View {
  const lines = () => store.listLineItems(order.id);
  const subtotal = () => lines().reduce((sum, l) => sum + Number(l.price) * l.quantity, 0);
  const shippingLine = order.shipping_line_json ? (JSON.parse(order.shipping_line_json) as ShippingLineData) : null;
  const shippingAddress = order.shipping_address_json ? (JSON.parse(order.shipping_address_json) as Address | null) : null;
  const billingAddress = order.billing_address_json ? (JSON.parse(order.billing_address_json) as Address | null) : null;
  const m = (amount: number | string) => money(amount, order.currency_code, order.presentment_currency_code);
  const shippingPrice = Number(shippingLine?.price ?? 0);
  return {
    id: toGid("Order", order.id),
    legacyResourceId: String(order.id),
    name: order.name,
    number: order.number,
    email: order.email,
    phone: order.phone,
    note: order.note,
    customAttributes: JSON.parse(order.custom_attributes_json) as { key: string; value: string | null }[],
    tags: JSON.parse(order.tags_json) as string[],
    test: bool(order.test),
    createdAt: order.created_at,
    processedAt: order.processed_at,
    updatedAt: order.updated_at,
    cancelledAt: order.cancelled_at,
    cancelReason: order.cancel_reason,
    closed: bool(order.closed),
    closedAt: order.closed_at,
    confirmed: true,
    sourceName: "web",
    poNumber: null,
    currencyCode: order.currency_code,
    presentmentCurrencyCode: order.presentment_currency_code,
    displayFulfillmentStatus: order.display_fulfillment_status,
    displayFinancialStatus: "PAID",
    fullyPaid: true,
    unpaid: false,
    fulfillable: !order.cancelled_at && !["FULFILLED", "FULFILLMENT_NOT_REQUIRED"].includes(order.display_fulfillment_status),
    requiresShipping: () => lines().some((l) => l.requires_shipping === 1),
    totalWeight: () => orderWeightGrams(store, lines()),
    currentTotalWeight: () => orderWeightGrams(store, lines()),
    subtotalLineItemsQuantity: () => lines().reduce((s, l) => s + l.quantity, 0),
    currentSubtotalLineItemsQuantity: () => lines().reduce((s, l) => s + l.quantity, 0),
    subtotalPriceSet: () => m(subtotal()),
    currentSubtotalPriceSet: () => m(subtotal()),
    totalShippingPriceSet: m(shippingPrice),
    currentShippingPriceSet: m(shippingPrice),
    totalPriceSet: () => m(subtotal() + shippingPrice),
    currentTotalPriceSet: () => m(subtotal() + shippingPrice),
    totalTaxSet: m(0),
    shippingLine: shippingLine ? shippingLineView(shippingLine, order) : null,
    shippingAddress: shippingAddress ? mailingAddressView(shippingAddress, `${order.id}1`) : null,
    billingAddress: billingAddress ? mailingAddressView(billingAddress, `${order.id}2`) : null,
    customer: () => {
      const customer = order.customer_id === null ? undefined : store.getCustomer(order.customer_id);
      return customer ? customerView(customer) : null;
    },
    lineItems: (args: Args, ctx: ResolverContext) => paginate(lines(), connArgs(args), ctx, (l) => lineItemView(store, l, order)),
    fulfillmentOrders: (args: Args, ctx: ResolverContext) => {
      let fos = store.listFulfillmentOrders(order.id);
      // displayable: FOs the merchant can act on or has acted on (Shopify hides cancelled and closed-without-work ones).
      if (args.displayable === true) fos = fos.filter((fo) => isDisplayable(store, fo));
      if (typeof args.query === "string" && args.query.trim()) fos = filterFulfillmentOrders(fos, args.query);
      return paginate(fos, connArgs(args), ctx, (fo) => fulfillmentOrderView(store, fo));
    },
    // Needs read_returns, as Shopify's does. query: `status:<status>` filters; other filters are ignored.
    returns: (args: Args, ctx: ResolverContext) => {
      requireScope(ctx, "returns", "read_returns");
      const status = typeof args.query === "string" ? /status:(\w+)/i.exec(args.query)?.[1]?.toUpperCase() : undefined;
      const rows = store.listReturns(order.id).filter((row) => status === undefined || row.status === status);
      return paginate(rows, connArgs(args), ctx, (row) => returnView(store, row));
    },
    returnStatus: (_args: Args, ctx: ResolverContext) => {
      requireScope(ctx, "returnStatus", "read_returns");
      return orderReturnStatus(store.listReturns(order.id));
    },
    fulfillments: (args: Args) => {
      const query = typeof args.query === "string" ? args.query : null;
      const all = store.listFulfillments(order.id).filter((f) => matchesTimeSearch(query, { created_at: f.created_at, updated_at: f.updated_at }));
      const first = typeof args.first === "number" ? args.first : all.length;
      return all.slice(0, first).map((f) => fulfillmentView(store, f));
    },
  };
}

const HOLD_REASON_TEXT: Record<string, string> = {
  AWAITING_PAYMENT: "Awaiting payment",
  AWAITING_RETURN_ITEMS: "Awaiting return items",
  HIGH_RISK_OF_FRAUD: "High risk of fraud",
  INCORRECT_ADDRESS: "Incorrect address",
  INVENTORY_OUT_OF_STOCK: "Inventory out of stock",
  ONLINE_STORE_POST_PURCHASE_CROSS_SELL: "Post purchase cross sell",
  UNKNOWN_DELIVERY_DATE: "Unknown delivery date",
  OTHER: "Other",
};

export function holdView(hold: HoldRow): View {
  return {
    id: toGid("FulfillmentHold", hold.id),
    reason: hold.reason,
    reasonNotes: hold.reason_notes,
    handle: hold.handle,
    displayReason: HOLD_REASON_TEXT[hold.reason] ?? hold.reason,
    heldByRequestingApp: bool(hold.held_by_app),
  };
}

export function foLineItemView(store: Store, line: FoLineItemRow): View {
  const li = store.getLineItem(line.line_item_id);
  if (!li) throw new GraphQLError(`Line item ${line.line_item_id} is missing from the local store`);
  const variant = li.variant_id === null ? undefined : store.getVariant(li.variant_id);
  const weight = store.lineItemWeight(li);
  const order = store.getOrder(li.order_id);
  return {
    id: toGid("FulfillmentOrderLineItem", line.id),
    remainingQuantity: line.remaining_quantity,
    totalQuantity: line.total_quantity,
    sku: li.sku,
    productTitle: li.title,
    variantTitle: li.variant_title,
    vendor: li.vendor,
    requiresShipping: bool(li.requires_shipping),
    inventoryItemId: variant ? toGid("InventoryItem", variant.inventory_item_id) : null,
    weight: weight ? weightView(weight.unit, weight.value) : null,
    warnings: [],
    image: null,
    originalUnitPriceSet: money(li.price, order?.currency_code ?? "USD", order?.presentment_currency_code ?? "USD"),
    lineItem: () => lineItemView(store, li, order),
    variant: () => (variant ? variantView(store, variant) : null),
  };
}

export function fulfillmentOrderView(store: Store, fo: FulfillmentOrderRow): View {
  const order = () => store.getOrder(fo.order_id);
  const location = store.getLocation(fo.assigned_location_id);
  return {
    id: toGid("FulfillmentOrder", fo.id),
    orderId: toGid("Order", fo.order_id),
    orderName: () => order()?.name ?? null,
    orderProcessedAt: () => order()?.processed_at ?? null,
    order: () => {
      const o = order();
      return o ? orderView(store, o) : null;
    },
    status: fo.status,
    requestStatus: fo.request_status,
    fulfillAt: fo.fulfill_at,
    fulfillBy: fo.fulfill_by,
    createdAt: fo.created_at,
    updatedAt: fo.updated_at,
    supportedActions: () => supportedActions(store, fo).map((action) => ({ action, externalUrl: null })),
    fulfillmentHolds: () => store.listHolds(fo.id).map(holdView),
    deliveryMethod: {
      id: toGid("DeliveryMethod", fo.id),
      methodType: fo.delivery_method_type,
      serviceCode: fo.delivery_service_code,
      presentedName: fo.delivery_presented_name,
      minDeliveryDateTime: null,
      maxDeliveryDateTime: null,
      sourceReference: null,
    },
    destination: () => {
      const o = order();
      const a = o?.shipping_address_json ? (JSON.parse(o.shipping_address_json) as Address | null) : null;
      if (!o || !a) return null;
      return {
        id: toGid("FulfillmentOrderDestination", fo.id),
        address1: a.address1 ?? null,
        address2: a.address2 ?? null,
        city: a.city ?? null,
        company: a.company ?? null,
        countryCode: a.countryCode,
        email: o.email,
        firstName: a.firstName ?? null,
        lastName: a.lastName ?? null,
        phone: a.phone ?? null,
        province: a.province ?? null,
        zip: a.zip ?? null,
        location: null,
      };
    },
    assignedLocation: location
      ? {
          name: location.name,
          address1: location.address1,
          address2: location.address2,
          city: location.city,
          province: location.province,
          zip: location.zip,
          countryCode: location.country_code,
          phone: location.phone,
          location: locationView(store, location),
        }
      : null,
    remainingLineItemsWeight: () => {
      let grams = 0;
      for (const line of store.listFoLineItems(fo.id)) {
        const li = store.getLineItem(line.line_item_id);
        const w = li ? store.lineItemWeight(li) : null;
        if (w) grams += toGrams(w.unit, w.value) * line.remaining_quantity;
      }
      return weightView("GRAMS", Math.round(grams * 100) / 100);
    },
    lineItems: (args: Args, ctx: ResolverContext) => paginate(store.listFoLineItems(fo.id), connArgs(args), ctx, (line) => foLineItemView(store, line)),
    fulfillments: (args: Args, ctx: ResolverContext) => {
      const rows = store
        .sql(
          "SELECT DISTINCT f.* FROM fulfillments f JOIN fulfillment_line_items fli ON fli.fulfillment_id = f.id WHERE fli.fulfillment_order_id = ? ORDER BY f.id",
        )
        .all(fo.id) as FulfillmentRow[];
      return paginate(rows, connArgs(args), ctx, (f) => fulfillmentView(store, f));
    },
  };
}

export function fulfillmentLineItemView(store: Store, fli: FulfillmentLineItemRow): View {
  const li = store.getLineItem(fli.line_item_id);
  const order = li ? store.getOrder(li.order_id) : undefined;
  const cur = order?.currency_code ?? "USD";
  const total = li ? Number(li.price) * fli.quantity : 0;
  return {
    id: toGid("FulfillmentLineItem", fli.id),
    quantity: fli.quantity,
    originalTotalSet: money(total, cur, order?.presentment_currency_code ?? cur),
    discountedTotalSet: money(total, cur, order?.presentment_currency_code ?? cur),
    lineItem: () => (li ? lineItemView(store, li, order) : null),
  };
}

export function fulfillmentEventView(e: FulfillmentEventRow): View {
  return {
    id: toGid("FulfillmentEvent", e.id),
    status: e.status,
    happenedAt: e.happened_at,
    createdAt: e.created_at,
    estimatedDeliveryAt: e.estimated_delivery_at,
    message: e.message,
    address1: e.address1,
    city: e.city,
    province: e.province,
    country: e.country,
    zip: e.zip,
    latitude: e.latitude,
    longitude: e.longitude,
  };
}

export function fulfillmentView(store: Store, f: FulfillmentRow): View {
  return {
    id: toGid("Fulfillment", f.id),
    legacyResourceId: String(f.id),
    name: f.name,
    status: f.status,
    displayStatus: f.display_status,
    createdAt: f.created_at,
    updatedAt: f.updated_at,
    estimatedDeliveryAt: f.estimated_delivery_at,
    inTransitAt: f.in_transit_at,
    deliveredAt: f.delivered_at,
    requiresShipping: true,
    totalQuantity: () => store.listFulfillmentLineItems(f.id).reduce((s, l) => s + l.quantity, 0),
    trackingInfo: (args: Args) => {
      const rows = store.listTrackingInfo(f.id);
      const first = typeof args.first === "number" ? args.first : rows.length;
      return rows.slice(0, first).map((t) => ({ company: t.company, number: t.number, url: t.url }));
    },
    fulfillmentLineItems: (args: Args, ctx: ResolverContext) =>
      paginate(store.listFulfillmentLineItems(f.id), connArgs(args), ctx, (fli) => fulfillmentLineItemView(store, fli)),
    events: (args: Args, ctx: ResolverContext) => {
      const events = store.listFulfillmentEvents(f.id);
      if (args.sortKey === "HAPPENED_AT") events.sort((a, b) => a.happened_at.localeCompare(b.happened_at) || a.id - b.id);
      return paginate(events, connArgs(args), ctx, fulfillmentEventView, (e) => (args.sortKey === "HAPPENED_AT" ? e.happened_at : e.id));
    },
    order: () => {
      const o = store.getOrder(f.order_id);
      return o ? orderView(store, o) : null;
    },
    location: () => {
      const l = store.getLocation(f.location_id);
      return l ? locationView(store, l) : null;
    },
    fulfillmentOrders: (args: Args, ctx: ResolverContext) => {
      const ids = [...new Set(store.listFulfillmentLineItems(f.id).map((l) => l.fulfillment_order_id))];
      const fos = ids.map((id) => store.getFulfillmentOrder(id)).filter((fo): fo is FulfillmentOrderRow => fo !== undefined);
      return paginate(fos, connArgs(args), ctx, (fo) => fulfillmentOrderView(store, fo));
    },
  };
}

/** Order.returnStatus from its returns: the newest one that is not declined or cancelled says where the order is. */
function orderReturnStatus(returns: ReturnRow[]): string {
  const live = returns.filter((row) => row.status !== "DECLINED" && row.status !== "CANCELED");
  if (live.some((row) => row.status === "OPEN")) return "IN_PROGRESS";
  if (live.some((row) => row.status === "REQUESTED")) return "RETURN_REQUESTED";
  if (live.some((row) => row.status === "CLOSED")) return "RETURNED";
  return "NO_RETURN";
}

export function returnLineItemView(store: Store, line: ReturnLineItemRow): View {
  const fli = store.getFulfillmentLineItem(line.fulfillment_line_item_id);
  const li = fli ? store.getLineItem(fli.line_item_id) : undefined;
  const weight = li ? store.lineItemWeight(li) : null;
  return {
    __typename: "ReturnLineItem",
    id: toGid("ReturnLineItem", line.id),
    quantity: line.quantity,
    returnReason: line.return_reason,
    returnReasonNote: line.return_reason_note,
    // The 2026-10 reason: the standard definitions Shopify seeds, one per former ReturnReason, named as the admin shows them.
    returnReasonDefinition: {
      id: toGid("ReturnReasonDefinition", RETURN_REASON_IDS[line.return_reason] ?? 0),
      handle: line.return_reason.toLowerCase().replace(/_/g, "-"),
      name: RETURN_REASON_TEXT[line.return_reason] ?? line.return_reason,
      deleted: false,
    },
    customerNote: line.customer_note,
    refundableQuantity: line.quantity,
    refundedQuantity: 0,
    processableQuantity: line.quantity,
    processedQuantity: 0,
    unprocessedQuantity: line.quantity,
    restockingFee: null,
    totalWeight: weight ? weightView(weight.unit, weight.value * line.quantity) : null,
    fulfillmentLineItem: () => (fli ? fulfillmentLineItemView(store, fli) : null),
  };
}

export const RETURN_REASON_TEXT: Record<string, string> = {
  COLOR: "Color",
  DEFECTIVE: "Damaged or defective",
  NOT_AS_DESCRIBED: "Item not as described",
  OTHER: "Other",
  SIZE_TOO_LARGE: "Size was too large",
  SIZE_TOO_SMALL: "Size was too small",
  STYLE: "Style",
  UNKNOWN: "Unknown",
  UNWANTED: "Changed my mind",
  WRONG_ITEM: "Received the wrong item",
};
const RETURN_REASON_IDS: Record<string, number> = Object.fromEntries(Object.keys(RETURN_REASON_TEXT).map((reason, index) => [reason, index + 1]));

export function returnView(store: Store, ret: ReturnRow): View {
  const lines = () => store.listReturnLineItems(ret.id);
  return {
    id: toGid("Return", ret.id),
    name: ret.name,
    status: ret.status,
    createdAt: ret.created_at,
    requestApprovedAt: ret.request_approved_at,
    closedAt: ret.closed_at,
    decline: ret.status === "DECLINED" ? { reason: ret.decline_reason ?? "OTHER", note: ret.decline_note } : null,
    totalQuantity: () => lines().reduce((sum, line) => sum + line.quantity, 0),
    order: () => {
      const order = store.getOrder(ret.order_id);
      return order ? orderView(store, order) : null;
    },
    returnLineItems: (args: Args, ctx: ResolverContext) => paginate(lines(), connArgs(args), ctx, (line) => returnLineItemView(store, line)),
    reverseFulfillmentOrders: (args: Args, ctx: ResolverContext) =>
      paginate(store.listReverseFulfillmentOrders(ret.id), connArgs(args), ctx, (rfo) => reverseFulfillmentOrderView(store, rfo)),
    returnShippingFees: [],
  };
}

export function rfoLineItemView(store: Store, line: ReverseFulfillmentOrderLineItemRow): View {
  return {
    id: toGid("ReverseFulfillmentOrderLineItem", line.id),
    totalQuantity: line.total_quantity,
    dispositions: [],
    fulfillmentLineItem: () => {
      const fli = store.getFulfillmentLineItem(line.fulfillment_line_item_id);
      return fli ? fulfillmentLineItemView(store, fli) : null;
    },
  };
}

export function reverseFulfillmentOrderView(store: Store, rfo: ReverseFulfillmentOrderRow): View {
  return {
    id: toGid("ReverseFulfillmentOrder", rfo.id),
    status: rfo.status,
    thirdPartyConfirmation: null,
    order: () => {
      const order = store.getOrder(rfo.order_id);
      return order ? orderView(store, order) : null;
    },
    lineItems: (args: Args, ctx: ResolverContext) => paginate(store.listRfoLineItems(rfo.id), connArgs(args), ctx, (line) => rfoLineItemView(store, line)),
    reverseDeliveries: (args: Args, ctx: ResolverContext) =>
      paginate(store.listReverseDeliveries(rfo.id), connArgs(args), ctx, (delivery) => reverseDeliveryView(store, delivery)),
  };
}

export function reverseDeliveryLineItemView(store: Store, line: ReverseDeliveryLineItemRow): View {
  return {
    id: toGid("ReverseDeliveryLineItem", line.id),
    quantity: line.quantity,
    dispositions: [],
    reverseFulfillmentOrderLineItem: () => {
      const rfoLine = store.getRfoLineItem(line.reverse_fulfillment_order_line_item_id);
      return rfoLine ? rfoLineItemView(store, rfoLine) : null;
    },
  };
}

export function reverseDeliveryView(store: Store, delivery: ReverseDeliveryRow): View {
  const hasLabel = delivery.label_url !== null;
  const hasTracking = delivery.tracking_number !== null || delivery.tracking_url !== null;
  return {
    id: toGid("ReverseDelivery", delivery.id),
    deliverable: {
      __typename: "ReverseDeliveryShippingDeliverable",
      label: hasLabel ? { publicFileUrl: delivery.label_url, createdAt: delivery.label_created_at, updatedAt: delivery.label_updated_at } : null,
      tracking: hasTracking ? { number: delivery.tracking_number, url: delivery.tracking_url, carrierName: delivery.carrier_name } : null,
    },
    reverseFulfillmentOrder: () => {
      const rfo = store.getReverseFulfillmentOrder(delivery.reverse_fulfillment_order_id);
      return rfo ? reverseFulfillmentOrderView(store, rfo) : null;
    },
    reverseDeliveryLineItems: (args: Args, ctx: ResolverContext) =>
      paginate(store.listReverseDeliveryLineItems(delivery.id), connArgs(args), ctx, (line) => reverseDeliveryLineItemView(store, line)),
  };
}

export function bulkOperationView(op: BulkOperationRow, origin: string): View {
  return {
    id: toGid("BulkOperation", op.id),
    type: op.type,
    status: op.status,
    query: op.query,
    createdAt: op.created_at,
    completedAt: op.completed_at,
    objectCount: String(op.object_count),
    rootObjectCount: String(op.root_object_count),
    fileSize: op.file_size === null ? null : String(op.file_size),
    errorCode: op.error_code,
    url: op.status === "COMPLETED" && op.object_count > 0 ? `${origin}/bulk-operations/${op.id}/result.jsonl` : null,
    partialDataUrl: null,
  };
}

type NodeLoader = (store: Store, id: number, origin: string) => View | null;

/** Node types that need read_returns, as Shopify's do. */
const RETURN_NODE_TYPES = new Set([
  "Return",
  "ReturnLineItem",
  "ReverseFulfillmentOrder",
  "ReverseFulfillmentOrderLineItem",
  "ReverseDelivery",
  "ReverseDeliveryLineItem",
]);

const view =
  <R>(find: (store: Store, id: number) => R | undefined, build: (store: Store, row: R, origin: string) => View): NodeLoader =>
  (store, id, origin) => {
    const row = find(store, id);
    return row ? build(store, row, origin) : null;
  };

/** Node types the local admin can load by global id. */
const NODE_LOADERS: Record<string, NodeLoader> = {
  Order: view((s, id) => s.getOrder(id), orderView),
  Customer: view(
    (s, id) => s.getCustomer(id),
    (_s, row) => customerView(row),
  ),
  LineItem: view(
    (s, id) => s.getLineItem(id),
    (s, row) => lineItemView(s, row),
  ),
  FulfillmentOrder: view((s, id) => s.getFulfillmentOrder(id), fulfillmentOrderView),
  FulfillmentOrderLineItem: view((s, id) => s.getFoLineItem(id), foLineItemView),
  FulfillmentHold: view(
    (s, id) => s.getHold(id),
    (_s, row) => holdView(row),
  ),
  Fulfillment: view((s, id) => s.getFulfillment(id), fulfillmentView),
  FulfillmentLineItem: view((s, id) => s.getFulfillmentLineItem(id), fulfillmentLineItemView),
  FulfillmentEvent: view(
    (s, id) => s.getFulfillmentEvent(id),
    (_s, row) => fulfillmentEventView(row),
  ),
  Location: view((s, id) => s.getLocation(id), locationView),
  Product: view((s, id) => s.getProduct(id), productView),
  ProductVariant: view((s, id) => s.getVariant(id), variantView),
  InventoryItem: view((s, id) => s.getInventoryItem(id), inventoryItemView),
  BulkOperation: view(
    (s, id) => s.getBulkOperation(id),
    (_s, row, origin) => bulkOperationView(row, origin),
  ),
  Shop: (store, id) => (id === store.getShop().id ? shopView(store) : null),
  Return: view((s, id) => s.getReturn(id), returnView),
  ReturnLineItem: view((s, id) => s.getReturnLineItem(id), returnLineItemView),
  ReverseFulfillmentOrder: view((s, id) => s.getReverseFulfillmentOrder(id), reverseFulfillmentOrderView),
  ReverseFulfillmentOrderLineItem: view((s, id) => s.getRfoLineItem(id), rfoLineItemView),
  ReverseDelivery: view((s, id) => s.getReverseDelivery(id), reverseDeliveryView),
  ReverseDeliveryLineItem: view((s, id) => s.getReverseDeliveryLineItem(id), reverseDeliveryLineItemView),
};

/** Resolves a global id to its view (the Node interface); unknown types and missing rows are null, like Shopify. */
export function nodeView(store: Store, gid: string, ctx: Pick<ResolverContext, "origin" | "grantedScopes">): View | null {
  const parsed = parseGidOrThrow(gid);
  if (RETURN_NODE_TYPES.has(parsed.type)) requireScope(ctx, "node", "read_returns");
  const origin = ctx.origin;
  const loaded = NODE_LOADERS[parsed.type]?.(store, parsed.id, origin) ?? null;
  return loaded ? { __typename: parsed.type, ...loaded } : null;
}
