import { parseGid } from "../gid.js";
import type { Store } from "./store.js";
import type { FoLineItemRow, FulfillmentEventRow, FulfillmentLineItemRow, FulfillmentOrderRow, FulfillmentRow, HoldRow, TrackingInfoRow } from "./types.js";

/**
 * Fulfillment orders and fulfillments: their rows, and the rules Shopify applies to fulfillment orders (which
 * statuses can be fulfilled, the actions each state supports, the search filters an order's fulfillment orders
 * take, which ones are displayable). The mutations that enforce them are in fulfillment-ops.ts.
 */

/** Fulfillment order statuses a fulfillment can be created from. */
export const FULFILLABLE_FO_STATUSES = new Set(["OPEN", "IN_PROGRESS"]);

/** Fulfillment orders (with their line items and holds), fulfillments, their line items, tracking and events. */
export const fulfillmentRows = {
  insertFulfillmentOrder(
    this: Store,
    fo: {
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
    },
  ): number {
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
  },

  listFulfillmentOrders(this: Store, orderId: number): FulfillmentOrderRow[] {
    return this.where<FulfillmentOrderRow>("fulfillment_orders", "order_id", orderId, "id");
  },

  getFulfillmentOrder(this: Store, id: number): FulfillmentOrderRow | undefined {
    return this.byId<FulfillmentOrderRow>("fulfillment_orders", id);
  },

  listFoLineItems(this: Store, foId: number): FoLineItemRow[] {
    return this.where<FoLineItemRow>("fulfillment_order_line_items", "fulfillment_order_id", foId, "id");
  },

  getFoLineItem(this: Store, id: number): FoLineItemRow | undefined {
    return this.byId<FoLineItemRow>("fulfillment_order_line_items", id);
  },

  listHolds(this: Store, foId: number): HoldRow[] {
    return this.where<HoldRow>("fulfillment_holds", "fulfillment_order_id", foId, "id");
  },

  getHold(this: Store, id: number): HoldRow | undefined {
    return this.byId<HoldRow>("fulfillment_holds", id);
  },

  listFulfillments(this: Store, orderId: number): FulfillmentRow[] {
    return this.where<FulfillmentRow>("fulfillments", "order_id", orderId, "id");
  },

  getFulfillment(this: Store, id: number): FulfillmentRow | undefined {
    return this.byId<FulfillmentRow>("fulfillments", id);
  },

  listFulfillmentLineItems(this: Store, fulfillmentId: number): FulfillmentLineItemRow[] {
    return this.where<FulfillmentLineItemRow>("fulfillment_line_items", "fulfillment_id", fulfillmentId, "id");
  },

  getFulfillmentLineItem(this: Store, id: number): FulfillmentLineItemRow | undefined {
    return this.byId<FulfillmentLineItemRow>("fulfillment_line_items", id);
  },

  listTrackingInfo(this: Store, fulfillmentId: number): TrackingInfoRow[] {
    return this.where<TrackingInfoRow>("tracking_info", "fulfillment_id", fulfillmentId, "position");
  },

  listFulfillmentEvents(this: Store, fulfillmentId: number): FulfillmentEventRow[] {
    return this.where<FulfillmentEventRow>("fulfillment_events", "fulfillment_id", fulfillmentId, "id");
  },

  getFulfillmentEvent(this: Store, id: number): FulfillmentEventRow | undefined {
    return this.byId<FulfillmentEventRow>("fulfillment_events", id);
  },

  /** Units shipped per line item across fulfillments that are not cancelled. */
  fulfilledQuantities(this: Store, orderId: number): Map<number, number> {
    const rows = this.sql(
      `SELECT fli.line_item_id AS id, SUM(fli.quantity) AS q FROM fulfillment_line_items fli
       JOIN fulfillments f ON f.id = fli.fulfillment_id WHERE f.order_id = ? AND f.status = 'SUCCESS' GROUP BY fli.line_item_id`,
    ).all(orderId) as { id: number; q: number }[];
    return new Map(rows.map((r) => [r.id, r.q]));
  },
};

/** supportedActions derived from state, as Shopify's merchant-managed / fulfillment-service rules give them. */
export function supportedActions(store: Store, fo: FulfillmentOrderRow): string[] {
  const location = store.getLocation(fo.assigned_location_id);
  const lines = store.listFoLineItems(fo.id);
  const remaining = lines.reduce((s, l) => s + l.remaining_quantity, 0);
  const otherLocations = store.listLocations().filter((l) => l.id !== fo.assigned_location_id).length > 0;
  const actions: string[] = [];
  if (location?.is_fulfillment_service === 1) {
    if (fo.status === "OPEN" && fo.request_status === "UNSUBMITTED") actions.push("REQUEST_FULFILLMENT", "CANCEL_FULFILLMENT_ORDER");
    if (["SUBMITTED", "ACCEPTED"].includes(fo.request_status)) actions.push("REQUEST_CANCELLATION");
    if (fo.status === "OPEN" && otherLocations) actions.push("MOVE");
    return actions;
  }
  switch (fo.status) {
    case "OPEN":
    case "IN_PROGRESS":
      actions.push("CREATE_FULFILLMENT", "REPORT_PROGRESS");
      if (otherLocations) actions.push("MOVE");
      actions.push("HOLD");
      if (remaining > 1) actions.push("SPLIT");
      if (fo.status === "IN_PROGRESS") actions.push("MARK_AS_OPEN");
      break;
    case "ON_HOLD":
      actions.push("RELEASE_HOLD", "HOLD");
      if (otherLocations) actions.push("MOVE");
      break;
    case "SCHEDULED":
      actions.push("MARK_AS_OPEN");
      if (otherLocations) actions.push("MOVE");
      break;
    default:
      break;
  }
  return actions;
}

/** FulfillmentOrder search on an order: `status:` and `assigned_location_id:` (the filters its docs list). */
export function filterFulfillmentOrders(fos: FulfillmentOrderRow[], query: string): FulfillmentOrderRow[] {
  let result = fos;
  for (const token of query.trim().split(/\s+/)) {
    const [field, raw = ""] = token.split(":");
    const value = raw.replace(/^["']|["']$/g, "");
    if (field === "status") result = result.filter((fo) => fo.status.toLowerCase() === value.toLowerCase());
    else if (field === "assigned_location_id") {
      const id = parseGid(value)?.id ?? Number(value);
      result = result.filter((fo) => fo.assigned_location_id === id);
    }
  }
  return result;
}

/**
 * Shopify's `displayable` fulfillment orders: the ones the merchant can act on or has acted on (cancelled ones and
 * ones closed without any fulfillment are hidden).
 */
export function isDisplayable(store: Store, fo: FulfillmentOrderRow): boolean {
  if (fo.status === "CANCELLED" || fo.status === "INCOMPLETE") return false;
  if (fo.status !== "CLOSED") return true;
  return store.sql("SELECT 1 FROM fulfillment_line_items WHERE fulfillment_order_id = ? LIMIT 1").get(fo.id) !== undefined;
}
