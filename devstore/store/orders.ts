import type { Store } from "./store.js";
import type { Address, CustomerRow, InventoryItemRow, LineItemRow, OrderRow, ShippingLineData } from "./types.js";

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
  /** Order.customAttributes, e.g. a theme's "Gift message". */
  customAttributes?: { key: string; value: string | null }[];
  tags?: string[];
  test?: boolean;
  presentmentCurrencyCode?: string;
  shippingAddress: Address | null;
  billingAddress?: Address | null;
  shippingLine: ShippingLineData | null;
  deliveryMethod?: "SHIPPING" | "PICK_UP" | "LOCAL" | "PICKUP_POINT" | "RETAIL" | "NONE";
  lines: NewOrderLine[];
}

/** Orders and their line items: creating an order routes its lines to fulfillment orders; the display status follows them. */
export const orderRows = {
  getOrder(this: Store, id: number): OrderRow | undefined {
    return this.byId<OrderRow>("orders", id);
  },

  getCustomer(this: Store, id: number): CustomerRow | undefined {
    return this.byId<CustomerRow>("customers", id);
  },

  /**
   * The customer of an email, created on first use as checkout does (named from the address the order gave):
   * every order placed with that email is theirs, and their customer account shows it.
   */
  customerForEmail(this: Store, email: string, name: Pick<Address, "firstName" | "lastName"> | null): number {
    const found = this.sql("SELECT id FROM customers WHERE email = ?").get(email) as { id: number } | undefined;
    if (found) return found.id;
    const created = this.sql("INSERT INTO customers (email, first_name, last_name, created_at) VALUES (?, ?, ?, ?)").run(
      email,
      name?.firstName ?? null,
      name?.lastName ?? null,
      this.now(),
    );
    return Number(created.lastInsertRowid);
  },

  /** Adds and removes tags on an order (Shopify keeps them unique, in the order added); orders/updated when they changed. */
  changeOrderTags(this: Store, id: number, change: { add?: readonly string[]; remove?: readonly string[] }): string[] {
    return this.transaction(() => {
      const order = this.getOrder(id);
      if (!order) throw new Error(`Unknown order ${id}`);
      const before = JSON.parse(order.tags_json) as string[];
      const removed = new Set((change.remove ?? []).map((tag) => tag.trim().toLowerCase()));
      const after = before.filter((tag) => !removed.has(tag.toLowerCase()));
      for (const tag of change.add ?? []) {
        const trimmed = tag.trim();
        if (trimmed && !after.some((existing) => existing.toLowerCase() === trimmed.toLowerCase())) after.push(trimmed);
      }
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        this.sql("UPDATE orders SET tags_json = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(after), this.now(), id);
        this.emit({ topic: "orders/updated", orderId: id });
      }
      return after;
    });
  },

  nextOrderNumber(this: Store): number {
    const row = this.sql("SELECT MAX(number) AS n FROM orders").get() as { n: number | null };
    return (row.n ?? 1000) + 1;
  },

  /** Creates an order with its line items and one fulfillment order per assigned location (Shopify's routing result). */
  createOrder(this: Store, input: NewOrderInput): number {
    return this.transaction(() => {
      const shop = this.getShop();
      const number = this.nextOrderNumber();
      const createdAt = input.createdAt ?? this.now();
      this.sql(
        `INSERT INTO orders (id, number, name, email, customer_id, phone, note, custom_attributes_json, tags_json, test, currency_code, presentment_currency_code,
           created_at, processed_at, updated_at, shipping_address_json, billing_address_json, shipping_line_json)
         VALUES (@id, @number, @name, @email, @customer_id, @phone, @note, @custom_attributes_json, @tags_json, @test, @currency_code, @presentment_currency_code,
           @created_at, @created_at, @created_at, @shipping_address_json, @billing_address_json, @shipping_line_json)`,
      ).run({
        id: number,
        number,
        name: `#${number}`,
        email: input.email ?? null,
        customer_id: input.email ? this.customerForEmail(input.email, input.billingAddress ?? input.shippingAddress) : null,
        phone: input.phone ?? null,
        note: input.note ?? null,
        custom_attributes_json: JSON.stringify(input.customAttributes ?? []),
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
  },

  listLineItems(this: Store, orderId: number): LineItemRow[] {
    return this.where<LineItemRow>("line_items", "order_id", orderId, "position, id");
  },

  getLineItem(this: Store, id: number): LineItemRow | undefined {
    return this.byId<LineItemRow>("line_items", id);
  },

  /** Per-unit weight of a line item in the catalog's unit, or null when the line has no variant. */
  lineItemWeight(this: Store, line: LineItemRow): { unit: InventoryItemRow["weight_unit"]; value: number } | null {
    if (line.variant_id === null) return null;
    const variant = this.getVariant(line.variant_id);
    const item = variant ? this.getInventoryItem(variant.inventory_item_id) : undefined;
    return item ? { unit: item.weight_unit, value: item.weight_value } : null;
  },

  /**
   * Recomputes the order's displayFulfillmentStatus from its fulfillments and fulfillment orders, the way the admin
   * shows it: shipped units decide FULFILLED / PARTIALLY_FULFILLED; otherwise the open FOs' states (all on hold,
   * all scheduled, handed to a fulfillment service) or UNFULFILLED.
   */
  recomputeOrder(this: Store, orderId: number, opts: { touch?: boolean } = {}): void {
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
    else if (open.some((fo) => fo.status === "IN_PROGRESS" || (fo.request_status !== "UNSUBMITTED" && fo.request_status !== "CLOSED"))) status = "IN_PROGRESS";
    else status = "UNFULFILLED";
    if (opts.touch === false) {
      this.sql("UPDATE orders SET display_fulfillment_status = ? WHERE id = ?").run(status, orderId);
    } else {
      this.sql("UPDATE orders SET display_fulfillment_status = ?, updated_at = ? WHERE id = ?").run(status, this.now(), orderId);
    }
  },
};
