import { toGid } from "../gid.js";
import { lineItemName, RETURN_REASON_TEXT } from "../graphql/views.js";
import { RETURN_REASONS } from "../store/return-ops.js";
import type { Store } from "../store/store.js";
import type { ReturnRow, ReverseDeliveryRow } from "../store/types.js";
import { html, type Html } from "./html.js";

/**
 * Returns as the shell's pages show them: the admin's order page (status, items, Approve / Decline for a request,
 * each reverse delivery's tracking and label) and the customer's order status page (what can still be returned,
 * the request form, and the label once the shop attached one). The writes go through store/return-ops.ts.
 */

export interface ShellReturn {
  row: ReturnRow;
  gid: string;
  lines: { name: string; quantity: number; reason: string; customerNote: string | null }[];
  deliveries: ReverseDeliveryRow[];
}

export function loadShellReturns(store: Store, orderId: number): ShellReturn[] {
  return store.listReturns(orderId).map((row) => ({
    row,
    gid: toGid("Return", row.id),
    lines: store.listReturnLineItems(row.id).map((line) => {
      const fli = store.getFulfillmentLineItem(line.fulfillment_line_item_id);
      const li = fli ? store.getLineItem(fli.line_item_id) : undefined;
      return {
        name: li ? lineItemName(li) : `Item ${line.fulfillment_line_item_id}`,
        quantity: line.quantity,
        reason: RETURN_REASON_TEXT[line.return_reason] ?? line.return_reason,
        customerNote: line.customer_note,
      };
    }),
    deliveries: store.listReverseFulfillmentOrders(row.id).flatMap((rfo) => store.listReverseDeliveries(rfo.id)),
  }));
}

/** A fulfilled unit group the customer can still send back: what was shipped less what returns already take. */
export interface ReturnableLine {
  fulfillmentLineItemId: number;
  name: string;
  returnable: number;
}

export function returnableLines(store: Store, orderId: number): ReturnableLine[] {
  const returned = store.returnedQuantities(orderId);
  return store
    .listFulfillments(orderId)
    .filter((fulfillment) => fulfillment.status === "SUCCESS")
    .flatMap((fulfillment) => store.listFulfillmentLineItems(fulfillment.id))
    .map((fli) => {
      const li = store.getLineItem(fli.line_item_id);
      return {
        fulfillmentLineItemId: fli.id,
        name: li ? lineItemName(li) : `Item ${fli.line_item_id}`,
        returnable: fli.quantity - (returned.get(fli.id) ?? 0),
      };
    })
    .filter((line) => line.returnable > 0);
}

/** The reasons a customer picks from, as Shopify's self-serve returns list them. */
export const CUSTOMER_REASONS = RETURN_REASONS.filter((reason) => reason !== "UNKNOWN").map((reason) => ({
  value: reason,
  label: RETURN_REASON_TEXT[reason] ?? reason,
}));

const STATUS_TEXT: Record<string, { text: string; tone: string }> = {
  REQUESTED: { text: "Return requested", tone: "attention" },
  OPEN: { text: "Return in progress", tone: "info" },
  DECLINED: { text: "Declined", tone: "critical" },
  CANCELED: { text: "Canceled", tone: "critical" },
  CLOSED: { text: "Returned", tone: "success" },
};

export function returnStatusBadge(status: string): Html {
  const { text, tone } = STATUS_TEXT[status] ?? { text: status, tone: "info" };
  return html`<span class="badge badge-${tone}" data-testid="return-status" data-status="${status}">${text}</span>`;
}

/** Each reverse delivery's tracking number (linked when it has a URL) and its label. */
export function reverseDeliveryLines(deliveries: readonly ReverseDeliveryRow[]): Html[] {
  return deliveries.map(
    (delivery) =>
      html`<div class="row-line" data-testid="reverse-delivery" data-tracking-number="${delivery.tracking_number ?? ""}">
        ${delivery.carrier_name ?? "Carrier"} tracking
        ${
          delivery.tracking_url
            ? html`<a href="${delivery.tracking_url}" target="_blank" rel="noreferrer" data-testid="return-tracking"
                >${delivery.tracking_number ?? delivery.tracking_url}</a
              >`
            : html`<span data-testid="return-tracking">${delivery.tracking_number ?? "none yet"}</span>`
        }
        ${delivery.label_url ? html` · <a href="${delivery.label_url}" target="_blank" rel="noreferrer" data-testid="return-label">Return label</a>` : ""}
      </div>`,
  );
}

/** The return's items, one line each: quantity × name, the reason and the customer's note. */
export function returnItemLines(ret: ShellReturn): Html[] {
  return ret.lines.map(
    (line) =>
      html`<li data-testid="return-line">
        ${line.quantity} × ${line.name}
        <span class="subdued">· ${line.reason}</span>${line.customerNote ? html` <span class="subdued">· “${line.customerNote}”</span>` : ""}
      </li>`,
  );
}
