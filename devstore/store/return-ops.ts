import type { Outcome, UserError } from "./fulfillment-ops.js";
import type { Store } from "./store.js";
import type { ReturnRow, ReturnStatus, ReverseDeliveryRow, ReverseFulfillmentOrderRow } from "./types.js";

/**
 * Return-side writes with Shopify's semantics and ReturnUserError codes: a customer's request (REQUESTED), the
 * merchant's open return (OPEN, with its reverse fulfillment order), approving, declining, cancelling and closing,
 * and reverse deliveries with a label and tracking. Each validates everything first, then writes in one
 * transaction; StoreEvents drive the returns webhooks.
 */

const fail = <T>(message: string, field: string[] | null, code: string): Outcome<T> => ({ ok: false, userErrors: [{ field, message, code }] });

/** Shopify's limits on the texts a return line item carries. */
export const CUSTOMER_NOTE_MAX = 300;
export const RETURN_REASON_NOTE_MAX = 255;

export const RETURN_REASONS = [
  "COLOR",
  "DEFECTIVE",
  "NOT_AS_DESCRIBED",
  "OTHER",
  "SIZE_TOO_LARGE",
  "SIZE_TOO_SMALL",
  "STYLE",
  "UNKNOWN",
  "UNWANTED",
  "WRONG_ITEM",
] as const;

export interface ReturnLineInput {
  /** null: not a FulfillmentLineItem id. */
  fulfillmentLineItemId: number | null;
  quantity: number;
  returnReason: string | null;
  returnReasonNote: string | null;
  customerNote: string | null;
}

export interface ReturnInput {
  orderId: number | null;
  lines: ReturnLineInput[];
}

/** The planned line items, or the first problem (field paths under `root`, e.g. ["input"] or ["returnInput"]). */
function planLines(store: Store, input: ReturnInput, root: string): Outcome<{ orderId: number; lines: ReturnLineInput[] }> {
  const order = input.orderId === null ? undefined : store.getOrder(input.orderId);
  if (!order) return fail("Order does not exist.", [root, "orderId"], "NOT_FOUND");
  if (input.lines.length === 0) return fail("Return line items can't be blank.", [root, "returnLineItems"], "BLANK");
  const fulfillable = new Map<number, number>();
  for (const fulfillment of store.listFulfillments(order.id)) {
    if (fulfillment.status !== "SUCCESS") continue;
    for (const fli of store.listFulfillmentLineItems(fulfillment.id)) fulfillable.set(fli.id, fli.quantity);
  }
  const returned = store.returnedQuantities(order.id);
  const asked = new Map<number, number>();
  for (const [index, line] of input.lines.entries()) {
    const field = (name: string) => [root, "returnLineItems", String(index), name];
    const available = line.fulfillmentLineItemId === null ? undefined : fulfillable.get(line.fulfillmentLineItemId);
    if (available === undefined || line.fulfillmentLineItemId === null) {
      return fail("Fulfillment line item does not exist or was not fulfilled on this order.", field("fulfillmentLineItemId"), "NOT_FOUND");
    }
    if (!Number.isInteger(line.quantity) || line.quantity <= 0) return fail("Quantity must be greater than 0.", field("quantity"), "GREATER_THAN");
    const total = (asked.get(line.fulfillmentLineItemId) ?? 0) + line.quantity;
    const left = available - (returned.get(line.fulfillmentLineItemId) ?? 0);
    if (total > left) {
      return fail(`Quantity cannot be more than the ${left} fulfilled and not yet returned.`, field("quantity"), "LESS_THAN_OR_EQUAL_TO");
    }
    asked.set(line.fulfillmentLineItemId, total);
    if (line.returnReason !== null && !(RETURN_REASONS as readonly string[]).includes(line.returnReason)) {
      return fail("Return reason is not included in the list.", field("returnReason"), "INCLUSION");
    }
    if ((line.customerNote ?? "").length > CUSTOMER_NOTE_MAX) {
      return fail(`Customer note is too long (maximum is ${CUSTOMER_NOTE_MAX} characters).`, field("customerNote"), "TOO_LONG");
    }
    if ((line.returnReasonNote ?? "").length > RETURN_REASON_NOTE_MAX) {
      return fail(`Return reason note is too long (maximum is ${RETURN_REASON_NOTE_MAX} characters).`, field("returnReasonNote"), "TOO_LONG");
    }
  }
  return { ok: true, value: { orderId: order.id, lines: input.lines } };
}

