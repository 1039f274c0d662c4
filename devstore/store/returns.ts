import type { Store } from "./store.js";
import type {
  CustomerEmailRow,
  ReturnLineItemRow,
  ReturnRow,
  ReverseDeliveryLineItemRow,
  ReverseDeliveryRow,
  ReverseFulfillmentOrderLineItemRow,
  ReverseFulfillmentOrderRow,
} from "./types.js";

/**
 * Returns: their line items, reverse fulfillment orders (made when a return is approved or created open), reverse
 * deliveries with their label and tracking, and the customer emails Shopify would send. The mutations that
 * enforce Shopify's rules are in return-ops.ts.
 */

export const returnRows = {
  getReturn(this: Store, id: number): ReturnRow | undefined {
    return this.byId<ReturnRow>("returns", id);
  },

  listReturns(this: Store, orderId: number): ReturnRow[] {
    return this.where<ReturnRow>("returns", "order_id", orderId, "id");
  },

  listReturnLineItems(this: Store, returnId: number): ReturnLineItemRow[] {
    return this.where<ReturnLineItemRow>("return_line_items", "return_id", returnId, "id");
  },

  getReturnLineItem(this: Store, id: number): ReturnLineItemRow | undefined {
    return this.byId<ReturnLineItemRow>("return_line_items", id);
  },

  /** Units of each fulfillment line item of the order that returns already take (requested, open or closed: a declined or cancelled return gives them back). */
  returnedQuantities(this: Store, orderId: number): Map<number, number> {
    const rows = this.sql(
      `SELECT rli.fulfillment_line_item_id AS id, SUM(rli.quantity) AS q FROM return_line_items rli
       JOIN returns r ON r.id = rli.return_id WHERE r.order_id = ? AND r.status IN ('REQUESTED', 'OPEN', 'CLOSED')
       GROUP BY rli.fulfillment_line_item_id`,
    ).all(orderId) as { id: number; q: number }[];
    return new Map(rows.map((row) => [row.id, row.q]));
  },

  listReverseFulfillmentOrders(this: Store, returnId: number): ReverseFulfillmentOrderRow[] {
    return this.where<ReverseFulfillmentOrderRow>("reverse_fulfillment_orders", "return_id", returnId, "id");
  },

  getReverseFulfillmentOrder(this: Store, id: number): ReverseFulfillmentOrderRow | undefined {
    return this.byId<ReverseFulfillmentOrderRow>("reverse_fulfillment_orders", id);
  },

  listRfoLineItems(this: Store, rfoId: number): ReverseFulfillmentOrderLineItemRow[] {
    return this.where<ReverseFulfillmentOrderLineItemRow>("reverse_fulfillment_order_line_items", "reverse_fulfillment_order_id", rfoId, "id");
  },

  getRfoLineItem(this: Store, id: number): ReverseFulfillmentOrderLineItemRow | undefined {
    return this.byId<ReverseFulfillmentOrderLineItemRow>("reverse_fulfillment_order_line_items", id);
  },

  listReverseDeliveries(this: Store, rfoId: number): ReverseDeliveryRow[] {
    return this.where<ReverseDeliveryRow>("reverse_deliveries", "reverse_fulfillment_order_id", rfoId, "id");
  },

  getReverseDelivery(this: Store, id: number): ReverseDeliveryRow | undefined {
    return this.byId<ReverseDeliveryRow>("reverse_deliveries", id);
  },

  listReverseDeliveryLineItems(this: Store, reverseDeliveryId: number): ReverseDeliveryLineItemRow[] {
    return this.where<ReverseDeliveryLineItemRow>("reverse_delivery_line_items", "reverse_delivery_id", reverseDeliveryId, "id");
  },

  getReverseDeliveryLineItem(this: Store, id: number): ReverseDeliveryLineItemRow | undefined {
    return this.byId<ReverseDeliveryLineItemRow>("reverse_delivery_line_items", id);
  },

  /** Units of each RFO line item already in a reverse delivery. */
  deliveredRfoQuantities(this: Store, rfoId: number): Map<number, number> {
    const rows = this.sql(
      `SELECT rdli.reverse_fulfillment_order_line_item_id AS id, SUM(rdli.quantity) AS q FROM reverse_delivery_line_items rdli
       JOIN reverse_deliveries rd ON rd.id = rdli.reverse_delivery_id WHERE rd.reverse_fulfillment_order_id = ?
       GROUP BY rdli.reverse_fulfillment_order_line_item_id`,
    ).all(rfoId) as { id: number; q: number }[];
    return new Map(rows.map((row) => [row.id, row.q]));
  },

  recordCustomerEmail(this: Store, email: Omit<CustomerEmailRow, "id" | "created_at">): number {
    const info = this.sql(
      `INSERT INTO customer_emails (order_id, to_email, subject, body, label_url, tracking_url, created_at)
       VALUES (@order_id, @to_email, @subject, @body, @label_url, @tracking_url, @created_at)`,
    ).run({ ...email, created_at: this.now() });
    return Number(info.lastInsertRowid);
  },

  /** The emails sent to customers, oldest first (of one order, when given). */
  listCustomerEmails(this: Store, orderId?: number): CustomerEmailRow[] {
    if (orderId !== undefined) return this.where<CustomerEmailRow>("customer_emails", "order_id", orderId, "id");
    return this.sql("SELECT * FROM customer_emails ORDER BY id").all() as CustomerEmailRow[];
  },
};
