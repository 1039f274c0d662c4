import { toGid } from "../gid.js";
import type { Store } from "../store/store.js";
import type { CustomerRow, FulfillmentRow, OrderRow, TrackingInfoRow } from "../store/types.js";
import { html, type Html } from "./html.js";
import type { ExtensionBlock } from "./pages.js";
import {
  CUSTOMER_REASONS,
  loadShellReturns,
  returnableLines,
  returnItemLines,
  returnStatusBadge,
  reverseDeliveryLines,
  type ReturnableLine,
  type ShellReturn,
} from "./returns.js";

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
  /** The order's returns (declined and canceled ones too, as Shopify shows them to the customer). */
  returns: ShellReturn[];
  /** What the customer can still ask to return: fulfilled units no return takes yet. */
  returnable: ReturnableLine[];
}

/** What the page says above its cards after the customer asked for a return: done, or what to fix. */
export type OrderStatusNotice = { kind: "requested"; name: string } | { kind: "error"; message: string };

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
    returns: loadShellReturns(store, order.id),
    returnable: returnableLines(store, order.id),
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

/** The customer's returns, and Shopify's self-serve request form for what they can still send back (only on their own order). */
function returnsSection(detail: OrderStatusDetail, theirs: boolean): Html {
  const action = `/account/orders/${detail.order.id}/returns?${new URLSearchParams({ customer: String(detail.customer.id) }).toString()}`;
  return html`<section class="card section" data-testid="customer-returns">
    <h2>Returns</h2>
    ${detail.returns.map(
      (ret) =>
        html`<div class="return" data-testid="return" data-return-id="${ret.gid}">
          <div class="row-line"><strong>${ret.row.name}</strong> ${returnStatusBadge(ret.row.status)}</div>
          <ul class="return-lines">
            ${returnItemLines(ret)}
          </ul>
          ${ret.row.status === "REQUESTED" ? html`<p class="subdued">The shop will review your request and email you the next steps.</p>` : ""}
          ${reverseDeliveryLines(ret.deliveries)}
        </div>`,
    )}
    ${
      !theirs
        ? ""
        : detail.returnable.length === 0
          ? html`<p class="subdued">
              ${detail.fulfillments.length === 0 ? "Once your order has shipped you can ask to return items here." : "Every shipped item is already in a return."}
            </p>`
          : html`<form method="post" action="${action}" class="return-request" data-testid="return-request-form">
              <h3>Request a return</h3>
              <p class="subdued">Choose how many of each item to send back.</p>
              ${detail.returnable.map(
                (line) =>
                  html`<label class="row-line"
                    >${line.name}
                    <select name="quantity_${line.fulfillmentLineItemId}" data-testid="return-quantity" data-item="${line.name}">
                      ${Array.from({ length: line.returnable + 1 }, (_, n) => html`<option value="${n}">${n}</option>`)}
                    </select>
                    <span class="subdued">of ${line.returnable}</span></label
                  >`,
              )}
              <label class="row-line"
                >Reason
                <select name="reason" data-testid="return-reason">
                  ${CUSTOMER_REASONS.map((reason) => html`<option value="${reason.value}">${reason.label}</option>`)}
                </select></label
              >
              <label class="row-line"
                >Note for the shop (optional)
                <textarea name="note" maxlength="300" rows="2" data-testid="return-note"></textarea>
              </label>
              <button class="btn btn-primary" type="submit" data-testid="request-return">Request return</button>
            </form>`
    }
  </section>`;
}

export function renderOrderStatusPage(
  detail: OrderStatusDetail,
  shopName: string,
  extensionsFor: (fulfillmentGid: string) => ExtensionBlock[],
  notice: OrderStatusNotice | null = null,
): Html {
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
            notice?.kind === "requested"
              ? html`<p class="notice" role="status" data-testid="return-requested">
                  We've received your return request ${notice.name}. The shop will email you once it's reviewed.
                </p>`
              : notice?.kind === "error"
                ? html`<p class="notice notice-critical" role="alert" data-testid="return-error">${notice.message}</p>`
                : ""
          }
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
          ${returnsSection(detail, theirs)}
        </main>
      </body>
    </html>`;
}
