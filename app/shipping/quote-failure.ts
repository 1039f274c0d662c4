import { describeError, type ShippingApiError } from "../../shipping-api/client";
import { ErrorCategory } from "../../shipping-api/contract";

/**
 * Why a shipment could not be quoted, in the merchant's words: what happened (the service's own reason
 * kept, it names the field or the limit) and what to do next. Keyed by the Shipping API's errorCategory,
 * an open string on the wire, so unknown categories get a general sentence.
 */
export interface QuoteFailure {
  category: string;
  message: string;
}

const TRY_AGAIN = "Choose Re-quote to try again in a minute.";

export function describeQuoteFailure({ category, message }: QuoteFailure): string {
  const reason = message.replace(/\.$/, "");
  switch (category) {
    case ErrorCategory.WEIGHT_LIMIT_EXCEEDED:
      return `Too heavy to ship as one package (${reason}). Split the order in Shopify or enable a service that takes heavier parcels in Settings.`;
    case ErrorCategory.COUNTRY_NOT_SUPPORTED:
      return `No enabled service delivers there (${reason}). Enable a service for this destination in Settings, then choose Re-quote.`;
    case ErrorCategory.INVALID_REQUEST:
    case ErrorCategory.UNPROCESSABLE:
      return `The Shipping API refused this shipment: ${reason}. Correct the order's address or product details in Shopify, then choose Re-quote.`;
    case ErrorCategory.UNAUTHORIZED:
    case ErrorCategory.FORBIDDEN:
      return `The Shipping API refused your account (${reason}). Reconnect your Shipping API account in Settings, then choose Re-quote.`;
    case ErrorCategory.RATE_LIMITED:
    case ErrorCategory.SERVICE_UNAVAILABLE:
    case ErrorCategory.INTERNAL_ERROR:
      return `The Shipping API could not quote right now (${reason}). ${TRY_AGAIN}`;
    case ErrorCategory.PAYLOAD_TOO_LARGE:
      return `The request was too large for the Shipping API (${reason}). Quote fewer orders at a time.`;
    default:
      return `The Shipping API could not quote this shipment (${reason}). ${TRY_AGAIN}`;
  }
}

/** A client-side failure (HTTP, network, contract) in the same terms as a shipment-level service error. */
export function clientFailure(error: ShippingApiError): QuoteFailure {
  const message = describeError(error);
  switch (error.kind) {
    case "invalid_request":
    case "unprocessable":
    case "conflict":
      return { category: error.category, message: error.message };
    case "insufficient_funds":
      return { category: ErrorCategory.INSUFFICIENT_FUNDS, message };
    case "unauthorized":
      return { category: ErrorCategory.UNAUTHORIZED, message };
    case "forbidden":
      return { category: ErrorCategory.FORBIDDEN, message };
    case "rate_limited":
      return { category: ErrorCategory.RATE_LIMITED, message };
    case "not_found":
    case "server_error":
    case "timeout":
    case "network":
    case "unreadable":
      return { category: ErrorCategory.SERVICE_UNAVAILABLE, message };
    case "bad_response":
      return { category: ErrorCategory.INTERNAL_ERROR, message };
  }
}
