import { toShopifyDateTime } from "../clock.js";
import { toGid } from "../gid.js";
import { FULFILLABLE_FO_STATUSES } from "./fulfillments.js";
import type { Store } from "./store.js";
import type { FoLineItemRow, FulfillmentOrderRow, FulfillmentOrderStatus } from "./types.js";

/**
 * Fulfillment-side writes with Shopify's semantics and userError messages.
 * Each operation validates everything first, then writes in one transaction; StoreEvents drive webhooks.
 */

export interface UserError {
  field: string[] | null;
  message: string;
  code?: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; userErrors: UserError[] };

const fail = <T>(message: string, field: string[] | null, code?: string): Outcome<T> => ({
  ok: false,
  userErrors: [{ field, message, ...(code ? { code } : {}) }],
});

export interface TrackingInput {
  company?: string | null;
  number?: string | null;
  numbers?: string[] | null;
  url?: string | null;
  urls?: string[] | null;
}

export interface FulfillmentCreateInput {
  lineItemsByFulfillmentOrder: {
    fulfillmentOrderId: number | null;
    fulfillmentOrderGid: string;
    /** null or empty: every remaining unit of the FO. */
    fulfillmentOrderLineItems: { id: number | null; quantity: number }[] | null;
  }[];
  notifyCustomer: boolean;
  trackingInfo: TrackingInput | null;
  message: string | null;
}

