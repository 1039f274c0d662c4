import { toGid } from "../gid.js";
import { countryName, lineItemName } from "../graphql/views.js";
import { toGrams } from "../graphql/weights.js";
import type { Store } from "../store/store.js";
import type { Address, FulfillmentEventRow, FulfillmentRow, ShippingLineData, StoreEvent } from "../store/types.js";

/**
 * Webhook bodies in the shape of Shopify's REST webhook payloads (snake_case, numeric ids plus
 * admin_graphql_api_id), limited to the fields an app reads.
 */

type Json = Record<string, unknown>;

function restAddress(a: Address | null): Json | null {
  if (!a) return null;
  return {
    first_name: a.firstName ?? null,
    last_name: a.lastName ?? null,
    name: [a.firstName, a.lastName].filter(Boolean).join(" ") || null,
    company: a.company ?? null,
    address1: a.address1 ?? null,
    address2: a.address2 ?? null,
    city: a.city ?? null,
    province: a.province ?? null,
    province_code: a.provinceCode ?? null,
    zip: a.zip ?? null,
    country: a.country ?? countryName(a.countryCode),
    country_code: a.countryCode,
    phone: a.phone ?? null,
  };
}

function restFulfillmentStatus(display: string): string | null {
  if (display === "FULFILLED") return "fulfilled";
  if (display === "PARTIALLY_FULFILLED") return "partial";
  return null;
}

export function fulfillmentPayload(store: Store, f: FulfillmentRow): Json {
  const tracking = store.listTrackingInfo(f.id);
  const lines = store.listFulfillmentLineItems(f.id);
  return {
    id: f.id,
    admin_graphql_api_id: toGid("Fulfillment", f.id),
    order_id: f.order_id,
    location_id: f.location_id,
    name: f.name,
    status: f.status === "SUCCESS" ? "success" : "cancelled",
    shipment_status: f.display_status && f.display_status !== "FULFILLED" && f.display_status !== "CANCELED" ? f.display_status.toLowerCase() : null,
    service: "manual",
    created_at: f.created_at,
    updated_at: f.updated_at,
    tracking_company: tracking[0]?.company ?? null,
    tracking_number: tracking[0]?.number ?? null,
    tracking_numbers: tracking.map((t) => t.number).filter((n): n is string => n !== null),
    tracking_url: tracking[0]?.url ?? null,
    tracking_urls: tracking.map((t) => t.url).filter((u): u is string => u !== null),
    notify_customer: f.notify_customer === 1,
    line_items: lines.map((fli) => {
      const li = store.getLineItem(fli.line_item_id);
      return {
        id: fli.line_item_id,
        admin_graphql_api_id: toGid("LineItem", fli.line_item_id),
        sku: li?.sku ?? null,
        title: li?.title ?? null,
        variant_id: li?.variant_id ?? null,
        quantity: fli.quantity,
      };
    }),
  };
}

export function orderPayload(store: Store, orderId: number): Json | null {
  const order = store.getOrder(orderId);
  if (!order) return null;
  const fulfilled = store.fulfilledQuantities(orderId);
  const shippingLine = order.shipping_line_json ? (JSON.parse(order.shipping_line_json) as ShippingLineData) : null;
  const lines = store.listLineItems(orderId);
  let grams = 0;
  const lineItems = lines.map((li) => {
    const w = store.lineItemWeight(li);
    const unitGrams = w ? Math.round(toGrams(w.unit, w.value)) : 0;
    if (li.requires_shipping === 1) grams += unitGrams * li.quantity;
    const done = Math.min(li.quantity, fulfilled.get(li.id) ?? 0);
    const variant = li.variant_id === null ? undefined : store.getVariant(li.variant_id);
    return {
      id: li.id,
      admin_graphql_api_id: toGid("LineItem", li.id),
      variant_id: li.variant_id,
      product_id: variant?.product_id ?? null,
      title: li.title,
      variant_title: li.variant_title,
      name: lineItemName(li),
      sku: li.sku,
      vendor: li.vendor,
      quantity: li.quantity,
      fulfillable_quantity: order.cancelled_at ? 0 : li.quantity - done,
      fulfillment_status: done === 0 ? null : done >= li.quantity ? "fulfilled" : "partial",
      grams: unitGrams,
      price: li.price,
      requires_shipping: li.requires_shipping === 1,
    };
  });
  const subtotal = lines.reduce((s, l) => s + Number(l.price) * l.quantity, 0);
  return {
    id: order.id,
    admin_graphql_api_id: toGid("Order", order.id),
    name: order.name,
    order_number: order.number,
    number: order.number - 1000,
    email: order.email,
    phone: order.phone,
    note: order.note,
    note_attributes: (JSON.parse(order.custom_attributes_json) as { key: string; value: string | null }[]).map(({ key, value }) => ({ name: key, value })),
    tags: (JSON.parse(order.tags_json) as string[]).join(", "),
    test: order.test === 1,
    created_at: order.created_at,
    updated_at: order.updated_at,
    processed_at: order.processed_at,
    cancelled_at: order.cancelled_at,
    cancel_reason: order.cancel_reason?.toLowerCase() ?? null,
    closed_at: order.closed_at,
    currency: order.currency_code,
    presentment_currency: order.presentment_currency_code,
    financial_status: "paid",
    fulfillment_status: restFulfillmentStatus(order.display_fulfillment_status),
    subtotal_price: subtotal.toFixed(2),
    total_price: (subtotal + Number(shippingLine?.price ?? 0)).toFixed(2),
    total_weight: grams,
    shipping_address: restAddress(order.shipping_address_json ? (JSON.parse(order.shipping_address_json) as Address) : null),
    billing_address: restAddress(order.billing_address_json ? (JSON.parse(order.billing_address_json) as Address | null) : null),
    shipping_lines: shippingLine
      ? [
          {
            title: shippingLine.title,
            code: shippingLine.code,
            source: shippingLine.source,
            carrier_identifier: shippingLine.carrierIdentifier,
            price: shippingLine.price,
          },
        ]
      : [],
    line_items: lineItems,
    fulfillments: store.listFulfillments(orderId).map((f) => fulfillmentPayload(store, f)),
  };
}

