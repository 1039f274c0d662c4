import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { isoAt, systemClock, toShopifyDateTime, type Clock } from "../clock.js";
import { SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";
import type {
  AccessTokenRow,
  Address,
  BulkOperationRow,
  CountryHsCodeRow,
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
  ShippingLineData,
  ShopRow,
  StaffUserRow,
  StoreEvent,
  TrackingInfoRow,
  VariantRow,
  WebhookDeliveryRow,
} from "./types.js";

export type StoreListener = (event: StoreEvent) => void;

export interface NewOrderLine {
  variantId: number;
  quantity: number;
  /** Defaults to the variant's price. */
  price?: string;
  /** Location whose fulfillment order holds this line; defaults to the first active merchant location. */
  locationId?: number;
  requiresShipping?: boolean;
}

export interface NewOrderInput {
  createdAt?: string;
  email?: string | null;
  phone?: string | null;
  note?: string | null;
  tags?: string[];
  test?: boolean;
  presentmentCurrencyCode?: string;
  shippingAddress: Address | null;
  billingAddress?: Address | null;
  shippingLine: ShippingLineData | null;
  deliveryMethod?: "SHIPPING" | "PICK_UP" | "LOCAL" | "PICKUP_POINT" | "RETAIL" | "NONE";
  lines: NewOrderLine[];
}

export const FULFILLABLE_FO_STATUSES = new Set(["OPEN", "IN_PROGRESS"]);

/**
 * The local admin's persistent store: better-sqlite3 over its own database (WAL). Reads are plain methods;
 * writes that a webhook subscriber cares about go through `transaction`, which emits StoreEvents after commit.
 */
export class Store {
  readonly db: Database.Database;
  readonly clock: Clock;
  private listeners = new Set<StoreListener>();
  private pending: StoreEvent[] | null = null;
  private mutedDepth = 0;

  constructor(dbPath: string, clock: Clock = systemClock) {
    if (dbPath !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
    this.db = new Database(dbPath);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("synchronous = NORMAL");
    this.db.exec(SCHEMA_SQL);
    this.sql("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
    this.clock = clock;
  }

  close(): void {
    this.db.close();
  }

  private statements = new Map<string, Database.Statement>();

  /** A prepared statement, cached by its text (seeding 10,000 orders prepares each statement once). */
  sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private byId<T>(table: string, id: number): T | undefined {
    return this.sql(`SELECT * FROM ${table} WHERE id = ?`).get(id) as T | undefined;
  }

  private where<T>(table: string, column: string, value: unknown, orderBy: string): T[] {
    return this.sql(`SELECT * FROM ${table} WHERE ${column} = ? ORDER BY ${orderBy}`).all(value) as T[];
  }

  now(): string {
    return isoAt(this.clock);
  }

  // ---------------------------------------------------------------- events and transactions

  onEvent(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: StoreEvent): void {
    if (this.mutedDepth > 0) return;
    if (this.pending) this.pending.push(event);
    else this.dispatch([event]);
  }

  /** Runs fn in one SQLite transaction (nested calls become savepoints); events are delivered after the outermost commit. */
  transaction<T>(fn: () => T): T {
    const outermost = this.pending === null;
    if (outermost) this.pending = [];
    try {
      const result = this.db.transaction(fn)();
      if (outermost) {
        const events = this.pending ?? [];
        this.pending = null;
        this.dispatch(events);
      }
      return result;
    } catch (error) {
      if (outermost) this.pending = null;
      throw error;
    }
  }

  /** Runs fn without emitting events (seeding builds history that must not reach the app as webhooks). */
  muted<T>(fn: () => T): T {
    this.mutedDepth++;
    try {
      return fn();
    } finally {
      this.mutedDepth--;
    }
  }

  private dispatch(events: StoreEvent[]): void {
    for (const event of events) for (const listener of this.listeners) listener(event);
  }

  // ---------------------------------------------------------------- shop, staff, locations, catalog

  isEmpty(): boolean {
    return this.countRows("shop") === 0;
  }

  countRows(table: "shop" | "orders" | "products" | "locations" | "fulfillments" | "webhook_deliveries"): number {
    return (this.sql(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  }

  getShop(): ShopRow {
    const row = this.sql("SELECT * FROM shop LIMIT 1").get() as ShopRow | undefined;
    if (!row) throw new Error("The local admin store has no shop yet: seed it first (npm run devstore:seed).");
    return row;
  }

  shopAddress(): Address {
    return JSON.parse(this.getShop().address_json) as Address;
  }

  insertShop(shop: Omit<ShopRow, "id" | "address_json" | "created_at"> & { address: Address }): void {
    this.sql(
      `INSERT INTO shop (id, name, email, myshopify_domain, currency_code, weight_unit, unit_system, iana_timezone, address_json, created_at)
       VALUES (1, @name, @email, @myshopify_domain, @currency_code, @weight_unit, @unit_system, @iana_timezone, @address_json, @created_at)`,
    ).run({ ...shop, address_json: JSON.stringify(shop.address), created_at: this.now() });
  }

  insertStaffUser(user: Omit<StaffUserRow, "id"> & { id?: number }): number {
    const info = this.sql(
      "INSERT INTO staff_users (id, first_name, last_name, email, account_owner, locale) VALUES (@id, @first_name, @last_name, @email, @account_owner, @locale)",
    ).run({ id: user.id ?? null, ...user });
    return Number(info.lastInsertRowid);
  }

  getStaffUser(id: number): StaffUserRow | undefined {
    return this.byId<StaffUserRow>("staff_users", id);
  }

  accountOwner(): StaffUserRow | undefined {
    return this.sql("SELECT * FROM staff_users ORDER BY account_owner DESC, id LIMIT 1").get() as StaffUserRow | undefined;
  }

  insertLocation(loc: Omit<LocationRow, "id" | "created_at" | "updated_at">): number {
    const now = this.now();
    const info = this.sql(
      `INSERT INTO locations (name, address1, address2, city, province, province_code, zip, country, country_code, phone,
         is_active, fulfills_online_orders, is_fulfillment_service, fulfillment_service_handle, created_at, updated_at)
       VALUES (@name, @address1, @address2, @city, @province, @province_code, @zip, @country, @country_code, @phone,
         @is_active, @fulfills_online_orders, @is_fulfillment_service, @fulfillment_service_handle, @now, @now)`,
    ).run({ ...loc, now });
    return Number(info.lastInsertRowid);
  }

  getLocation(id: number): LocationRow | undefined {
    return this.byId<LocationRow>("locations", id);
  }

  listLocations(includeInactive = false): LocationRow[] {
    return this.sql(`SELECT * FROM locations ${includeInactive ? "" : "WHERE is_active = 1"} ORDER BY name, id`)
      .all() as LocationRow[];
  }

  defaultLocationId(): number {
    const row = this.sql("SELECT id FROM locations WHERE is_active = 1 AND is_fulfillment_service = 0 ORDER BY id LIMIT 1")
      .get() as { id: number } | undefined;
    if (!row) throw new Error("The store has no active merchant-managed location");
    return row.id;
  }

  insertProduct(p: Pick<ProductRow, "title" | "vendor" | "product_type" | "handle">): number {
    const now = this.now();
    const info = this.sql(
      "INSERT INTO products (title, vendor, product_type, handle, created_at, updated_at) VALUES (@title, @vendor, @product_type, @handle, @now, @now)",
    ).run({ ...p, now });
    return Number(info.lastInsertRowid);
  }

  insertVariant(
    v: Pick<VariantRow, "product_id" | "title" | "sku" | "price" | "position"> &
      Pick<
        InventoryItemRow,
        "weight_unit" | "weight_value" | "harmonized_system_code" | "country_code_of_origin" | "province_code_of_origin"
      > & { requiresShipping?: boolean; countryHsCodes?: { countryCode: string; code: string }[] },
  ): { variantId: number; inventoryItemId: number } {
    const now = this.now();
    const item = this.sql(
      `INSERT INTO inventory_items (sku, requires_shipping, weight_unit, weight_value, harmonized_system_code,
         country_code_of_origin, province_code_of_origin, created_at, updated_at)
       VALUES (@sku, @requires_shipping, @weight_unit, @weight_value, @harmonized_system_code, @country_code_of_origin,
         @province_code_of_origin, @now, @now)`,
    ).run({
      sku: v.sku,
      requires_shipping: v.requiresShipping === false ? 0 : 1,
      weight_unit: v.weight_unit,
      weight_value: v.weight_value,
      harmonized_system_code: v.harmonized_system_code,
      country_code_of_origin: v.country_code_of_origin,
      province_code_of_origin: v.province_code_of_origin,
      now,
    });
    const inventoryItemId = Number(item.lastInsertRowid);
    const hs = this.sql(
      "INSERT INTO inventory_item_country_hs_codes (inventory_item_id, country_code, harmonized_system_code) VALUES (?, ?, ?)",
    );
    for (const c of v.countryHsCodes ?? []) hs.run(inventoryItemId, c.countryCode, c.code);
    const variant = this.sql(
      `INSERT INTO variants (product_id, inventory_item_id, title, sku, price, position, created_at, updated_at)
       VALUES (@product_id, @inventory_item_id, @title, @sku, @price, @position, @now, @now)`,
    ).run({ product_id: v.product_id, inventory_item_id: inventoryItemId, title: v.title, sku: v.sku, price: v.price, position: v.position, now });
    return { variantId: Number(variant.lastInsertRowid), inventoryItemId };
  }

  getProduct(id: number): ProductRow | undefined {
    return this.byId<ProductRow>("products", id);
  }

  listProductIds(): number[] {
    return (this.sql("SELECT id FROM products ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  }

  getVariant(id: number): VariantRow | undefined {
    return this.byId<VariantRow>("variants", id);
  }

  listVariants(productId: number): VariantRow[] {
    return this.where<VariantRow>("variants", "product_id", productId, "position, id");
  }

  variantForInventoryItem(inventoryItemId: number): VariantRow | undefined {
    return this.sql("SELECT * FROM variants WHERE inventory_item_id = ?").get(inventoryItemId) as VariantRow | undefined;
  }

  getInventoryItem(id: number): InventoryItemRow | undefined {
    return this.byId<InventoryItemRow>("inventory_items", id);
  }

  listCountryHsCodes(inventoryItemId: number): (CountryHsCodeRow & { id: number })[] {
    return this.sql("SELECT rowid AS id, * FROM inventory_item_country_hs_codes WHERE inventory_item_id = ? ORDER BY country_code")
      .all(inventoryItemId) as (CountryHsCodeRow & { id: number })[];
  }

  // ---------------------------------------------------------------- orders

  getOrder(id: number): OrderRow | undefined {
    return this.byId<OrderRow>("orders", id);
  }

  nextOrderNumber(): number {
    const row = this.sql("SELECT MAX(number) AS n FROM orders").get() as { n: number | null };
    return (row.n ?? 1000) + 1;
  }

  /** Creates an order with its line items and one fulfillment order per assigned location (Shopify's routing result). */
  createOrder(input: NewOrderInput): number {
    return this.transaction(() => {
      const shop = this.getShop();
      const number = this.nextOrderNumber();
      const createdAt = input.createdAt ?? this.now();
      this.sql(
        `INSERT INTO orders (id, number, name, email, phone, note, tags_json, test, currency_code, presentment_currency_code,
           created_at, processed_at, updated_at, shipping_address_json, billing_address_json, shipping_line_json)
         VALUES (@id, @number, @name, @email, @phone, @note, @tags_json, @test, @currency_code, @presentment_currency_code,
           @created_at, @created_at, @created_at, @shipping_address_json, @billing_address_json, @shipping_line_json)`,
      ).run({
        id: number,
        number,
        name: `#${number}`,
        email: input.email ?? null,
        phone: input.phone ?? null,
        note: input.note ?? null,
        tags_json: JSON.stringify(input.tags ?? []),
        test: input.test ? 1 : 0,
        currency_code: shop.currency_code,
        presentment_currency_code: input.presentmentCurrencyCode ?? shop.currency_code,
        created_at: createdAt,
        shipping_address_json: input.shippingAddress ? JSON.stringify(input.shippingAddress) : null,
        billing_address_json: JSON.stringify(input.billingAddress ?? input.shippingAddress ?? null),
        shipping_line_json: input.shippingLine ? JSON.stringify(input.shippingLine) : null,
      });
      const orderId = number;
      const insertLine = this.sql(
        `INSERT INTO line_items (order_id, variant_id, title, variant_title, sku, vendor, quantity, price, requires_shipping, position)
         VALUES (@order_id, @variant_id, @title, @variant_title, @sku, @vendor, @quantity, @price, @requires_shipping, @position)`,
      );
      const byLocation = new Map<number, { lineItemId: number; quantity: number }[]>();
      input.lines.forEach((line, index) => {
        const variant = this.getVariant(line.variantId);
        if (!variant) throw new Error(`Unknown variant ${line.variantId}`);
        const product = this.getProduct(variant.product_id);
        const item = this.getInventoryItem(variant.inventory_item_id);
        const info = insertLine.run({
          order_id: orderId,
          variant_id: variant.id,
          title: product?.title ?? variant.title,
          variant_title: variant.title === "Default Title" ? null : variant.title,
          sku: variant.sku,
          vendor: product?.vendor ?? null,
          quantity: line.quantity,
          price: line.price ?? variant.price,
          requires_shipping: (line.requiresShipping ?? item?.requires_shipping !== 0) ? 1 : 0,
          position: index,
        });
        const locationId = line.locationId ?? this.defaultLocationId();
        const list = byLocation.get(locationId) ?? [];
        list.push({ lineItemId: Number(info.lastInsertRowid), quantity: line.quantity });
        byLocation.set(locationId, list);
      });
      const method = input.deliveryMethod ?? "SHIPPING";
      for (const [locationId, lines] of byLocation) {
        this.insertFulfillmentOrder({
          order_id: orderId,
          assigned_location_id: locationId,
          status: "OPEN",
          request_status: "UNSUBMITTED",
          delivery_method_type: method,
          delivery_service_code: input.shippingLine?.code ?? null,
          delivery_presented_name: input.shippingLine?.title ?? null,
          created_at: createdAt,
          lines,
        });
      }
      this.recomputeOrder(orderId, { touch: false });
      this.emit({ topic: "orders/create", orderId });
      return orderId;
    });
  }

  insertFulfillmentOrder(fo: {
    order_id: number;
    assigned_location_id: number;
    status: FulfillmentOrderRow["status"];
    request_status: string;
    delivery_method_type: string;
    delivery_service_code: string | null;
    delivery_presented_name: string | null;
    created_at?: string;
    fulfill_at?: string | null;
    lines: { lineItemId: number; quantity: number }[];
  }): number {
    const created = fo.created_at ?? this.now();
    const info = this.sql(
      `INSERT INTO fulfillment_orders (order_id, assigned_location_id, status, request_status, fulfill_at, delivery_method_type,
         delivery_service_code, delivery_presented_name, created_at, updated_at)
       VALUES (@order_id, @assigned_location_id, @status, @request_status, @fulfill_at, @delivery_method_type,
         @delivery_service_code, @delivery_presented_name, @created, @created)`,
    ).run({
      order_id: fo.order_id,
      assigned_location_id: fo.assigned_location_id,
      status: fo.status,
      request_status: fo.request_status,
      fulfill_at: fo.fulfill_at ?? created,
      delivery_method_type: fo.delivery_method_type,
      delivery_service_code: fo.delivery_service_code,
      delivery_presented_name: fo.delivery_presented_name,
      created,
    });
    const foId = Number(info.lastInsertRowid);
    const insertLine = this.sql(
      "INSERT INTO fulfillment_order_line_items (fulfillment_order_id, line_item_id, total_quantity, remaining_quantity) VALUES (?, ?, ?, ?)",
    );
    for (const line of fo.lines) insertLine.run(foId, line.lineItemId, line.quantity, line.quantity);
    return foId;
  }

  listLineItems(orderId: number): LineItemRow[] {
    return this.where<LineItemRow>("line_items", "order_id", orderId, "position, id");
  }

  getLineItem(id: number): LineItemRow | undefined {
    return this.byId<LineItemRow>("line_items", id);
  }

  /** Per-unit weight of a line item in the catalog's unit, or null when the line has no variant. */
  lineItemWeight(line: LineItemRow): { unit: InventoryItemRow["weight_unit"]; value: number } | null {
    if (line.variant_id === null) return null;
    const variant = this.getVariant(line.variant_id);
    const item = variant ? this.getInventoryItem(variant.inventory_item_id) : undefined;
    return item ? { unit: item.weight_unit, value: item.weight_value } : null;
  }

  listFulfillmentOrders(orderId: number): FulfillmentOrderRow[] {
    return this.where<FulfillmentOrderRow>("fulfillment_orders", "order_id", orderId, "id");
  }

  getFulfillmentOrder(id: number): FulfillmentOrderRow | undefined {
    return this.byId<FulfillmentOrderRow>("fulfillment_orders", id);
  }

  listFoLineItems(foId: number): FoLineItemRow[] {
    return this.where<FoLineItemRow>("fulfillment_order_line_items", "fulfillment_order_id", foId, "id");
  }

  getFoLineItem(id: number): FoLineItemRow | undefined {
    return this.byId<FoLineItemRow>("fulfillment_order_line_items", id);
  }

  listHolds(foId: number): HoldRow[] {
    return this.where<HoldRow>("fulfillment_holds", "fulfillment_order_id", foId, "id");
  }

  getHold(id: number): HoldRow | undefined {
    return this.byId<HoldRow>("fulfillment_holds", id);
  }

  listFulfillments(orderId: number): FulfillmentRow[] {
    return this.where<FulfillmentRow>("fulfillments", "order_id", orderId, "id");
  }

  getFulfillment(id: number): FulfillmentRow | undefined {
    return this.byId<FulfillmentRow>("fulfillments", id);
  }

  listFulfillmentLineItems(fulfillmentId: number): FulfillmentLineItemRow[] {
    return this.where<FulfillmentLineItemRow>("fulfillment_line_items", "fulfillment_id", fulfillmentId, "id");
  }

  getFulfillmentLineItem(id: number): FulfillmentLineItemRow | undefined {
    return this.byId<FulfillmentLineItemRow>("fulfillment_line_items", id);
  }

  listTrackingInfo(fulfillmentId: number): TrackingInfoRow[] {
    return this.where<TrackingInfoRow>("tracking_info", "fulfillment_id", fulfillmentId, "position");
  }

  listFulfillmentEvents(fulfillmentId: number): FulfillmentEventRow[] {
    return this.where<FulfillmentEventRow>("fulfillment_events", "fulfillment_id", fulfillmentId, "id");
  }

  getFulfillmentEvent(id: number): FulfillmentEventRow | undefined {
    return this.byId<FulfillmentEventRow>("fulfillment_events", id);
  }

  /** Units shipped per line item across fulfillments that are not cancelled. */
  fulfilledQuantities(orderId: number): Map<number, number> {
    const rows = this.sql(
      `SELECT fli.line_item_id AS id, SUM(fli.quantity) AS q FROM fulfillment_line_items fli
       JOIN fulfillments f ON f.id = fli.fulfillment_id WHERE f.order_id = ? AND f.status = 'SUCCESS' GROUP BY fli.line_item_id`,
    ).all(orderId) as { id: number; q: number }[];
    return new Map(rows.map((r) => [r.id, r.q]));
  }

  /**
   * Recomputes the order's displayFulfillmentStatus from its fulfillments and fulfillment orders, the way the admin
   * shows it: shipped units decide FULFILLED / PARTIALLY_FULFILLED; otherwise the open FOs' states (all on hold,
   * all scheduled, handed to a fulfillment service) or UNFULFILLED.
   */
  recomputeOrder(orderId: number, opts: { touch?: boolean } = {}): void {
    const lines = this.listLineItems(orderId);
    const fulfilled = this.fulfilledQuantities(orderId);
    const shippable = lines.filter((l) => l.requires_shipping === 1);
    const total = lines.reduce((sum, l) => sum + l.quantity, 0);
    const shipped = lines.reduce((sum, l) => sum + Math.min(l.quantity, fulfilled.get(l.id) ?? 0), 0);
    const open = this.listFulfillmentOrders(orderId).filter((fo) => fo.status !== "CLOSED" && fo.status !== "CANCELLED");
    let status: string;
    if (total === 0 || shippable.length === 0) status = "FULFILLMENT_NOT_REQUIRED";
    else if (shipped >= total) status = "FULFILLED";
    else if (shipped > 0) status = "PARTIALLY_FULFILLED";
    else if (open.length > 0 && open.every((fo) => fo.status === "ON_HOLD")) status = "ON_HOLD";
    else if (open.length > 0 && open.every((fo) => fo.status === "SCHEDULED")) status = "SCHEDULED";
    else if (open.some((fo) => fo.status === "IN_PROGRESS" || (fo.request_status !== "UNSUBMITTED" && fo.request_status !== "CLOSED")))
      status = "IN_PROGRESS";
    else status = "UNFULFILLED";
    if (opts.touch === false) {
      this.sql("UPDATE orders SET display_fulfillment_status = ? WHERE id = ?").run(status, orderId);
    } else {
      this.sql("UPDATE orders SET display_fulfillment_status = ?, updated_at = ? WHERE id = ?").run(status, this.now(), orderId);
    }
  }

  // ---------------------------------------------------------------- bulk operations

  insertBulkOperation(query: string): number {
    const info = this.sql("INSERT INTO bulk_operations (type, status, query, created_at) VALUES ('QUERY', 'CREATED', ?, ?)")
      .run(query, this.now());
    return Number(info.lastInsertRowid);
  }

  updateBulkOperation(id: number, fields: Partial<Omit<BulkOperationRow, "id">>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.sql(`UPDATE bulk_operations SET ${keys.map((k) => `${k} = @${k}`).join(", ")} WHERE id = @id`).run({ ...fields, id });
  }

  getBulkOperation(id: number): BulkOperationRow | undefined {
    return this.byId<BulkOperationRow>("bulk_operations", id);
  }

  currentBulkOperation(type: string): BulkOperationRow | undefined {
    return this.sql("SELECT * FROM bulk_operations WHERE type = ? ORDER BY id DESC LIMIT 1").get(type) as BulkOperationRow | undefined;
  }

  runningBulkOperations(): number {
    return (this.sql("SELECT COUNT(*) AS n FROM bulk_operations WHERE status IN ('CREATED', 'RUNNING')").get() as { n: number }).n;
  }

  // ---------------------------------------------------------------- access tokens

  issueAccessToken(opts: { kind: "offline" | "online"; scope: string; userId?: number | null; expiresInSeconds?: number }): AccessTokenRow {
    const prefix = opts.kind === "offline" ? "shpat_" : "shpua_";
    const row: AccessTokenRow = {
      token: prefix + randomBytes(16).toString("hex"),
      kind: opts.kind,
      scope: opts.scope,
      user_id: opts.userId ?? null,
      created_at: this.now(),
      expires_at: opts.expiresInSeconds ? toShopifyDateTime(this.clock() + opts.expiresInSeconds * 1000) : null,
      revoked_at: null,
    };
    this.sql(
      "INSERT INTO access_tokens (token, kind, scope, user_id, created_at, expires_at, revoked_at) VALUES (@token, @kind, @scope, @user_id, @created_at, @expires_at, @revoked_at)",
    ).run(row);
    return row;
  }

  /** The token's row if it is known, not revoked and not expired. */
  findValidAccessToken(token: string): AccessTokenRow | undefined {
    const row = this.sql("SELECT * FROM access_tokens WHERE token = ?").get(token) as AccessTokenRow | undefined;
    if (!row || row.revoked_at) return undefined;
    if (row.expires_at && Date.parse(row.expires_at) <= this.clock()) return undefined;
    return row;
  }

  /** Uninstalling the app revokes every token and fires app/uninstalled. */
  uninstallApp(): void {
    this.transaction(() => {
      this.sql("UPDATE access_tokens SET revoked_at = ? WHERE revoked_at IS NULL").run(this.now());
      this.emit({ topic: "app/uninstalled" });
    });
  }

  // ---------------------------------------------------------------- webhook delivery log

  insertWebhookDelivery(d: Pick<WebhookDeliveryRow, "webhook_id" | "event_id" | "topic" | "url" | "body" | "triggered_at">): number {
    const info = this.sql(
      "INSERT INTO webhook_deliveries (webhook_id, event_id, topic, url, body, status, triggered_at) VALUES (@webhook_id, @event_id, @topic, @url, @body, 'pending', @triggered_at)",
    ).run(d);
    return Number(info.lastInsertRowid);
  }

  recordWebhookAttempt(id: number, outcome: { status: WebhookDeliveryRow["status"]; statusCode: number | null; error: string | null }): void {
    this.sql(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = @status, last_status_code = @code, last_error = @error,
         delivered_at = CASE WHEN @status = 'delivered' THEN @now ELSE delivered_at END WHERE id = @id`,
    ).run({ id, status: outcome.status, code: outcome.statusCode, error: outcome.error, now: this.now() });
  }

  getWebhookDelivery(id: number): WebhookDeliveryRow | undefined {
    return this.byId<WebhookDeliveryRow>("webhook_deliveries", id);
  }

  listWebhookDeliveries(): WebhookDeliveryRow[] {
    return this.sql("SELECT * FROM webhook_deliveries ORDER BY id").all() as WebhookDeliveryRow[];
  }

  pendingWebhookDeliveries(): WebhookDeliveryRow[] {
    return this.sql("SELECT * FROM webhook_deliveries WHERE status = 'pending' ORDER BY id").all() as WebhookDeliveryRow[];
  }
}
