/** Row shapes of the local admin's tables (snake_case, as stored) and the domain inputs built on them. */

export interface Address {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
  country?: string | null;
  countryCode: string;
  phone?: string | null;
}

export interface ShippingLineData {
  title: string;
  code: string | null;
  source: string | null;
  carrierIdentifier: string | null;
  price: string;
}

export interface ShopRow {
  id: number;
  name: string;
  email: string;
  myshopify_domain: string;
  currency_code: string;
  weight_unit: string;
  unit_system: string;
  iana_timezone: string;
  address_json: string;
  created_at: string;
}

export interface StaffUserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  account_owner: number;
  locale: string;
}

export interface LocationRow {
  id: number;
  name: string;
  address1: string | null;
  address2: string | null;
  city: string | null;
  province: string | null;
  province_code: string | null;
  zip: string | null;
  country: string | null;
  country_code: string;
  phone: string | null;
  is_active: number;
  fulfills_online_orders: number;
  is_fulfillment_service: number;
  fulfillment_service_handle: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProductRow {
  id: number;
  title: string;
  vendor: string;
  product_type: string;
  handle: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export type WeightUnit = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";

export interface InventoryItemRow {
  id: number;
  sku: string | null;
  requires_shipping: number;
  tracked: number;
  weight_unit: WeightUnit;
  weight_value: number;
  harmonized_system_code: string | null;
  country_code_of_origin: string | null;
  province_code_of_origin: string | null;
  created_at: string;
  updated_at: string;
}

export interface CountryHsCodeRow {
  inventory_item_id: number;
  country_code: string;
  harmonized_system_code: string;
}

export interface VariantRow {
  id: number;
  product_id: number;
  inventory_item_id: number;
  title: string;
  sku: string | null;
  price: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface CustomerRow {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  created_at: string;
}

export interface OrderRow {
  id: number;
  number: number;
  name: string;
  email: string | null;
  /** The customer checkout created or found for the order's email; null for an order without an email. */
  customer_id: number | null;
  phone: string | null;
  note: string | null;
  /** JSON {key, value}[]: Order.customAttributes (the REST payload's note_attributes). */
  custom_attributes_json: string;
  tags_json: string;
  test: number;
  currency_code: string;
  presentment_currency_code: string;
  created_at: string;
  processed_at: string;
  updated_at: string;
  cancelled_at: string | null;
  cancel_reason: string | null;
  closed: number;
  closed_at: string | null;
  shipping_address_json: string | null;
  billing_address_json: string | null;
  shipping_line_json: string | null;
  display_fulfillment_status: string;
}

export interface LineItemRow {
  id: number;
  order_id: number;
  variant_id: number | null;
  title: string;
  variant_title: string | null;
  sku: string | null;
  vendor: string | null;
  quantity: number;
  price: string;
  requires_shipping: number;
  position: number;
}

export type FulfillmentOrderStatus = "OPEN" | "IN_PROGRESS" | "SCHEDULED" | "ON_HOLD" | "INCOMPLETE" | "CLOSED" | "CANCELLED";

export interface FulfillmentOrderRow {
  id: number;
  order_id: number;
  assigned_location_id: number;
  status: FulfillmentOrderStatus;
  request_status: string;
  fulfill_at: string | null;
  fulfill_by: string | null;
  delivery_method_type: string;
  delivery_service_code: string | null;
  delivery_presented_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface FoLineItemRow {
  id: number;
  fulfillment_order_id: number;
  line_item_id: number;
  total_quantity: number;
  remaining_quantity: number;
}

export interface HoldRow {
  id: number;
  fulfillment_order_id: number;
  reason: string;
  reason_notes: string | null;
  handle: string;
  held_by_app: number;
  created_at: string;
}

export interface FulfillmentRow {
  id: number;
  order_id: number;
  location_id: number;
  name: string;
  status: "SUCCESS" | "CANCELLED";
  display_status: string | null;
  notify_customer: number;
  message: string | null;
  created_at: string;
  updated_at: string;
  estimated_delivery_at: string | null;
  in_transit_at: string | null;
  delivered_at: string | null;
}

export interface FulfillmentLineItemRow {
  id: number;
  fulfillment_id: number;
  line_item_id: number;
  fulfillment_order_id: number;
  fulfillment_order_line_item_id: number;
  quantity: number;
}

export interface TrackingInfoRow {
  id: number;
  fulfillment_id: number;
  position: number;
  company: string | null;
  number: string | null;
  url: string | null;
}

export interface FulfillmentEventRow {
  id: number;
  fulfillment_id: number;
  status: string;
  happened_at: string;
  created_at: string;
  estimated_delivery_at: string | null;
  message: string | null;
  address1: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  zip: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface BulkOperationRow {
  id: number;
  type: "QUERY" | "MUTATION";
  status: "CREATED" | "RUNNING" | "COMPLETED" | "FAILED" | "CANCELED";
  query: string;
  created_at: string;
  completed_at: string | null;
  object_count: number;
  root_object_count: number;
  file_size: number | null;
  error_code: string | null;
}

export interface AccessTokenRow {
  token: string;
  kind: "offline" | "online";
  scope: string;
  user_id: number | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface WebhookDeliveryRow {
  id: number;
  webhook_id: string;
  event_id: string;
  topic: string;
  url: string;
  body: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  triggered_at: string;
  delivered_at: string | null;
}

/** What happened in the store that a webhook subscriber may care about; emitted after the transaction commits. */
export type ReturnStatus = "REQUESTED" | "OPEN" | "DECLINED" | "CANCELED" | "CLOSED";

export interface ReturnRow {
  id: number;
  order_id: number;
  name: string;
  status: ReturnStatus;
  created_at: string;
  updated_at: string;
  request_approved_at: string | null;
  closed_at: string | null;
  decline_reason: string | null;
  decline_note: string | null;
}

export interface ReturnLineItemRow {
  id: number;
  return_id: number;
  fulfillment_line_item_id: number;
  quantity: number;
  return_reason: string;
  return_reason_note: string;
  customer_note: string | null;
}

export interface ReverseFulfillmentOrderRow {
  id: number;
  return_id: number;
  order_id: number;
  status: "OPEN" | "CLOSED" | "CANCELED";
  created_at: string;
}

export interface ReverseFulfillmentOrderLineItemRow {
  id: number;
  reverse_fulfillment_order_id: number;
  return_line_item_id: number;
  fulfillment_line_item_id: number;
  total_quantity: number;
}

export interface ReverseDeliveryRow {
  id: number;
  reverse_fulfillment_order_id: number;
  created_at: string;
  updated_at: string;
  label_url: string | null;
  label_created_at: string | null;
  label_updated_at: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  carrier_name: string | null;
}

export interface ReverseDeliveryLineItemRow {
  id: number;
  reverse_delivery_id: number;
  reverse_fulfillment_order_line_item_id: number;
  quantity: number;
}

export interface CustomerEmailRow {
  id: number;
  order_id: number;
  to_email: string;
  subject: string;
  body: string;
  label_url: string | null;
  tracking_url: string | null;
  created_at: string;
}

export type StoreEvent =
  | { topic: "orders/create" | "orders/updated" | "orders/cancelled"; orderId: number }
  | { topic: "fulfillments/create" | "fulfillments/update"; fulfillmentId: number }
  | { topic: "fulfillment_events/create"; eventId: number }
  | { topic: "fulfillment_orders/placed_on_hold"; fulfillmentOrderId: number; holdId: number }
  | { topic: "fulfillment_orders/hold_released"; fulfillmentOrderId: number }
  | {
      topic: "fulfillment_orders/moved";
      originalFulfillmentOrderId: number;
      movedFulfillmentOrderId: number;
      sourceLocationId: number;
      destinationLocationId: number;
      requested: { id: number; quantity: number }[];
    }
  | { topic: "returns/request" | "returns/approve" | "returns/decline" | "returns/cancel" | "returns/close"; returnId: number }
  | { topic: "reverse_deliveries/attach_deliverable"; reverseDeliveryId: number }
  | { topic: "app/uninstalled" }
  | { topic: "app/scopes_update"; previous: string[]; current: string[] };
