import { formatDateTime } from "../locale/shop-time";

/**
 * Which shipments may go into a batch, pure. The guard against booking an order twice starts here: a
 * fulfillment order that has a label (or a booking in progress), or is already in a batch that may still
 * be booked, is refused, whichever quote run the shipment came from.
 */

export interface ShipmentForBatch {
  id: string;
  orderName: string;
  fulfillmentOrderId: string;
  quoteStatus: string;
  selectedQuoteId: number | null;
  /** Expiry of the selected quote (null when the quote row is missing). */
  selectedQuoteExpiresAt: Date | null;
}

export interface BatchGuard {
  now: Date;
  /** The shop's time zone, in which a refusal writes when a rate expired. */
  timeZone: string;
  /** Fulfillment orders with a shipment BOOKED or BOOKING, with its tracking number when booked. */
  labelled: ReadonlyMap<string, { bookingStatus: string; trackingNumber: string | null }>;
  /** Fulfillment orders with a shipment in a batch that holds it on the service (being created, open, being booked, or cancelled). */
  batched: ReadonlyMap<string, { batchId: string; batchName: string; cancelled: boolean }>;
}

export interface Refusal {
  shipmentId: string;
  orderName: string;
  reason: string;
}

/** Splits `shipments` into those that can be batched (in the given order) and the others with why. */
export function checkBatchable<S extends ShipmentForBatch>(shipments: readonly S[], guard: BatchGuard): { accepted: S[]; refused: Refusal[] } {
  const accepted: S[] = [];
  const refused: Refusal[] = [];
  const taken = new Set<string>();
  for (const shipment of shipments) {
    const reason = refusalOf(shipment, guard, taken);
    if (reason) refused.push({ shipmentId: shipment.id, orderName: shipment.orderName, reason });
    else {
      accepted.push(shipment);
      taken.add(shipment.fulfillmentOrderId);
    }
  }
  return { accepted, refused };
}

function refusalOf(shipment: ShipmentForBatch, guard: BatchGuard, taken: ReadonlySet<string>): string | null {
  const labelled = guard.labelled.get(shipment.fulfillmentOrderId);
  if (labelled?.bookingStatus === "BOOKED") {
    return `Already has a label${labelled.trackingNumber ? ` (tracking ${labelled.trackingNumber})` : ""}; it is not booked again.`;
  }
  if (labelled) return "A booking for this order is still being confirmed. Open its batch or order page to finish it first.";
  const batched = guard.batched.get(shipment.fulfillmentOrderId);
  if (batched?.cancelled) return `In cancelled batch “${batched.batchName}”, which still holds its rate. Delete that batch first.`;
  if (batched) return `Already in batch “${batched.batchName}”. Remove it there first, or book that batch.`;
  if (taken.has(shipment.fulfillmentOrderId)) return "Picked twice in this selection (from two rate runs); it goes in once.";
  if (shipment.quoteStatus !== "QUOTED" || shipment.selectedQuoteId === null) return "No rate is picked for it yet. Pick one on the rates page.";
  if (!shipment.selectedQuoteExpiresAt) return "Its picked rate is no longer on record. Get rates for it again.";
  if (shipment.selectedQuoteExpiresAt.getTime() <= guard.now.getTime()) {
    return `Its rate expired on ${formatDateTime(shipment.selectedQuoteExpiresAt, guard.timeZone)}. Get rates for it again, then add it.`;
  }
  return null;
}
