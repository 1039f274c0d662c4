import { toGid } from "../gid.js";
import type { Store } from "../store/store.js";
import type { CustomerRow, FulfillmentRow, OrderRow, TrackingInfoRow } from "../store/types.js";
import { html, type Html } from "./html.js";
import type { ExtensionBlock } from "./pages.js";

/**
 * The stand-in for Shopify's customer order status page (customer accounts): an order as its customer sees it,
 * each fulfillment's delivery card with its tracking, and under each card the app's
 * `customer-account.order-status.fulfillment-details.render-after` extensions, run with a customer account
 * session token the local admin issues for the signed-in customer. Whoever is signed in (`?customer=`, by
 * default the order's own customer), the extensions run, so the app's refusal of another customer can be seen;
 * Shopify itself would not show that customer the order at all, and the page says so.
 */

export interface OrderStatusDetail {
  order: OrderRow;
  /** The signed-in customer. */
  customer: CustomerRow;
  /** The order's own customer, when it has one. */
  owner: CustomerRow | null;
  fulfillments: { row: FulfillmentRow; gid: string; tracking: TrackingInfoRow[] }[];
}

/** The order with its fulfillments as the customer sees them (cancelled ones are gone from their page), or null. */
export function loadOrderStatus(store: Store, orderId: number, customerId: number | null): OrderStatusDetail | null | "no-customer" {
  const order = store.getOrder(orderId);
  if (!order) return null;
  const signedIn = customerId ?? order.customer_id;
  const customer = signedIn === null ? undefined : store.getCustomer(signedIn);
  if (!customer) return "no-customer";
  return {
    order,
    customer,
    owner: order.customer_id === null ? null : (store.getCustomer(order.customer_id) ?? null),
    fulfillments: store
      .listFulfillments(order.id)
      .filter((row) => row.status !== "CANCELLED")
      .map((row) => ({ row, gid: toGid("Fulfillment", row.id), tracking: store.listTrackingInfo(row.id) })),
  };
}

const nameOf = (customer: CustomerRow) => [customer.first_name, customer.last_name].filter(Boolean).join(" ") || customer.email;

const DISPLAY_STATUS: Record<string, string> = {
  CONFIRMED: "Confirmed",
  LABEL_PURCHASED: "Label purchased",
  LABEL_PRINTED: "Label printed",
  CARRIER_PICKED_UP: "Picked up",
  IN_TRANSIT: "On its way",
  OUT_FOR_DELIVERY: "Out for delivery",
  ATTEMPTED_DELIVERY: "Delivery attempted",
  DELAYED: "Delayed",
  READY_FOR_PICKUP: "Ready for pickup",
  DELIVERED: "Delivered",
  FAILURE: "Not delivered",
};

export function renderOrderStatusPage(detail: OrderStatusDetail, shopName: string, extensionsFor: (fulfillmentGid: string) => ExtensionBlock[]): Html {
  const { order, customer, owner } = detail;
  const theirs = owner?.id === customer.id;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>Order ${order.name} · ${shopName}</title>
        <link rel="stylesheet" href="/admin/shell/shell.css" />
      </head>
      <body class="order-status">
        <header class="topbar">
          <span class="brand">${shopName}</span>
          <span class="push-right" data-testid="signed-in-customer">Signed in as ${nameOf(customer)} (${customer.email})</span>
        </header>
        <main class="content order-status-content">
          <p class="stand-in-note">
            Local stand-in for Shopify's customer order status page: the app's customer account extensions run here with a customer session token this local
            admin issues for the signed-in customer.
          </p>
          ${
            theirs
              ? ""
              : html`<p class="stand-in-note" role="status" data-testid="not-their-order">
                  ${nameOf(customer)} did not place this order: Shopify would not show it to them. The extensions run anyway, so you can see the app refuse
                  them.
                </p>`
          }
          <div class="page-header"><h1 data-testid="order-title">Order ${order.name}</h1></div>
          ${
            detail.fulfillments.length === 0
              ? html`<section class="card section"><p>Your order hasn't shipped yet. You'll see its tracking here once it has.</p></section>`
              : detail.fulfillments.map(
                  ({ row, gid, tracking }, index) =>
                    html`<section class="card section" data-testid="delivery-card" data-fulfillment-id="${gid}">
                      <h2>Shipment ${index + 1} of ${detail.fulfillments.length}</h2>
                      <p><strong>${DISPLAY_STATUS[row.display_status ?? ""] ?? "Shipped"}</strong></p>
                      ${tracking.map(
                        (info) =>
                          html`<p>
                            ${info.company ?? "Carrier"} tracking number
                            ${info.url ? html`<a href="${info.url}" target="_blank" rel="noreferrer">${info.number ?? info.url}</a>` : (info.number ?? "")}
                          </p>`,
                      )}
                      ${extensionsFor(gid).map(
                        (block) =>
                          html`<div class="extension-block" data-testid="customer-extension" data-extension-handle="${block.handle}">
                            <iframe title="${block.name}" src="${block.src}" data-extension-block="${block.handle}"></iframe>
                          </div>`,
                      )}
                    </section>`,
                )
          }
        </main>
      </body>
    </html>`;
}