/** A carrier event as Shopify's fulfillment_events/create sends it (REST FulfillmentEvent). */
function fulfillmentEventPayload(e: FulfillmentEventRow, f: FulfillmentRow): Json {
  return {
    id: e.id,
    admin_graphql_api_id: toGid("FulfillmentEvent", e.id),
    fulfillment_id: f.id,
    order_id: f.order_id,
    status: e.status.toLowerCase(),
    message: e.message,
    happened_at: e.happened_at,
    estimated_delivery_at: e.estimated_delivery_at,
    address1: e.address1,
    city: e.city,
    province: e.province,
    country: e.country,
    zip: e.zip,
    latitude: e.latitude,
    longitude: e.longitude,
    created_at: e.created_at,
    updated_at: e.created_at,
  };
}

function fulfillmentOrderPayload(store: Store, foId: number): Json | null {
  const fo = store.getFulfillmentOrder(foId);
  if (!fo) return null;
  return {
    id: toGid("FulfillmentOrder", fo.id),
    status: fo.status.toLowerCase(),
    assigned_location_id: toGid("Location", fo.assigned_location_id),
    order_id: toGid("Order", fo.order_id),
  };
}

function shopPayload(store: Store): Json {
  const shop = store.getShop();
  const address = store.shopAddress();
  return {
    id: shop.id,
    name: shop.name,
    email: shop.email,
    domain: shop.myshopify_domain,
    myshopify_domain: shop.myshopify_domain,
    country_code: address.countryCode,
    currency: shop.currency_code,
    weight_unit: shop.weight_unit === "POUNDS" ? "lb" : shop.weight_unit === "OUNCES" ? "oz" : shop.weight_unit === "KILOGRAMS" ? "kg" : "g",
    iana_timezone: shop.iana_timezone,
  };
}

/** A return as returns/request and returns/approve carry it (Shopify's sample payloads: lowercase status and reasons). */
function returnPayload(store: Store, returnId: number): Json | null {
  const ret = store.getReturn(returnId);
  if (!ret) return null;
  const lines = store.listReturnLineItems(ret.id);
  return {
    id: ret.id,
    admin_graphql_api_id: toGid("Return", ret.id),
    name: ret.name,
    status: ret.status.toLowerCase(),
    order: { id: ret.order_id, admin_graphql_api_id: toGid("Order", ret.order_id) },
    total_return_line_items: lines.reduce((sum, line) => sum + line.quantity, 0),
    return_line_items: lines.map((line) => {
      const fli = store.getFulfillmentLineItem(line.fulfillment_line_item_id);
      return {
        id: line.id,
        admin_graphql_api_id: toGid("ReturnLineItem", line.id),
        fulfillment_line_item: {
          id: line.fulfillment_line_item_id,
          admin_graphql_api_id: toGid("FulfillmentLineItem", line.fulfillment_line_item_id),
          line_item: fli ? { id: fli.line_item_id, admin_graphql_api_id: toGid("LineItem", fli.line_item_id) } : null,
        },
        quantity: line.quantity,
        return_reason: line.return_reason.toLowerCase(),
        return_reason_note: line.return_reason_note,
        customer_note: line.customer_note,
      };
    }),
    return_shipping_fees: [],
    exchange_line_items: [],
    total_exchange_line_items: 0,
  };
}

