import { NOT_SENT, type ShippingApiError } from "../../shipping-api/client";

/**
 * Shipping API failures in the merchant's words: what happened and what to do next, per operation. The
 * service's own message is kept in parentheses where it names specifics (which quote, which field).
 */

export type ShippingOperation =
  | "create-batch"
  | "read-batch"
  | "add-to-batch"
  | "remove-from-batch"
  | "cancel-batch"
  | "delete-batch"
  | "book-batch"
  | "batch-labels"
  | "book-shipment"
  | "shipment-label"
  | "search";

/** Operations whose outcome is unknown after a lost answer: the app reads the state back before retrying. */
const UNKNOWN_OUTCOME: ReadonlySet<ShippingOperation> = new Set(["create-batch", "book-batch", "book-shipment"]);

const detail = (message: string) => (message ? ` (${message.replace(/\.$/, "")})` : "");

/** Whether the call may have done its work although no answer arrived. */
export function outcomeUnknown(error: ShippingApiError): boolean {
  return error.kind === "network" || error.kind === "timeout" || error.kind === "server_error" || error.kind === "unreadable" || error.kind === "bad_response";
}

export function explainShippingError(operation: ShippingOperation, error: ShippingApiError): string {
  switch (error.kind) {
    case "unauthorized":
      return "The Shipping API refused your account's sign-in. Reconnect your Shipping API account in Settings, then try again.";
    case "forbidden":
      return `This belongs to a different Shipping API account than the one connected now${detail(error.message)}. Reconnect that account in Settings to change it.`;
    case "insufficient_funds":
      return `Your prepay balance does not cover this${detail(error.message)}. Add funds to your Shipping API account, or allow an automatic recharge, and book again.`;
    case "rate_limited": {
      const wait = error.retryAfterMs === null ? "a minute" : `${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} seconds`;
      return `The Shipping API is busy and asked Consign to slow down. Nothing was changed; try again in ${wait}.`;
    }
    case "network":
    case "timeout":
    case "server_error":
    case "unreadable":
    case "bad_response":
      return UNKNOWN_OUTCOME.has(operation)
        ? "The Shipping API did not confirm this in time. Consign checks what happened before anything is booked again: open this page again in a minute."
        : `The Shipping API could not be reached or answered unexpectedly${detail(describeTransport(error))}. Nothing was changed; try again in a minute.`;
    case "not_found":
      return notFound(operation, error.message);
    case "unprocessable":
      return unprocessable(operation, error.message);
    case "conflict":
      return `The Shipping API refused this because it conflicts with what it already has${detail(error.message)}.`;
    case "invalid_request":
      if (error.status === NOT_SENT) return `Consign did not send this because it is incomplete${detail(error.message)}. Correct it and try again.`;
      return invalid(operation, error.message);
  }
}

function describeTransport(error: Extract<ShippingApiError, { kind: "network" | "timeout" | "server_error" | "unreadable" | "bad_response" }>): string {
  switch (error.kind) {
    case "timeout":
      return `no answer within ${Math.round(error.timeoutMs / 1000)} s`;
    case "server_error":
      return `HTTP ${error.status}`;
    default:
      return error.message;
  }
}

function notFound(operation: ShippingOperation, message: string): string {
  switch (operation) {
    case "remove-from-batch":
      return `The Shipping API no longer has that rate or this batch${detail(message)}. Refresh the page to see the batch as it is now.`;
    case "shipment-label":
      return `The Shipping API has no shipment with this book number for your account${detail(message)}.`;
    default:
      return `The Shipping API no longer has this batch; it may have been deleted outside Consign${detail(message)}. Delete it here and create a new batch for its orders.`;
  }
}

function unprocessable(operation: ShippingOperation, message: string): string {
  switch (operation) {
    case "cancel-batch":
      return `Only an open batch can be cancelled, and this one is not open any more${detail(message)}. Refresh the page to see its status.`;
    case "remove-from-batch":
      return `Orders can only be removed from an open batch, and only if they are in it${detail(message)}. Refresh the page to see the batch as it is now.`;
    case "batch-labels":
      return `No label could be printed: nothing in this batch is booked, or its labels were purged 90 days after booking${detail(message)}.`;
    case "shipment-label":
      return `The label cannot be printed any more${detail(message)}. Labels are kept for 90 days after booking.`;
    case "book-batch":
      return `The batch could not be booked${detail(message)}. Refresh the page to see its status.`;
    default:
      return `The Shipping API could not do this${detail(message)}.`;
  }
}

function invalid(operation: ShippingOperation, message: string): string {
  switch (operation) {
    case "create-batch":
    case "add-to-batch":
      return `The Shipping API refused these rates${detail(message)}. Rates that expired or were booked need new rates; orders in another batch must be removed there first.`;
    case "book-shipment":
      return `The Shipping API refused this shipment${detail(message)}. Change the options or the order's details and book again.`;
    case "search":
      return `Type what to search for: an order number, a name, a tracking number or a book number${detail(message)}.`;
    default:
      return `The Shipping API refused this${detail(message)}.`;
  }
}

/** One order's failure inside Batch Book (HTTP 200, per-quote error), in words with what to do next. */
export function explainBookingFailure(category: string, message: string): string {
  switch (category) {
    case "INSUFFICIENT_FUNDS":
      return `The prepay balance ran out before this order${detail(message)}. Add funds, then choose “Re-quote failed orders”.`;
    case "QUOTE_EXPIRED":
      return `Its rate expired before booking${detail(message)}. “Re-quote failed orders” gets a new rate and a new batch.`;
    default:
      return `The carrier did not accept it${detail(message)}. Check the order's address and weight, then choose “Re-quote failed orders”.`;
  }
}