/** Tracking URL templates for carriers Shopify builds links for (a few common ones from its supported list). */
const TRACKING_URL: Record<string, (n: string) => string> = {
  UPS: (n) => `https://www.ups.com/track?tracknum=${encodeURIComponent(n)}`,
  USPS: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(n)}`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(n)}`,
  "DHL Express": (n) => `https://www.dhl.com/en/express/tracking.html?AWB=${encodeURIComponent(n)}`,
  "Canada Post": (n) => `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${encodeURIComponent(n)}`,
  "Royal Mail": (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${encodeURIComponent(n)}`,
};

function trackingRows(input: TrackingInput | null): { company: string | null; number: string | null; url: string | null }[] {
  if (!input) return [];
  const company = input.company ?? null;
  const numbers = input.numbers ?? (input.number ? [input.number] : []);
  const urls = input.urls ?? (input.url ? [input.url] : []);
  const count = Math.max(numbers.length, urls.length);
  if (count === 0) return company ? [{ company, number: null, url: null }] : [];
  return Array.from({ length: count }, (_, i) => {
    const number = numbers[i] ?? null;
    const builder = company ? TRACKING_URL[company] : undefined;
    return { company, number, url: urls[i] ?? (number && builder ? builder(number) : null) };
  });
}

function replaceTracking(store: Store, fulfillmentId: number, input: TrackingInput | null): void {
  store.sql("DELETE FROM tracking_info WHERE fulfillment_id = ?").run(fulfillmentId);
  const insert = store.sql("INSERT INTO tracking_info (fulfillment_id, position, company, number, url) VALUES (?, ?, ?, ?, ?)");
  trackingRows(input).forEach((row, i) => insert.run(fulfillmentId, i, row.company, row.number, row.url));
}

/** OPEN while nothing was shipped from it, IN_PROGRESS once partly shipped, CLOSED when nothing remains. */
function statusFromQuantities(lines: FoLineItemRow[]): FulfillmentOrderStatus {
  const remaining = lines.reduce((s, l) => s + l.remaining_quantity, 0);
  const total = lines.reduce((s, l) => s + l.total_quantity, 0);
  if (remaining === 0) return "CLOSED";
  return remaining === total ? "OPEN" : "IN_PROGRESS";
}

/**
 * Units asked for per FO line item id: every remaining unit when `items` is null or empty; null when an item
 * names another FO's line, asks for no units, or (summed over repeats) for more than remain.
 */
function requestedQuantities(lines: FoLineItemRow[], items: { id: number | null; quantity: number }[] | null): Map<number, number> | null {
  const requested = new Map<number, number>();
  if (!items || items.length === 0) {
    for (const line of lines) if (line.remaining_quantity > 0) requested.set(line.id, line.remaining_quantity);
    return requested;
  }
  for (const item of items) {
    const line = lines.find((l) => l.id === item.id);
    const total = (line ? (requested.get(line.id) ?? 0) : 0) + item.quantity;
    if (!line || item.quantity <= 0 || total > line.remaining_quantity) return null;
    requested.set(line.id, total);
  }
  return requested;
}

function setFoStatus(store: Store, foId: number, status: FulfillmentOrderStatus): void {
  store.sql("UPDATE fulfillment_orders SET status = ?, updated_at = ? WHERE id = ?").run(status, store.now(), foId);
}

function refreshFoStatus(store: Store, fo: FulfillmentOrderRow): void {
  if (fo.status === "ON_HOLD" && store.listHolds(fo.id).length > 0) return;
  setFoStatus(store, fo.id, statusFromQuantities(store.listFoLineItems(fo.id)));
}

export function fulfillmentCreate(store: Store, input: FulfillmentCreateInput): Outcome<{ fulfillmentId: number }> {
  const groups = input.lineItemsByFulfillmentOrder;
  if (groups.length === 0) {
    return fail("Line items by fulfillment order can't be blank.", ["fulfillment", "lineItemsByFulfillmentOrder"]);
  }
  const plan: { fo: FulfillmentOrderRow; line: FoLineItemRow; quantity: number }[] = [];
  let orderId: number | null = null;
  let locationId: number | null = null;
  for (const [index, group] of groups.entries()) {
    const field = ["fulfillment", "lineItemsByFulfillmentOrder", String(index), "fulfillmentOrderId"];
    const fo = group.fulfillmentOrderId === null ? undefined : store.getFulfillmentOrder(group.fulfillmentOrderId);
    if (!fo) return fail("Fulfillment order does not exist.", field);
    if (orderId !== null && fo.order_id !== orderId) return fail("All fulfillment orders must belong to the same order.", field);
    if (locationId !== null && fo.assigned_location_id !== locationId) {
      return fail("All fulfillment orders must be assigned to the same location.", field);
    }
    orderId = fo.order_id;
    locationId = fo.assigned_location_id;
    if (!FULFILLABLE_FO_STATUSES.has(fo.status)) {
      return fail(`Fulfillment order ${group.fulfillmentOrderGid} has an unfulfillable status= ${fo.status.toLowerCase()}.`, field);
    }
    const location = store.getLocation(fo.assigned_location_id);
    if (location?.is_fulfillment_service === 1) {
      return fail(
        `Fulfillment order ${group.fulfillmentOrderGid} is assigned to a fulfillment service location; the fulfillment service creates its fulfillments.`,
        field,
      );
    }
    const foLines = store.listFoLineItems(fo.id);
    const perLine = requestedQuantities(foLines, group.fulfillmentOrderLineItems);
    if (!perLine) {
      return fail("Invalid fulfillment order line item quantity requested.", ["fulfillment", "lineItemsByFulfillmentOrder", String(index)]);
    }
    for (const [lineId, quantity] of perLine) {
      const line = foLines.find((l) => l.id === lineId);
      if (line) plan.push({ fo, line, quantity });
    }
  }
  if (plan.length === 0 || orderId === null || locationId === null) {
    return fail("Invalid fulfillment order line item quantity requested.", ["fulfillment", "lineItemsByFulfillmentOrder"]);
  }
  const order = store.getOrder(orderId);
  if (!order) return fail("Order does not exist.", ["fulfillment"]);
  const fulfillmentOrderIds = [...new Set(plan.map((p) => p.fo.id))];
  const theOrderId = orderId;
  const theLocationId = locationId;
  const fulfillmentId = store.transaction(() => {
    const now = store.now();
    const count = store.listFulfillments(theOrderId).length;
    const info = store
      .sql(
        `INSERT INTO fulfillments (order_id, location_id, name, status, display_status, notify_customer, message, created_at, updated_at)
       VALUES (?, ?, ?, 'SUCCESS', 'FULFILLED', ?, ?, ?, ?)`,
      )
      .run(theOrderId, theLocationId, `${order.name}.${count + 1}`, input.notifyCustomer ? 1 : 0, input.message, now, now);
    const id = Number(info.lastInsertRowid);
    const insertLine = store.sql(
      `INSERT INTO fulfillment_line_items (fulfillment_id, line_item_id, fulfillment_order_id, fulfillment_order_line_item_id, quantity)
       VALUES (?, ?, ?, ?, ?)`,
    );
    const decrement = store.sql("UPDATE fulfillment_order_line_items SET remaining_quantity = remaining_quantity - ? WHERE id = ?");
    for (const p of plan) {
      insertLine.run(id, p.line.line_item_id, p.fo.id, p.line.id, p.quantity);
      decrement.run(p.quantity, p.line.id);
    }
    for (const foId of fulfillmentOrderIds) setFoStatus(store, foId, statusFromQuantities(store.listFoLineItems(foId)));
    replaceTracking(store, id, input.trackingInfo);
    store.recomputeOrder(theOrderId);
    store.emit({ topic: "fulfillments/create", fulfillmentId: id });
    store.emit({ topic: "orders/updated", orderId: theOrderId });
    return id;
  });
  return { ok: true, value: { fulfillmentId } };
}

export function fulfillmentTrackingInfoUpdate(
  store: Store,
  fulfillmentId: number | null,
  tracking: TrackingInput,
  notifyCustomer: boolean | null,
): Outcome<{ fulfillmentId: number }> {
  const fulfillment = fulfillmentId === null ? undefined : store.getFulfillment(fulfillmentId);
  if (!fulfillment) return fail("Fulfillment does not exist.", ["fulfillmentId"]);
  if (fulfillment.status === "CANCELLED") return fail("Tracking can't be updated on a cancelled fulfillment.", ["fulfillmentId"]);
  store.transaction(() => {
    replaceTracking(store, fulfillment.id, tracking);
    store
      .sql("UPDATE fulfillments SET updated_at = ?, notify_customer = COALESCE(?, notify_customer) WHERE id = ?")
      .run(store.now(), notifyCustomer === null ? null : notifyCustomer ? 1 : 0, fulfillment.id);
    store.emit({ topic: "fulfillments/update", fulfillmentId: fulfillment.id });
  });
  return { ok: true, value: { fulfillmentId: fulfillment.id } };
}

/** Cancels a fulfillment: its units go back to the FO they came from, or to a new open FO when that one is closed. */
export function fulfillmentCancel(store: Store, fulfillmentId: number | null): Outcome<{ fulfillmentId: number }> {
  const fulfillment = fulfillmentId === null ? undefined : store.getFulfillment(fulfillmentId);
  if (!fulfillment) return fail("Fulfillment does not exist.", ["id"]);
  if (fulfillment.status === "CANCELLED") return fail("Fulfillment has already been cancelled.", ["id"]);
  store.transaction(() => {
    const now = store.now();
    store.sql("UPDATE fulfillments SET status = 'CANCELLED', display_status = 'CANCELED', updated_at = ? WHERE id = ?").run(now, fulfillment.id);
    const reopened = new Map<number, { lineItemId: number; quantity: number }[]>();
    for (const fli of store.listFulfillmentLineItems(fulfillment.id)) {
      const fo = store.getFulfillmentOrder(fli.fulfillment_order_id);
      if (!fo) continue;
      if (fo.status === "CLOSED" || fo.status === "CANCELLED") {
        const list = reopened.get(fo.id) ?? [];
        list.push({ lineItemId: fli.line_item_id, quantity: fli.quantity });
        reopened.set(fo.id, list);
      } else {
        store
          .sql("UPDATE fulfillment_order_line_items SET remaining_quantity = remaining_quantity + ? WHERE id = ?")
          .run(fli.quantity, fli.fulfillment_order_line_item_id);
      }
    }
    for (const fo of store.listFulfillmentOrders(fulfillment.order_id)) {
      if (!reopened.has(fo.id) && FULFILLABLE_FO_STATUSES.has(fo.status)) refreshFoStatus(store, fo);
    }
    for (const [foId, lines] of reopened) {
      const original = store.getFulfillmentOrder(foId);
      if (!original) continue;
      store.insertFulfillmentOrder({
        order_id: original.order_id,
        assigned_location_id: original.assigned_location_id,
        status: "OPEN",
        request_status: "UNSUBMITTED",
        delivery_method_type: original.delivery_method_type,
        delivery_service_code: original.delivery_service_code,
        delivery_presented_name: original.delivery_presented_name,
        lines,
      });
    }
    store.recomputeOrder(fulfillment.order_id);
    store.emit({ topic: "fulfillments/update", fulfillmentId: fulfillment.id });
    store.emit({ topic: "orders/updated", orderId: fulfillment.order_id });
  });
  return { ok: true, value: { fulfillmentId: fulfillment.id } };
}

export interface FulfillmentEventInput {
  fulfillmentId: number | null;
  status: string;
  happenedAt?: string | null;
  estimatedDeliveryAt?: string | null;
  message?: string | null;
  address1?: string | null;
  city?: string | null;
  province?: string | null;
  country?: string | null;
  zip?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}

/** Event statuses that mean the parcel has gone into transit (Shopify sets inTransitAt at the first of them). */
const IN_TRANSIT_OR_LATER = new Set(["CARRIER_PICKED_UP", "IN_TRANSIT", "OUT_FOR_DELIVERY", "ATTEMPTED_DELIVERY", "READY_FOR_PICKUP", "DELIVERED"]);

/**
 * Records a carrier event as Shopify does: the fulfillment's displayStatus follows its latest event (by
 * happenedAt), inTransitAt is the first event in transit or later, deliveredAt the first DELIVERED, and
 * estimatedDeliveryAt the latest estimate given. Sends fulfillment_events/create and fulfillments/update.
 */
export function fulfillmentEventCreate(store: Store, input: FulfillmentEventInput): Outcome<{ eventId: number }> {
  const fulfillment = input.fulfillmentId === null ? undefined : store.getFulfillment(input.fulfillmentId);
  if (!fulfillment) return fail("Fulfillment does not exist.", ["fulfillmentEvent", "fulfillmentId"]);
  if (fulfillment.status === "CANCELLED") {
    return fail("Events can't be added to a cancelled fulfillment.", ["fulfillmentEvent", "fulfillmentId"]);
  }
  const eventId = store.transaction(() => {
    const now = store.now();
    const happenedAt = input.happenedAt ? toShopifyDateTime(input.happenedAt) : now;
    const info = store
      .sql(
        `INSERT INTO fulfillment_events (fulfillment_id, status, happened_at, created_at, estimated_delivery_at, message, address1, city,
         province, country, zip, latitude, longitude) VALUES (@fid, @status, @happened, @now, @eta, @message, @address1, @city,
         @province, @country, @zip, @latitude, @longitude)`,
      )
      .run({
        fid: fulfillment.id,
        status: input.status,
        happened: happenedAt,
        now,
        eta: input.estimatedDeliveryAt ? toShopifyDateTime(input.estimatedDeliveryAt) : null,
        message: input.message ?? null,
        address1: input.address1 ?? null,
        city: input.city ?? null,
        province: input.province ?? null,
        country: input.country ?? null,
        zip: input.zip ?? null,
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
      });
    const events = store.listFulfillmentEvents(fulfillment.id).sort((a, b) => a.happened_at.localeCompare(b.happened_at) || a.id - b.id);
    const latest = events[events.length - 1];
    const firstOf = (statuses: ReadonlySet<string>) => events.find((e) => statuses.has(e.status))?.happened_at ?? null;
    const eta = [...events].reverse().find((e) => e.estimated_delivery_at)?.estimated_delivery_at ?? null;
    store
      .sql("UPDATE fulfillments SET display_status = ?, in_transit_at = ?, delivered_at = ?, estimated_delivery_at = ?, updated_at = ? WHERE id = ?")
      .run(latest?.status ?? fulfillment.display_status, firstOf(IN_TRANSIT_OR_LATER), firstOf(new Set(["DELIVERED"])), eta, now, fulfillment.id);
    const id = Number(info.lastInsertRowid);
    store.emit({ topic: "fulfillment_events/create", eventId: id });
    store.emit({ topic: "fulfillments/update", fulfillmentId: fulfillment.id });
    return id;
  });
  return { ok: true, value: { eventId } };
}

export interface HoldInput {
  reason: string;
  reasonNotes?: string | null;
  handle?: string | null;
  fulfillmentOrderLineItems?: { id: number | null; quantity: number }[] | null;
}

export function fulfillmentOrderHold(store: Store, foId: number | null, input: HoldInput): Outcome<{ holdId: number; foId: number }> {
  const fo = foId === null ? undefined : store.getFulfillmentOrder(foId);
  if (!fo) return fail("The fulfillment order could not be found.", ["id"], "FULFILLMENT_ORDER_NOT_FOUND");
  if (input.fulfillmentOrderLineItems && input.fulfillmentOrderLineItems.length > 0) {
    return fail(
      "Placing a hold on some line items (splitting the fulfillment order) is not supported by the local admin.",
      ["fulfillmentHold", "fulfillmentOrderLineItems"],
      "FULFILLMENT_ORDER_NOT_SPLITTABLE",
    );
  }
  if (!FULFILLABLE_FO_STATUSES.has(fo.status) && fo.status !== "ON_HOLD") {
    return fail(`The fulfillment order's status (${fo.status.toLowerCase()}) can't be placed on hold.`, ["id"]);
  }
  const handle = input.handle ?? "";
  if (store.listHolds(fo.id).some((h) => h.held_by_app === 1 && h.handle === handle)) {
    return fail(
      "The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.",
      ["fulfillmentHold", "handle"],
      "DUPLICATE_FULFILLMENT_HOLD_HANDLE",
    );
  }
  const holdId = store.transaction(() => {
    const info = store
      .sql("INSERT INTO fulfillment_holds (fulfillment_order_id, reason, reason_notes, handle, held_by_app, created_at) VALUES (?, ?, ?, ?, 1, ?)")
      .run(fo.id, input.reason, input.reasonNotes ?? null, handle, store.now());
    setFoStatus(store, fo.id, "ON_HOLD");
    store.recomputeOrder(fo.order_id);
    const id = Number(info.lastInsertRowid);
    store.emit({ topic: "fulfillment_orders/placed_on_hold", fulfillmentOrderId: fo.id, holdId: id });
    return id;
  });
  return { ok: true, value: { holdId, foId: fo.id } };
}

/** Releases the given holds (all when holdIds is null, which Shopify warns against); the FO reopens when none remain. */
export function fulfillmentOrderReleaseHold(store: Store, foId: number | null, holdIds: (number | null)[] | null): Outcome<{ foId: number }> {
  const fo = foId === null ? undefined : store.getFulfillmentOrder(foId);
  if (!fo) return fail("The fulfillment order could not be found.", ["id"], "FULFILLMENT_ORDER_NOT_FOUND");
  const holds = store.listHolds(fo.id);
  if (fo.status !== "ON_HOLD" || holds.length === 0) return fail("The fulfillment order is not on hold.", ["id"]);
  const toRelease = holdIds === null ? holds : holds.filter((h) => holdIds.includes(h.id));
  if (holdIds !== null && toRelease.length !== holdIds.length) {
    return fail("One or more of the provided hold IDs don't belong to this fulfillment order.", ["holdIds"], "INVALID_ACCESS");
  }
  store.transaction(() => {
    const del = store.sql("DELETE FROM fulfillment_holds WHERE id = ?");
    for (const hold of toRelease) del.run(hold.id);
    if (store.listHolds(fo.id).length === 0) setFoStatus(store, fo.id, statusFromQuantities(store.listFoLineItems(fo.id)));
    store.recomputeOrder(fo.order_id);
    store.emit({ topic: "fulfillment_orders/hold_released", fulfillmentOrderId: fo.id });
  });
  return { ok: true, value: { foId: fo.id } };
}

export function fulfillmentOrderMove(
  store: Store,
  foId: number | null,
  newLocationId: number | null,
  items: { id: number | null; quantity: number }[] | null,
): Outcome<{ originalId: number; movedId: number; remainingId: number | null }> {
  const fo = foId === null ? undefined : store.getFulfillmentOrder(foId);
  if (!fo) return fail("Fulfillment order does not exist.", ["id"]);
  const location = newLocationId === null ? undefined : store.getLocation(newLocationId);
  if (!location || location.is_active !== 1) return fail("Location does not exist.", ["newLocationId"]);
  if (location.id === fo.assigned_location_id) return fail("Cannot move a fulfillment order to the location it is already assigned to.", ["newLocationId"]);
  if (!FULFILLABLE_FO_STATUSES.has(fo.status) || fo.request_status !== "UNSUBMITTED") {
    return fail(`Cannot move a fulfillment order with status ${fo.status.toLowerCase()}.`, ["id"]);
  }
  const lines = store.listFoLineItems(fo.id);
  const requested = requestedQuantities(lines, items);
  if (!requested) return fail("Invalid fulfillment order line item quantity requested.", ["fulfillmentOrderLineItems"]);
  const untouched = lines.every((l) => l.remaining_quantity === l.total_quantity);
  const everything = lines.every((l) => (requested.get(l.id) ?? 0) === l.remaining_quantity);
  const value = store.transaction(() => {
    let movedId: number;
    let remainingId: number | null = null;
    if (untouched && everything) {
      store.sql("UPDATE fulfillment_orders SET assigned_location_id = ?, updated_at = ? WHERE id = ?").run(location.id, store.now(), fo.id);
      movedId = fo.id;
    } else {
      const dec = store.sql(
        "UPDATE fulfillment_order_line_items SET remaining_quantity = remaining_quantity - ?, total_quantity = total_quantity - ? WHERE id = ?",
      );
      const movedLines: { lineItemId: number; quantity: number }[] = [];
      for (const line of lines) {
        const quantity = requested.get(line.id);
        if (!quantity) continue;
        dec.run(quantity, quantity, line.id);
        movedLines.push({ lineItemId: line.line_item_id, quantity });
      }
      movedId = store.insertFulfillmentOrder({
        order_id: fo.order_id,
        assigned_location_id: location.id,
        status: "OPEN",
        request_status: "UNSUBMITTED",
        delivery_method_type: fo.delivery_method_type,
        delivery_service_code: fo.delivery_service_code,
        delivery_presented_name: fo.delivery_presented_name,
        lines: movedLines,
      });
      const status = statusFromQuantities(store.listFoLineItems(fo.id));
      setFoStatus(store, fo.id, status);
      if (status !== "CLOSED") remainingId = fo.id;
    }
    store.recomputeOrder(fo.order_id);
    store.emit({
      topic: "fulfillment_orders/moved",
      originalFulfillmentOrderId: fo.id,
      movedFulfillmentOrderId: movedId,
      sourceLocationId: fo.assigned_location_id,
      destinationLocationId: location.id,
      requested: [...requested].map(([id, quantity]) => ({ id, quantity })),
    });
    return { originalId: fo.id, movedId, remainingId };
  });
  return { ok: true, value };
}

/** Marks a SCHEDULED fulfillment order (future fulfillAt) as open now, so it can be fulfilled early. */
export function fulfillmentOrderOpen(store: Store, foId: number | null): Outcome<{ foId: number }> {
  const fo = foId === null ? undefined : store.getFulfillmentOrder(foId);
  if (!fo) return fail("Fulfillment order does not exist.", ["id"]);
  if (fo.status !== "SCHEDULED") return fail(`Cannot mark a fulfillment order with status ${fo.status.toLowerCase()} as open.`, ["id"]);
  store.transaction(() => {
    const now = store.now();
    store.sql("UPDATE fulfillment_orders SET fulfill_at = ?, updated_at = ? WHERE id = ?").run(now, now, fo.id);
    setFoStatus(store, fo.id, statusFromQuantities(store.listFoLineItems(fo.id)));
    store.recomputeOrder(fo.order_id);
  });
  return { ok: true, value: { foId: fo.id } };
}

/** Cancels an unfulfilled order: its open fulfillment orders close and the order closes (orders/cancelled). */
export function orderCancel(store: Store, orderId: number | null, reason: string, staffNote: string | null): Outcome<{ orderId: number }> {
  const order = orderId === null ? undefined : store.getOrder(orderId);
  if (!order) return fail("Order does not exist.", ["orderId"], "NOT_FOUND");
  if (order.cancelled_at) return fail("Order has already been cancelled.", ["orderId"], "INVALID");
  if (store.listFulfillments(order.id).some((f) => f.status === "SUCCESS")) {
    return fail(`Cannot cancel ${toGid("Order", order.id)}: it has fulfillments. Cancel them first.`, ["orderId"], "INVALID");
  }
  store.transaction(() => {
    const now = store.now();
    const note = staffNote ? [order.note, staffNote].filter(Boolean).join("\n") : order.note;
    store
      .sql("UPDATE orders SET cancelled_at = ?, cancel_reason = ?, closed = 1, closed_at = ?, note = ?, updated_at = ? WHERE id = ?")
      .run(now, reason, now, note, now, order.id);
    for (const fo of store.listFulfillmentOrders(order.id)) {
      if (fo.status === "CLOSED" || fo.status === "CANCELLED") continue;
      store.sql("UPDATE fulfillment_order_line_items SET remaining_quantity = 0 WHERE fulfillment_order_id = ?").run(fo.id);
      store.sql("DELETE FROM fulfillment_holds WHERE fulfillment_order_id = ?").run(fo.id);
      setFoStatus(store, fo.id, "CLOSED");
    }
    store.emit({ topic: "orders/cancelled", orderId: order.id });
    store.emit({ topic: "orders/updated", orderId: order.id });
  });
  return { ok: true, value: { orderId: order.id } };
}
