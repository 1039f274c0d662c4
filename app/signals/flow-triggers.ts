import type { AdminDocument } from "../shopify/admin-document";
import type { FlowTriggerReceiveMutation, FlowTriggerReceiveMutationVariables } from "../types/admin.generated";

/**
 * The app's Shopify Flow triggers (extensions/flow-*: one flow_trigger extension each; docs/decisions/043) and the
 * payloads sent with flowTriggerReceive. A payload's keys are the fields the extension declares: `order_id` for its
 * order_reference field (the order's numeric id), and each custom field by its key. The local admin checks every
 * payload against the declared fields, as Flow does.
 */

/**
 * What a signal announces. EXCEPTION_RESOLVED only removes the exception's tag; it has no trigger.
 * RETURN_LABEL_BOUGHT (a return's label, issue 24) has a trigger and no tag.
 */
export type SignalKind = "LABEL_BOUGHT" | "DELIVERED" | "EXCEPTION" | "EXCEPTION_RESOLVED" | "RETURN_LABEL_BOUGHT";

/** Each kind's trigger handle (the extension's `handle`), or none. */
export const TRIGGER_HANDLES: Readonly<Record<SignalKind, string | null>> = {
  LABEL_BOUGHT: "shipping-label-bought",
  DELIVERED: "shipment-delivered",
  EXCEPTION: "delivery-exception",
  EXCEPTION_RESOLVED: null,
  RETURN_LABEL_BOUGHT: "return-label-bought",
};

/** Each trigger's name as Flow shows it (its extension's `name`). */
export const TRIGGER_NAMES: Readonly<Record<string, string>> = {
  "shipping-label-bought": "Shipping label bought",
  "shipment-delivered": "Shipment delivered",
  "delivery-exception": "Delivery exception",
  "return-label-bought": "Return label bought",
};

/** What a trigger says of the shipment: the order and its label. */
export interface ShipmentFacts {
  /** The order's numeric id (its GID's last part). */
  orderNumericId: number;
  trackingNumber: string;
  trackingNumbers: readonly string[];
  carrier: string;
  service: string;
  /** The label's cost as a decimal amount, or null when not known. */
  cost: string | null;
  currency: string | null;
  /** The carrier's reason, for an exception. */
  reason?: string | null;
}

/** The payload of a kind's trigger, keyed by the extension's fields. */
export function triggerPayload(kind: SignalKind, facts: ShipmentFacts): Record<string, string | number> {
  const payload: Record<string, string | number> = {
    order_id: facts.orderNumericId,
    "Tracking number": facts.trackingNumber,
    "Tracking numbers": facts.trackingNumbers.join(", "),
    Carrier: facts.carrier,
    Service: facts.service,
    Currency: facts.currency ?? "",
  };
  if (facts.cost !== null && Number.isFinite(Number(facts.cost))) payload.Cost = Number(facts.cost);
  if (kind === "EXCEPTION") payload.Reason = facts.reason?.trim() || "The carrier gave no reason";
  return payload;
}

export const FLOW_TRIGGER_RECEIVE = `#graphql
  mutation FlowTriggerReceive($handle: String!, $payload: JSON!) {
    flowTriggerReceive(handle: $handle, payload: $payload) {
      userErrors {
        field
        message
      }
    }
  }
` as AdminDocument<FlowTriggerReceiveMutation, FlowTriggerReceiveMutationVariables>;
