import { toGid } from "../../devstore/gid";
import { fulfillmentCreate } from "../../devstore/store/fulfillment-ops";
import { returnApproveRequest, returnRequest } from "../../devstore/store/return-ops";
import type { Store } from "../../devstore/store/store";
import type { Address } from "../../devstore/store/types";

/**
 * Returns in the local admin, made through its own operations (so its webhooks go out as Shopify's would): a
 * fulfilled order, then a customer's requested return of some of its units. Override what matters.
 */

export interface FulfilledOrder {
  orderId: number;
  orderGid: string;
  orderName: string;
  customerEmail: string;
  /** Each fulfilled line: its FulfillmentLineItem and LineItem GIDs and the units shipped. */
  fulfilledLines: { fulfillmentLineItemId: string; lineItemId: string; quantity: number }[];
}

export interface RequestedReturn extends FulfilledOrder {
  returnId: number;
  returnGid: string;
  /** The units requested, one entry per line (they sum to `items`). */
  requested: { fulfillmentLineItemId: string; quantity: number }[];
}

/** A customer in Brooklyn, as checkout records one; override the country to test inbound services abroad. */
export function aCustomerAddress(overrides: Partial<Address> = {}): Address {
  return {
    firstName: "Rosa",
    lastName: "Diaz",
    address1: "99 Court St",
    city: "Brooklyn",
    province: "New York",
    provinceCode: "NY",
    zip: "11201",
    country: "United States",
    countryCode: "US",
    phone: "+1 718 555 0100",
    ...overrides,
  };
}

/** Variants that weigh something and need shipping, in catalog order (the seed has a weightless one and a gift card). */
function weighedVariants(store: Store): number[] {
  return (
    store
      .sql(
        `SELECT v.id FROM variants v JOIN inventory_items i ON i.id = v.inventory_item_id
          WHERE i.weight_value > 0 AND i.requires_shipping = 1 ORDER BY v.id`,
      )
      .all() as { id: number }[]
  ).map((row) => row.id);
}

/** An order of `quantities` units (one line per entry, each a different weighed variant), every unit fulfilled. */
export function aFulfilledOrder(store: Store, options: { quantities?: number[]; email?: string; shippingAddress?: Address } = {}): FulfilledOrder {
  const quantities = options.quantities ?? [1, 1];
  const variants = weighedVariants(store);
  if (variants.length < quantities.length) throw new Error(`The store has ${variants.length} weighed variants, fewer than ${quantities.length} lines`);
  const email = options.email ?? "rosa.diaz@example.com";
  const orderId = store.createOrder({
    email,
    shippingAddress: options.shippingAddress ?? aCustomerAddress(),
    shippingLine: { title: "Standard", code: "STANDARD", source: "shopify", carrierIdentifier: null, price: "5.00" },
    lines: quantities.map((quantity, index) => ({ variantId: variants[index]!, quantity })),
  });
  for (const fo of store.listFulfillmentOrders(orderId)) {
    const created = fulfillmentCreate(store, {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id, fulfillmentOrderGid: toGid("FulfillmentOrder", fo.id), fulfillmentOrderLineItems: null }],
      notifyCustomer: false,
      trackingInfo: { company: "UPS", number: `1Z${String(orderId).padStart(16, "0")}` },
      message: null,
    });
    if (!created.ok) throw new Error(`Could not fulfil order ${orderId}: ${created.userErrors.map((error) => error.message).join("; ")}`);
  }
  const fulfilledLines = store
    .listFulfillments(orderId)
    .flatMap((fulfillment) => store.listFulfillmentLineItems(fulfillment.id))
    .map((fli) => ({ fulfillmentLineItemId: toGid("FulfillmentLineItem", fli.id), lineItemId: toGid("LineItem", fli.line_item_id), quantity: fli.quantity }));
  return { orderId, orderGid: toGid("Order", orderId), orderName: store.getOrder(orderId)!.name, customerEmail: email, fulfilledLines };
}

/**
 * A customer's requested return of `items` units (default 2) of a fulfilled order, taken line by line; `approved`
 * approves it as the merchant would (OPEN, with its reverse fulfillment order).
 */
export function aRequestedReturn(
  store: Store,
  options: { items?: number; order?: FulfilledOrder; reason?: string; customerNote?: string; approved?: boolean; shippingAddress?: Address } = {},
): RequestedReturn {
  const items = options.items ?? 2;
  const order =
    options.order ?? aFulfilledOrder(store, { quantities: [Math.ceil(items / 2), Math.floor(items / 2) || 1], shippingAddress: options.shippingAddress });
  const requested: RequestedReturn["requested"] = [];
  let left = items;
  for (const line of order.fulfilledLines) {
    if (left === 0) break;
    const quantity = Math.min(left, line.quantity);
    requested.push({ fulfillmentLineItemId: line.fulfillmentLineItemId, quantity });
    left -= quantity;
  }
  if (left > 0) throw new Error(`Order ${order.orderName} shipped fewer than ${items} units`);
  const outcome = returnRequest(store, {
    orderId: order.orderId,
    lines: requested.map((line) => ({
      fulfillmentLineItemId: Number(line.fulfillmentLineItemId.split("/").pop()),
      quantity: line.quantity,
      returnReason: options.reason ?? "SIZE_TOO_SMALL",
      returnReasonNote: null,
      customerNote: options.customerNote ?? "Too tight across the shoulders.",
    })),
  });
  if (!outcome.ok) throw new Error(`Could not request a return: ${outcome.userErrors.map((error) => error.message).join("; ")}`);
  const returnId = outcome.value.returnId;
  if (options.approved) {
    const approved = returnApproveRequest(store, returnId);
    if (!approved.ok) throw new Error(`Could not approve the return: ${approved.userErrors.map((error) => error.message).join("; ")}`);
  }
  return { ...order, returnId, returnGid: toGid("Return", returnId), requested };
}