function reverseDeliveryPayload(store: Store, reverseDeliveryId: number): Json | null {
  const delivery = store.getReverseDelivery(reverseDeliveryId);
  const rfo = delivery ? store.getReverseFulfillmentOrder(delivery.reverse_fulfillment_order_id) : undefined;
  if (!delivery || !rfo) return null;
  return {
    id: delivery.id,
    admin_graphql_api_id: toGid("ReverseDelivery", delivery.id),
    return: { id: rfo.return_id, admin_graphql_api_id: toGid("Return", rfo.return_id) },
    shipping_deliverable: {
      tracking: { carrier_name: delivery.carrier_name, tracking_number: delivery.tracking_number, tracking_url: delivery.tracking_url },
      label: delivery.label_url ? { public_file_url: delivery.label_url, created_at: delivery.label_created_at } : null,
    },
  };
}

/** The body for a store event, or null when its subject disappeared before delivery. */
export function eventPayload(store: Store, event: StoreEvent): Json | null {
  switch (event.topic) {
    case "orders/create":
    case "orders/updated":
    case "orders/cancelled":
      return orderPayload(store, event.orderId);
    case "fulfillments/create":
    case "fulfillments/update": {
      const f = store.getFulfillment(event.fulfillmentId);
      return f ? fulfillmentPayload(store, f) : null;
    }
    case "fulfillment_events/create": {
      const e = store.getFulfillmentEvent(event.eventId);
      const f = e ? store.getFulfillment(e.fulfillment_id) : undefined;
      return e && f ? fulfillmentEventPayload(e, f) : null;
    }
    case "fulfillment_orders/placed_on_hold": {
      const fo = fulfillmentOrderPayload(store, event.fulfillmentOrderId);
      const hold = store.getHold(event.holdId);
      if (!fo) return null;
      const holds = store
        .listHolds(event.fulfillmentOrderId)
        .map((h) => ({ id: toGid("FulfillmentHold", h.id), reason: h.reason.toLowerCase(), reason_notes: h.reason_notes }));
      return {
        fulfillment_order: { ...fo, fulfillment_holds: holds },
        remaining_fulfillment_order: null,
        created_fulfillment_hold: hold
          ? { id: toGid("FulfillmentHold", hold.id), reason: hold.reason.toLowerCase(), reason_notes: hold.reason_notes, handle: hold.handle }
          : null,
      };
    }
    case "fulfillment_orders/hold_released": {
      const fo = fulfillmentOrderPayload(store, event.fulfillmentOrderId);
      return fo ? { fulfillment_order: fo } : null;
    }
    case "fulfillment_orders/moved":
      return {
        original_fulfillment_order: fulfillmentOrderPayload(store, event.originalFulfillmentOrderId),
        moved_fulfillment_order: fulfillmentOrderPayload(store, event.movedFulfillmentOrderId),
        destination_location_id: toGid("Location", event.destinationLocationId),
        source_location: { id: toGid("Location", event.sourceLocationId) },
        fulfillment_order_line_items_requested: event.requested.map((r) => ({ id: toGid("FulfillmentOrderLineItem", r.id), quantity: r.quantity })),
      };
    case "returns/request":
    case "returns/approve":
      return returnPayload(store, event.returnId);
    case "returns/decline": {
      const ret = store.getReturn(event.returnId);
      return ret
        ? {
            id: ret.id,
            admin_graphql_api_id: toGid("Return", ret.id),
            status: "declined",
            decline: { reason: (ret.decline_reason ?? "OTHER").toLowerCase(), note: ret.decline_note },
          }
        : null;
    }
    case "returns/cancel":
    case "returns/close": {
      const ret = store.getReturn(event.returnId);
      return ret ? { id: ret.id, admin_graphql_api_id: toGid("Return", ret.id), order_id: ret.order_id, status: ret.status.toLowerCase() } : null;
    }
    case "reverse_deliveries/attach_deliverable":
      return reverseDeliveryPayload(store, event.reverseDeliveryId);
    case "app/uninstalled":
      return shopPayload(store);
    case "app/scopes_update":
      return { id: store.getShop().id, previous: event.previous, current: event.current, updated_at: store.now() };
  }
}

/** Bodies for the compliance topics (GDPR), as Shopify sends them. */
export function compliancePayload(store: Store, topic: string, customer?: { id: number; email?: string | null; phone?: string | null }): Json {
  const shop = store.getShop();
  const base = { shop_id: shop.id, shop_domain: shop.myshopify_domain };
  if (topic === "shop/redact") return base;
  const who = customer ?? { id: 1, email: null, phone: null };
  const orders = who.email
    ? (store.sql("SELECT id FROM orders WHERE lower(email) = lower(?) ORDER BY id").all(who.email) as { id: number }[]).map((r) => r.id)
    : [];
  const customerJson = { id: who.id, email: who.email ?? null, phone: who.phone ?? null };
  if (topic === "customers/redact") return { ...base, customer: customerJson, orders_to_redact: orders };
  return { ...base, customer: customerJson, orders_requested: orders, data_request: { id: Math.floor(store.clock() / 1000) } };
}
