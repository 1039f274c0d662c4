import { Service, type Address } from "../../shipping-api/contract";
import { buildService as buildWireService } from "./shipping-api";
import type { MappingSettings } from "../../app/orders/shipment-mapping";
import type { FulfillmentOrderForShipping, FulfillmentOrderLine, OrderAddress, OrderForShipping } from "../../app/orders/types";
import type { MirroredOrder } from "../../app/orders/order-node";

/** Builders for domain objects in tests: realistic defaults, override what matters. */

let sequence = 1000;
const next = () => ++sequence;

export function buildAddress(overrides: Partial<OrderAddress> = {}): OrderAddress {
  return {
    name: "Ada Lovelace",
    firstName: "Ada",
    lastName: "Lovelace",
    company: null,
    address1: "12 Analytical Way",
    address2: null,
    city: "Portland",
    provinceCode: "OR",
    zip: "97205",
    countryCode: "US",
    phone: "+1 (503) 555-0101",
    ...overrides,
  };
}

export function buildLine(overrides: Partial<FulfillmentOrderLine> = {}): FulfillmentOrderLine {
  const id = next();
  return {
    id: `gid://shopify/FulfillmentOrderLineItem/${id}`,
    lineItemId: `gid://shopify/LineItem/${id}`,
    sku: `SKU-${id}`,
    productTitle: "Ceramic mug",
    variantTitle: null,
    remainingQuantity: 1,
    totalQuantity: 1,
    weight: { unit: "GRAMS", value: 350 },
    unitPrice: "18.00",
    hsCode: "691200",
    countryOfOrigin: "PT",
    ...overrides,
  };
}

export function buildFulfillmentOrder(overrides: Partial<FulfillmentOrderForShipping> = {}): FulfillmentOrderForShipping {
  return {
    id: `gid://shopify/FulfillmentOrder/${next()}`,
    status: "OPEN",
    requestStatus: "UNSUBMITTED",
    deliveryMethod: "SHIPPING",
    assignedToFulfillmentService: false,
    supportedActions: ["CREATE_FULFILLMENT", "HOLD", "MOVE"],
    holds: [],
    lines: [buildLine()],
    ...overrides,
  };
}

export function buildOrder(overrides: Partial<OrderForShipping> = {}): OrderForShipping {
  const number = next();
  return {
    id: `gid://shopify/Order/${number}`,
    name: `#${number}`,
    email: "ada@example.com",
    currencyCode: "USD",
    shippingAddress: buildAddress(),
    fulfillmentOrders: [buildFulfillmentOrder()],
    ...overrides,
  };
}

/** A service as List Services returns it, parsed by the contract (the wire fixture, so the two never drift). */
export function buildService(overrides: Parameters<typeof buildWireService>[0] = {}): Service {
  return Service.parse(buildWireService(overrides));
}

const usSender: Address = {
  name: "Consign Demo Store",
  company: "Consign Demo Store",
  address1: "500 Harbor Blvd",
  address2: "",
  city: "Seattle",
  state: "WA",
  zip: "98104",
  country: "US",
  phone: "2065550100",
};

export function buildSettings(overrides: Partial<MappingSettings> = {}): MappingSettings {
  return {
    sender: usSender,
    packagingWeight: { value: 4, unit: "oz" },
    box: { kind: "custom", name: "Medium box", length: "12", width: "10", height: "6", dimUnit: "in" },
    weightUnit: "lb",
    termsOfTrade: "DAP",
    residential: "auto",
    signatureOptionCode: null,
    insure: false,
    senderVatTaxId: "",
    enabledServices: [
      buildService(),
      buildService({
        carrierCode: "EXPRESSCO",
        serviceCode: "EXPRESSCO_WORLDWIDE",
        serviceLabel: "Worldwide Express",
        supportedCountries: null,
        unsupportedCountries: ["US", "KP"],
      }),
    ],
    shipmentDate: "2026-11-23",
    ...overrides,
  };
}

/** An order as the order mirror stores it: open, unfulfilled, its fulfillment orders at one location. */
export function buildMirroredOrder(
  overrides: Partial<OrderForShipping> & Partial<Pick<MirroredOrder, "customerId" | "createdAt" | "shippingLine" | "note" | "customAttributes">> = {},
): MirroredOrder {
  const { customerId, createdAt, shippingLine, note, customAttributes, ...orderOverrides } = overrides;
  const order = buildOrder(orderOverrides);
  return {
    ...order,
    customerId: customerId ?? null,
    createdAt: createdAt ?? new Date("2026-11-20T12:00:00Z").toISOString(),
    updatedAt: null,
    cancelledAt: null,
    tags: [],
    displayFulfillmentStatus: "UNFULFILLED",
    shippingLine: shippingLine ?? null,
    note: note ?? null,
    customAttributes: customAttributes ?? [],
    fulfillmentOrders: order.fulfillmentOrders.map((fo) => ({ ...fo, assignedLocationId: "gid://shopify/Location/1" })),
  };
}
