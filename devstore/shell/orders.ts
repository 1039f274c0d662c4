import { toGid } from "../gid.js";
import type { Store } from "../store/store.js";
import { loadShellReturns, type ShellReturn } from "./returns.js";
import type {
  Address,
  FulfillmentEventRow,
  FulfillmentOrderRow,
  FulfillmentRow,
  LineItemRow,
  OrderRow,
  ShippingLineData,
  TrackingInfoRow,
} from "../store/types.js";

/** One row of the admin shell's order list. */
export interface ShellOrder {
  id: number;
  gid: string;
  name: string;
  createdAt: string;
  customer: string | null;
  destinationCountry: string | null;
  fulfillmentStatus: string;
  cancelled: boolean;
  itemCount: number;
}

export interface ShellOrderPage {
  orders: ShellOrder[];
  total: number;
  page: number;
  pageCount: number;
}

interface Row {
  id: number;
  name: string;
  created_at: string;
  email: string | null;
  shipping_address_json: string | null;
  billing_address_json: string | null;
  display_fulfillment_status: string;
  cancelled_at: string | null;
  item_count: number;
}

function personName(address: Address | null): string | null {
  if (!address) return null;
  const name = [address.firstName, address.lastName].filter(Boolean).join(" ").trim();
  return name || address.company || null;
}

function parseAddress(json: string | null): Address | null {
  return json ? (JSON.parse(json) as Address) : null;
}

/**
 * The newest orders first, a page at a time. Read-only SQL over the local admin's store (the store module
 * has no listing query; the shell only needs these columns).
 */
export function listShellOrders(store: Store, options: { page: number; pageSize: number }): ShellOrderPage {
  const total = store.countRows("orders");
  const pageCount = Math.max(1, Math.ceil(total / options.pageSize));
  const page = Math.min(Math.max(1, Math.floor(options.page)), pageCount);
  const rows = store
    .sql(
      `SELECT o.id, o.name, o.created_at, o.email, o.shipping_address_json, o.billing_address_json,
            o.display_fulfillment_status, o.cancelled_at,
            (SELECT COALESCE(SUM(li.quantity), 0) FROM line_items li WHERE li.order_id = o.id) AS item_count
       FROM orders o
      ORDER BY o.number DESC
      LIMIT ? OFFSET ?`,
    )
    .all(options.pageSize, (page - 1) * options.pageSize) as Row[];
  const orders = rows.map((row): ShellOrder => {
    const shipping = parseAddress(row.shipping_address_json);
    return {
      id: row.id,
      gid: toGid("Order", row.id),
      name: row.name,
      createdAt: row.created_at,
      customer: personName(shipping) ?? personName(parseAddress(row.billing_address_json)) ?? row.email,
      destinationCountry: shipping ? (shipping.country ?? shipping.countryCode) : null,
      fulfillmentStatus: row.display_fulfillment_status,
      cancelled: row.cancelled_at !== null,
      itemCount: row.item_count,
    };
  });
  return { orders, total, page, pageCount };
}

/** One order as the shell's order page shows it. */
export interface ShellOrderDetail {
  order: OrderRow;
  gid: string;
  shippingAddress: Address | null;
  shippingLine: ShippingLineData | null;
  lines: LineItemRow[];
  fulfillmentOrders: { row: FulfillmentOrderRow; location: string; holds: string[] }[];
  /** Each fulfillment with its tracking and its carrier events, newest first (Shopify's order timeline). */
  fulfillments: { row: FulfillmentRow; tracking: TrackingInfoRow[]; events: FulfillmentEventRow[] }[];
  returns: ShellReturn[];
}

export function loadShellOrder(store: Store, id: number): ShellOrderDetail | null {
  const order = store.getOrder(id);
  if (!order) return null;
  return {
    order,
    gid: toGid("Order", order.id),
    shippingAddress: parseAddress(order.shipping_address_json),
    shippingLine: order.shipping_line_json ? (JSON.parse(order.shipping_line_json) as ShippingLineData) : null,
    lines: store.listLineItems(order.id),
    fulfillmentOrders: store.listFulfillmentOrders(order.id).map((row) => ({
      row,
      location: store.getLocation(row.assigned_location_id)?.name ?? `Location ${row.assigned_location_id}`,
      holds: store.listHolds(row.id).map((hold) => hold.reason),
    })),
    fulfillments: store.listFulfillments(order.id).map((row) => ({
      row,
      tracking: store.listTrackingInfo(row.id),
      events: store.listFulfillmentEvents(row.id).sort((a, b) => b.happened_at.localeCompare(a.happened_at) || b.id - a.id),
    })),
    returns: loadShellReturns(store, order.id),
  };
}
