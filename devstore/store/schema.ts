/**
 * The local admin's own SQLite schema. Addresses, shipping lines and tags are JSON columns because nothing
 * queries inside them except tags (through json_each); everything the fulfillment flow changes is relational.
 */
export const SCHEMA_VERSION = 1;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS shop (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  myshopify_domain TEXT NOT NULL,
  currency_code TEXT NOT NULL,
  weight_unit TEXT NOT NULL,
  unit_system TEXT NOT NULL,
  iana_timezone TEXT NOT NULL,
  address_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS staff_users (
  id INTEGER PRIMARY KEY,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  account_owner INTEGER NOT NULL DEFAULT 0,
  locale TEXT NOT NULL DEFAULT 'en'
);

CREATE TABLE IF NOT EXISTS locations (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  address1 TEXT, address2 TEXT, city TEXT, province TEXT, province_code TEXT, zip TEXT,
  country TEXT, country_code TEXT NOT NULL, phone TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  fulfills_online_orders INTEGER NOT NULL DEFAULT 1,
  is_fulfillment_service INTEGER NOT NULL DEFAULT 0,
  fulfillment_service_handle TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS products (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  vendor TEXT NOT NULL,
  product_type TEXT NOT NULL,
  handle TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'ACTIVE',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS inventory_items (
  id INTEGER PRIMARY KEY,
  sku TEXT,
  requires_shipping INTEGER NOT NULL DEFAULT 1,
  tracked INTEGER NOT NULL DEFAULT 1,
  weight_unit TEXT NOT NULL,
  weight_value REAL NOT NULL,
  harmonized_system_code TEXT,
  country_code_of_origin TEXT,
  province_code_of_origin TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS inventory_item_country_hs_codes (
  inventory_item_id INTEGER NOT NULL REFERENCES inventory_items(id),
  country_code TEXT NOT NULL,
  harmonized_system_code TEXT NOT NULL,
  PRIMARY KEY (inventory_item_id, country_code)
);

CREATE TABLE IF NOT EXISTS variants (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id),
  inventory_item_id INTEGER NOT NULL REFERENCES inventory_items(id),
  title TEXT NOT NULL,
  sku TEXT,
  price TEXT NOT NULL,
  position INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Customers as checkout creates them: one per email an order was placed with (Order.customer).
CREATE TABLE IF NOT EXISTS customers (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  first_name TEXT,
  last_name TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT,
  customer_id INTEGER REFERENCES customers(id),
  phone TEXT,
  note TEXT,
  custom_attributes_json TEXT NOT NULL DEFAULT '[]',
  tags_json TEXT NOT NULL DEFAULT '[]',
  test INTEGER NOT NULL DEFAULT 0,
  currency_code TEXT NOT NULL,
  presentment_currency_code TEXT NOT NULL,
  created_at TEXT NOT NULL,
  processed_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  cancelled_at TEXT,
  cancel_reason TEXT,
  closed INTEGER NOT NULL DEFAULT 0,
  closed_at TEXT,
  shipping_address_json TEXT,
  billing_address_json TEXT,
  shipping_line_json TEXT,
  display_fulfillment_status TEXT NOT NULL DEFAULT 'UNFULFILLED'
);
CREATE INDEX IF NOT EXISTS orders_created_at ON orders(created_at);
CREATE INDEX IF NOT EXISTS orders_updated_at ON orders(updated_at);

CREATE TABLE IF NOT EXISTS line_items (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  variant_id INTEGER REFERENCES variants(id),
  title TEXT NOT NULL,
  variant_title TEXT,
  sku TEXT,
  vendor TEXT,
  quantity INTEGER NOT NULL,
  price TEXT NOT NULL,
  requires_shipping INTEGER NOT NULL DEFAULT 1,
  position INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS line_items_order ON line_items(order_id);

CREATE TABLE IF NOT EXISTS fulfillment_orders (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  assigned_location_id INTEGER NOT NULL REFERENCES locations(id),
  status TEXT NOT NULL,
  request_status TEXT NOT NULL DEFAULT 'UNSUBMITTED',
  fulfill_at TEXT,
  fulfill_by TEXT,
  delivery_method_type TEXT NOT NULL,
  delivery_service_code TEXT,
  delivery_presented_name TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS fulfillment_orders_order ON fulfillment_orders(order_id);

CREATE TABLE IF NOT EXISTS fulfillment_order_line_items (
  id INTEGER PRIMARY KEY,
  fulfillment_order_id INTEGER NOT NULL REFERENCES fulfillment_orders(id),
  line_item_id INTEGER NOT NULL REFERENCES line_items(id),
  total_quantity INTEGER NOT NULL,
  remaining_quantity INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS fo_line_items_fo ON fulfillment_order_line_items(fulfillment_order_id);

CREATE TABLE IF NOT EXISTS fulfillment_holds (
  id INTEGER PRIMARY KEY,
  fulfillment_order_id INTEGER NOT NULL REFERENCES fulfillment_orders(id),
  reason TEXT NOT NULL,
  reason_notes TEXT,
  handle TEXT NOT NULL DEFAULT '',
  held_by_app INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS fulfillment_holds_fo ON fulfillment_holds(fulfillment_order_id);

CREATE TABLE IF NOT EXISTS fulfillments (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  location_id INTEGER NOT NULL REFERENCES locations(id),
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  display_status TEXT,
  notify_customer INTEGER NOT NULL DEFAULT 0,
  message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  estimated_delivery_at TEXT,
  in_transit_at TEXT,
  delivered_at TEXT
);
CREATE INDEX IF NOT EXISTS fulfillments_order ON fulfillments(order_id);

CREATE TABLE IF NOT EXISTS fulfillment_line_items (
  id INTEGER PRIMARY KEY,
  fulfillment_id INTEGER NOT NULL REFERENCES fulfillments(id),
  line_item_id INTEGER NOT NULL REFERENCES line_items(id),
  fulfillment_order_id INTEGER NOT NULL REFERENCES fulfillment_orders(id),
  fulfillment_order_line_item_id INTEGER NOT NULL REFERENCES fulfillment_order_line_items(id),
  quantity INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS fulfillment_line_items_f ON fulfillment_line_items(fulfillment_id);

CREATE TABLE IF NOT EXISTS tracking_info (
  id INTEGER PRIMARY KEY,
  fulfillment_id INTEGER NOT NULL REFERENCES fulfillments(id),
  position INTEGER NOT NULL,
  company TEXT,
  number TEXT,
  url TEXT
);
CREATE INDEX IF NOT EXISTS tracking_info_f ON tracking_info(fulfillment_id);

CREATE TABLE IF NOT EXISTS fulfillment_events (
  id INTEGER PRIMARY KEY,
  fulfillment_id INTEGER NOT NULL REFERENCES fulfillments(id),
  status TEXT NOT NULL,
  happened_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  estimated_delivery_at TEXT,
  message TEXT,
  address1 TEXT, city TEXT, province TEXT, country TEXT, zip TEXT,
  latitude REAL, longitude REAL
);
CREATE INDEX IF NOT EXISTS fulfillment_events_f ON fulfillment_events(fulfillment_id);

CREATE TABLE IF NOT EXISTS bulk_operations (
  id INTEGER PRIMARY KEY,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  query TEXT NOT NULL,
  created_at TEXT NOT NULL,
  completed_at TEXT,
  object_count INTEGER NOT NULL DEFAULT 0,
  root_object_count INTEGER NOT NULL DEFAULT 0,
  file_size INTEGER,
  error_code TEXT
);

-- A bulk operation's JSONL, in the parts its pages wrote (served one after another).
CREATE TABLE IF NOT EXISTS bulk_operation_results (
  operation_id INTEGER NOT NULL REFERENCES bulk_operations(id),
  part INTEGER NOT NULL,
  jsonl TEXT NOT NULL,
  PRIMARY KEY (operation_id, part)
);

CREATE TABLE IF NOT EXISTS access_tokens (
  token TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('offline', 'online')),
  scope TEXT NOT NULL,
  user_id INTEGER,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT
);

-- The optional scopes the merchant allowed (App Bridge's scopes.request): the installation's, on top of the required ones.
-- Shopify Flow as far as the app's tests need it (devstore/flow/flow.ts): triggers received, action runs called.
CREATE TABLE IF NOT EXISTS flow_trigger_runs (
  id INTEGER PRIMARY KEY,
  handle TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  received_at TEXT NOT NULL,
  -- 1 when a workflow using the trigger was on as it was received (a workflow run started), 0 when none was.
  workflow_on INTEGER
);

-- Workflows using the app's triggers (the Flow page's Turn on / Turn off): on once the app's trigger lifecycle
-- callback answered 2xx. No row: no workflow uses the trigger.
CREATE TABLE IF NOT EXISTS flow_workflows (
  handle TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL,
  changed_at TEXT NOT NULL
);

-- Each trigger lifecycle callback sent to the app, and its answer (status NULL: the app could not be reached).
CREATE TABLE IF NOT EXISTS flow_lifecycle_calls (
  id INTEGER PRIMARY KEY,
  handle TEXT NOT NULL,
  enabled INTEGER NOT NULL,
  status INTEGER,
  answer_json TEXT NOT NULL,
  called_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS flow_action_runs (
  id INTEGER PRIMARY KEY,
  action_run_id TEXT NOT NULL,
  handle TEXT NOT NULL,
  order_id INTEGER NOT NULL,
  status INTEGER NOT NULL,
  answer_json TEXT NOT NULL,
  called_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS granted_optional_scopes (
  scope TEXT PRIMARY KEY,
  granted_at TEXT NOT NULL
);

-- Returns (Shopify's Return, ReverseFulfillmentOrder, ReverseDelivery): what a customer sends back, as store/returns.ts keeps it.
CREATE TABLE IF NOT EXISTS returns (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('REQUESTED', 'OPEN', 'DECLINED', 'CANCELED', 'CLOSED')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  request_approved_at TEXT,
  closed_at TEXT,
  decline_reason TEXT,
  decline_note TEXT
);
CREATE INDEX IF NOT EXISTS returns_order ON returns(order_id);

CREATE TABLE IF NOT EXISTS return_line_items (
  id INTEGER PRIMARY KEY,
  return_id INTEGER NOT NULL REFERENCES returns(id),
  fulfillment_line_item_id INTEGER NOT NULL REFERENCES fulfillment_line_items(id),
  quantity INTEGER NOT NULL,
  return_reason TEXT NOT NULL,
  return_reason_note TEXT NOT NULL DEFAULT '',
  customer_note TEXT
);
CREATE INDEX IF NOT EXISTS return_line_items_return ON return_line_items(return_id);

CREATE TABLE IF NOT EXISTS reverse_fulfillment_orders (
  id INTEGER PRIMARY KEY,
  return_id INTEGER NOT NULL REFERENCES returns(id),
  order_id INTEGER NOT NULL REFERENCES orders(id),
  status TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSED', 'CANCELED')),
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reverse_fulfillment_orders_return ON reverse_fulfillment_orders(return_id);

CREATE TABLE IF NOT EXISTS reverse_fulfillment_order_line_items (
  id INTEGER PRIMARY KEY,
  reverse_fulfillment_order_id INTEGER NOT NULL REFERENCES reverse_fulfillment_orders(id),
  return_line_item_id INTEGER NOT NULL REFERENCES return_line_items(id),
  fulfillment_line_item_id INTEGER NOT NULL REFERENCES fulfillment_line_items(id),
  total_quantity INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rfo_line_items_rfo ON reverse_fulfillment_order_line_items(reverse_fulfillment_order_id);

CREATE TABLE IF NOT EXISTS reverse_deliveries (
  id INTEGER PRIMARY KEY,
  reverse_fulfillment_order_id INTEGER NOT NULL REFERENCES reverse_fulfillment_orders(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  label_url TEXT,
  label_created_at TEXT,
  label_updated_at TEXT,
  tracking_number TEXT,
  tracking_url TEXT,
  carrier_name TEXT
);
CREATE INDEX IF NOT EXISTS reverse_deliveries_rfo ON reverse_deliveries(reverse_fulfillment_order_id);

CREATE TABLE IF NOT EXISTS reverse_delivery_line_items (
  id INTEGER PRIMARY KEY,
  reverse_delivery_id INTEGER NOT NULL REFERENCES reverse_deliveries(id),
  reverse_fulfillment_order_line_item_id INTEGER NOT NULL REFERENCES reverse_fulfillment_order_line_items(id),
  quantity INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reverse_delivery_line_items_rd ON reverse_delivery_line_items(reverse_delivery_id);

-- Emails Shopify would send the customer (notifyCustomer), kept so tests and the shell can read them.
CREATE TABLE IF NOT EXISTS customer_emails (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  to_email TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  label_url TEXT,
  tracking_url TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id INTEGER PRIMARY KEY,
  webhook_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  topic TEXT NOT NULL,
  url TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_status_code INTEGER,
  last_error TEXT,
  triggered_at TEXT NOT NULL,
  delivered_at TEXT
);
`;
