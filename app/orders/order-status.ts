/**
 * An order's fulfillment status in the words Shopify admin uses for it ("Partially fulfilled" for
 * PARTIALLY_FULFILLED), for a badge. A status Shopify adds later reads as its words, capitalised.
 */
const NAMES: Record<string, string> = {
  FULFILLED: "Fulfilled",
  FULFILLMENT_NOT_REQUIRED: "Fulfillment not required",
  IN_PROGRESS: "In progress",
  ON_HOLD: "On hold",
  OPEN: "Open",
  PARTIALLY_FULFILLED: "Partially fulfilled",
  PENDING_FULFILLMENT: "Pending fulfillment",
  REQUEST_DECLINED: "Request declined",
  RESTOCKED: "Restocked",
  SCHEDULED: "Scheduled",
  UNFULFILLED: "Unfulfilled",
};

export function fulfillmentStatusName(status: string): string {
  if (Object.hasOwn(NAMES, status)) return NAMES[status]!;
  const words = status.toLowerCase().replace(/_/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