/** A reverse fulfillment order for every line of the return (made when it becomes OPEN). */
function openReverseFulfillmentOrder(store: Store, ret: Pick<ReturnRow, "id" | "order_id">): void {
  const rfoId = Number(
    store
      .sql("INSERT INTO reverse_fulfillment_orders (return_id, order_id, status, created_at) VALUES (?, ?, 'OPEN', ?)")
      .run(ret.id, ret.order_id, store.now()).lastInsertRowid,
  );
  const insert = store.sql(
    `INSERT INTO reverse_fulfillment_order_line_items (reverse_fulfillment_order_id, return_line_item_id, fulfillment_line_item_id, total_quantity)
     VALUES (?, ?, ?, ?)`,
  );
  for (const line of store.listReturnLineItems(ret.id)) insert.run(rfoId, line.id, line.fulfillment_line_item_id, line.quantity);
}

function insertReturn(store: Store, orderId: number, lines: ReturnLineInput[], status: "REQUESTED" | "OPEN"): number {
  const order = store.getOrder(orderId)!;
  const now = store.now();
  const count = store.listReturns(orderId).length;
  const id = Number(
    store
      .sql("INSERT INTO returns (order_id, name, status, created_at, updated_at, request_approved_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(orderId, `${order.name}-R${count + 1}`, status, now, now, status === "OPEN" ? now : null).lastInsertRowid,
  );
  const insert = store.sql(
    `INSERT INTO return_line_items (return_id, fulfillment_line_item_id, quantity, return_reason, return_reason_note, customer_note)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  for (const line of lines) {
    insert.run(id, line.fulfillmentLineItemId, line.quantity, line.returnReason ?? "UNKNOWN", line.returnReasonNote ?? "", line.customerNote);
  }
  if (status === "OPEN") openReverseFulfillmentOrder(store, { id, order_id: orderId });
  return id;
}

/** returnRequest: the customer's request, REQUESTED until the merchant approves or declines it. */
export function returnRequest(store: Store, input: ReturnInput): Outcome<{ returnId: number }> {
  const plan = planLines(store, input, "input");
  if (!plan.ok) return plan;
  const returnId = store.transaction(() => {
    const id = insertReturn(store, plan.value.orderId, plan.value.lines, "REQUESTED");
    store.emit({ topic: "returns/request", returnId: id });
    return id;
  });
  return { ok: true, value: { returnId } };
}

/** returnCreate: the merchant's return, OPEN at once with its reverse fulfillment order (Shopify sends returns/approve). */
export function returnCreate(store: Store, input: ReturnInput): Outcome<{ returnId: number }> {
  const plan = planLines(store, input, "returnInput");
  if (!plan.ok) return plan;
  const returnId = store.transaction(() => {
    const id = insertReturn(store, plan.value.orderId, plan.value.lines, "OPEN");
    store.emit({ topic: "returns/approve", returnId: id });
    return id;
  });
  return { ok: true, value: { returnId } };
}

function findReturn(store: Store, id: number | null, field: string[]): Outcome<ReturnRow> {
  const ret = id === null ? undefined : store.getReturn(id);
  return ret ? { ok: true, value: ret } : fail("Return does not exist.", field, "NOT_FOUND");
}

function setReturnStatus(store: Store, id: number, status: ReturnStatus, extra: string = "", ...values: unknown[]): void {
  store.sql(`UPDATE returns SET status = ?, updated_at = ?${extra} WHERE id = ?`).run(status, store.now(), ...values, id);
}

export function returnApproveRequest(store: Store, id: number | null): Outcome<{ returnId: number }> {
  const found = findReturn(store, id, ["input", "id"]);
  if (!found.ok) return found;
  const ret = found.value;
  if (ret.status !== "REQUESTED") {
    return fail(`Return is not approvable. Only returns with status REQUESTED can be approved; this one is ${ret.status}.`, ["input", "id"], "INVALID_STATE");
  }
  store.transaction(() => {
    setReturnStatus(store, ret.id, "OPEN", ", request_approved_at = ?", store.now());
    openReverseFulfillmentOrder(store, ret);
    store.emit({ topic: "returns/approve", returnId: ret.id });
  });
  return { ok: true, value: { returnId: ret.id } };
}

export const RETURN_DECLINE_REASONS = ["FINAL_SALE", "OTHER", "RETURN_PERIOD_ENDED"] as const;

export function returnDeclineRequest(store: Store, id: number | null, reason: string, note: string | null): Outcome<{ returnId: number }> {
  const found = findReturn(store, id, ["input", "id"]);
  if (!found.ok) return found;
  const ret = found.value;
  if (ret.status !== "REQUESTED") {
    return fail(`Return is not declinable. Only returns with status REQUESTED can be declined; this one is ${ret.status}.`, ["input", "id"], "INVALID_STATE");
  }
  if ((note ?? "").length > 500) return fail("Decline note is too long (maximum is 500 characters).", ["input", "declineNote"], "TOO_LONG");
  store.transaction(() => {
    setReturnStatus(store, ret.id, "DECLINED", ", decline_reason = ?, decline_note = ?", reason, note);
    store.emit({ topic: "returns/decline", returnId: ret.id });
  });
  return { ok: true, value: { returnId: ret.id } };
}

/** returnCancel: a requested or open return that nothing was received for; its units can be returned again. */
export function returnCancel(store: Store, id: number | null): Outcome<{ returnId: number }> {
  const found = findReturn(store, id, ["id"]);
  if (!found.ok) return found;
  const ret = found.value;
  if (ret.status !== "REQUESTED" && ret.status !== "OPEN") {
    return fail(`Return is not cancelable. Only requested or open returns can be canceled; this one is ${ret.status}.`, ["id"], "INVALID_STATE");
  }
  store.transaction(() => {
    setReturnStatus(store, ret.id, "CANCELED");
    store.sql("UPDATE reverse_fulfillment_orders SET status = 'CANCELED' WHERE return_id = ?").run(ret.id);
    store.emit({ topic: "returns/cancel", returnId: ret.id });
  });
  return { ok: true, value: { returnId: ret.id } };
}

export function returnClose(store: Store, id: number | null): Outcome<{ returnId: number }> {
  const found = findReturn(store, id, ["id"]);
  if (!found.ok) return found;
  const ret = found.value;
  if (ret.status !== "OPEN") return fail(`Return is not closable. Only open returns can be closed; this one is ${ret.status}.`, ["id"], "INVALID_STATE");
  store.transaction(() => {
    setReturnStatus(store, ret.id, "CLOSED", ", closed_at = ?", store.now());
    store.sql("UPDATE reverse_fulfillment_orders SET status = 'CLOSED' WHERE return_id = ?").run(ret.id);
    store.emit({ topic: "returns/close", returnId: ret.id });
  });
  return { ok: true, value: { returnId: ret.id } };
}

export interface ReverseDeliveryShippingInput {
  tracking: { number?: string | null; url?: string | null } | null;
  label: { fileUrl: string } | null;
  /** Shopify's default is true: the customer gets the label and tracking by email when the order has an email. */
  notifyCustomer: boolean;
}

/** Carrier names Shopify shows for a tracking URL's host (the local admin knows a few). */
const CARRIER_HOSTS: [RegExp, string][] = [
  [/(^|\.)ups\.com$/, "UPS"],
  [/(^|\.)usps\.com$/, "USPS"],
  [/(^|\.)fedex\.com$/, "FedEx"],
  [/(^|\.)dhl\.com$/, "DHL Express"],
  [/(^|\.)canadapost(-postescanada)?\.ca$/, "Canada Post"],
  [/(^|\.)royalmail\.com$/, "Royal Mail"],
];

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function carrierNameFor(url: string | null): string | null {
  if (!url) return null;
  const host = new URL(url).hostname;
  return CARRIER_HOSTS.find(([pattern]) => pattern.test(host))?.[1] ?? null;
}

function checkShipping(input: ReverseDeliveryShippingInput): UserError | null {
  if (input.tracking?.url && !isHttpUrl(input.tracking.url)) return { field: ["trackingInput", "url"], message: "Tracking URL is invalid.", code: "INVALID" };
  if (input.label && !isHttpUrl(input.label.fileUrl)) return { field: ["labelInput", "fileUrl"], message: "Label file URL is invalid.", code: "INVALID" };
  if (input.tracking?.number && input.tracking.number.length > 255) {
    return { field: ["trackingInput", "number"], message: "Tracking number is too long (maximum is 255 characters).", code: "TOO_LONG" };
  }
  return null;
}

/** The email Shopify sends the customer with their return label and tracking, recorded instead of sent. */
function notifyCustomer(store: Store, rfo: ReverseFulfillmentOrderRow, delivery: ReverseDeliveryRow, updated: boolean): void {
  const order = store.getOrder(rfo.order_id);
  const ret = store.getReturn(rfo.return_id);
  if (!order?.email || !ret) return;
  const lines = [
    updated
      ? `The return shipping details for ${ret.name} (order ${order.name}) changed.`
      : `Your return ${ret.name} for order ${order.name} is ready to send back.`,
    delivery.label_url ? `Print your return label: ${delivery.label_url}` : null,
    delivery.tracking_number ? `Tracking number: ${delivery.tracking_number}${delivery.carrier_name ? ` (${delivery.carrier_name})` : ""}` : null,
    delivery.tracking_url ? `Track your return: ${delivery.tracking_url}` : null,
  ].filter((line): line is string => line !== null);
  store.recordCustomerEmail({
    order_id: order.id,
    to_email: order.email,
    subject: updated ? `Return ${ret.name}: updated shipping details` : `Return ${ret.name}: your return label`,
    body: lines.join("\n"),
    label_url: delivery.label_url,
    tracking_url: delivery.tracking_url,
  });
}

function writeShipping(store: Store, deliveryId: number, input: ReverseDeliveryShippingInput): void {
  const now = store.now();
  if (input.tracking) {
    const url = input.tracking.url ?? null;
    store
      .sql("UPDATE reverse_deliveries SET tracking_number = ?, tracking_url = ?, carrier_name = ?, updated_at = ? WHERE id = ?")
      .run(input.tracking.number ?? null, url, carrierNameFor(url), now, deliveryId);
  }
  if (input.label) {
    store
      .sql("UPDATE reverse_deliveries SET label_url = ?, label_created_at = COALESCE(label_created_at, ?), label_updated_at = ?, updated_at = ? WHERE id = ?")
      .run(input.label.fileUrl, now, now, now, deliveryId);
  }
}

/**
 * reverseDeliveryCreateWithShipping: units of an open return's reverse fulfillment order on their way back, with
 * the label and tracking. No line items: every unit of the RFO not yet in a reverse delivery, as Shopify does.
 */
export function reverseDeliveryCreateWithShipping(
  store: Store,
  rfoId: number | null,
  items: { id: number | null; quantity: number }[],
  input: ReverseDeliveryShippingInput,
): Outcome<{ reverseDeliveryId: number }> {
  const rfo = rfoId === null ? undefined : store.getReverseFulfillmentOrder(rfoId);
  if (!rfo) return fail("Reverse fulfillment order does not exist.", ["reverseFulfillmentOrderId"], "NOT_FOUND");
  const ret = store.getReturn(rfo.return_id);
  if (ret?.status !== "OPEN" || rfo.status !== "OPEN") {
    return fail(`The return must be open to add a reverse delivery; it is ${ret?.status ?? "missing"}.`, ["reverseFulfillmentOrderId"], "INVALID_STATE");
  }
  const rfoLines = store.listRfoLineItems(rfo.id);
  const delivered = store.deliveredRfoQuantities(rfo.id);
  const plan = new Map<number, number>();
  if (items.length === 0) {
    for (const line of rfoLines) {
      const left = line.total_quantity - (delivered.get(line.id) ?? 0);
      if (left > 0) plan.set(line.id, left);
    }
    if (plan.size === 0) return fail("Every unit of this reverse fulfillment order is already in a reverse delivery.", ["reverseDeliveryLineItems"], "INVALID");
  }
  for (const [index, item] of items.entries()) {
    const field = (name: string) => ["reverseDeliveryLineItems", String(index), name];
    const line = rfoLines.find((candidate) => candidate.id === item.id);
    if (!line)
      return fail(
        "Reverse fulfillment order line item does not exist on this reverse fulfillment order.",
        field("reverseFulfillmentOrderLineItemId"),
        "NOT_FOUND",
      );
    if (!Number.isInteger(item.quantity) || item.quantity <= 0) return fail("Quantity must be greater than 0.", field("quantity"), "GREATER_THAN");
    const total = (plan.get(line.id) ?? 0) + item.quantity;
    const left = line.total_quantity - (delivered.get(line.id) ?? 0);
    if (total > left) return fail(`Quantity cannot be more than the ${left} not yet in a reverse delivery.`, field("quantity"), "LESS_THAN_OR_EQUAL_TO");
    plan.set(line.id, total);
  }
  const problem = checkShipping(input);
  if (problem) return { ok: false, userErrors: [problem] };
  const reverseDeliveryId = store.transaction(() => {
    const now = store.now();
    const id = Number(
      store.sql("INSERT INTO reverse_deliveries (reverse_fulfillment_order_id, created_at, updated_at) VALUES (?, ?, ?)").run(rfo.id, now, now).lastInsertRowid,
    );
    const insert = store.sql(
      "INSERT INTO reverse_delivery_line_items (reverse_delivery_id, reverse_fulfillment_order_line_item_id, quantity) VALUES (?, ?, ?)",
    );
    for (const [lineId, quantity] of plan) insert.run(id, lineId, quantity);
    writeShipping(store, id, input);
    if (input.tracking || input.label) store.emit({ topic: "reverse_deliveries/attach_deliverable", reverseDeliveryId: id });
    if (input.notifyCustomer) notifyCustomer(store, rfo, store.getReverseDelivery(id)!, false);
    return id;
  });
  return { ok: true, value: { reverseDeliveryId } };
}

/** reverseDeliveryShippingUpdate: the label or tracking of a reverse delivery kept current. */
export function reverseDeliveryShippingUpdate(store: Store, id: number | null, input: ReverseDeliveryShippingInput): Outcome<{ reverseDeliveryId: number }> {
  const delivery = id === null ? undefined : store.getReverseDelivery(id);
  if (!delivery) return fail("Reverse delivery does not exist.", ["reverseDeliveryId"], "NOT_FOUND");
  const rfo = store.getReverseFulfillmentOrder(delivery.reverse_fulfillment_order_id)!;
  const ret = store.getReturn(rfo.return_id);
  if (ret?.status !== "OPEN") {
    return fail(`The return must be open to update its reverse delivery; it is ${ret?.status ?? "missing"}.`, ["reverseDeliveryId"], "INVALID_STATE");
  }
  if (!input.tracking && !input.label) return fail("Tracking or a label is required.", ["trackingInput"], "BLANK");
  const problem = checkShipping(input);
  if (problem) return { ok: false, userErrors: [problem] };
  store.transaction(() => {
    writeShipping(store, delivery.id, input);
    store.emit({ topic: "reverse_deliveries/attach_deliverable", reverseDeliveryId: delivery.id });
    if (input.notifyCustomer) notifyCustomer(store, rfo, store.getReverseDelivery(delivery.id)!, true);
  });
  return { ok: true, value: { reverseDeliveryId: delivery.id } };
}
