import { describe, expect, it } from "vitest";
import { NOT_SENT, type ShippingApiError } from "../../shipping-api/client";
import { explainBookingFailure, explainShippingError, outcomeUnknown, type ShippingOperation } from "./errors";

describe("explainShippingError", () => {
  it.each<[ShippingOperation, ShippingApiError, RegExp]>([
    [
      "cancel-batch",
      { kind: "unprocessable", status: 422, message: "Batch 7 is completed", category: "UNPROCESSABLE" },
      /^Only an open batch can be cancelled, and this one is not open any more \(Batch 7 is completed\)\. Refresh the page/,
    ],
    [
      "remove-from-batch",
      { kind: "unprocessable", status: 422, message: "Quote 9 is not in batch 7", category: "UNPROCESSABLE" },
      /^Orders can only be removed from an open batch, and only if they are in it \(Quote 9 is not in batch 7\)/,
    ],
    [
      "batch-labels",
      { kind: "unprocessable", status: 422, message: "Batch 7 has no booked shipments", category: "UNPROCESSABLE" },
      /^No label could be printed: nothing in this batch is booked, or its labels were purged 90 days after booking/,
    ],
    [
      "add-to-batch",
      { kind: "invalid_request", status: 400, message: "Quotes are not active (expired or already booked): 4", category: "INVALID_REQUEST" },
      /^The Shipping API refused these rates \(Quotes are not active \(expired or already booked\): 4\)\. Rates that expired/,
    ],
    [
      "read-batch",
      { kind: "not_found", status: 404, message: "Batch 7 not found", category: "NOT_FOUND" } as ShippingApiError,
      /^The Shipping API no longer has this batch; .*Delete it here and create a new batch/,
    ],
    [
      "read-batch",
      { kind: "forbidden", status: 403, message: "Batch 7 does not belong to this customer" },
      /^This belongs to a different Shipping API account .*Reconnect that account in Settings/,
    ],
    ["read-batch", { kind: "unauthorized", status: 401, message: "bad" }, /^The Shipping API refused your account's sign-in\. Reconnect/],
    [
      "book-shipment",
      { kind: "insufficient_funds", status: 402, message: "Shipping cost 12.00 USD is above the prepay balance" },
      /^Your prepay balance does not cover this \(Shipping cost 12\.00 USD is above the prepay balance\)\. Add funds/,
    ],
    [
      "book-batch",
      { kind: "timeout", timeoutMs: 30_000 },
      /^The Shipping API did not confirm this in time\. Consign checks what happened before anything is booked again/,
    ],
    [
      "delete-batch",
      { kind: "network", message: "ECONNREFUSED" },
      /^The Shipping API could not be reached or answered unexpectedly \(ECONNREFUSED\)\. Nothing was changed/,
    ],
    ["delete-batch", { kind: "rate_limited", status: 429, message: "Slow down", retryAfterMs: 2500 }, /try again in 3 seconds\.$/],
    [
      "book-shipment",
      { kind: "invalid_request", status: NOT_SENT, message: "body not sent: receiver.state", category: "INVALID_REQUEST" },
      /^Consign did not send this because it is incomplete \(body not sent: receiver\.state\)/,
    ],
  ])("GIVEN %s failing with %j THEN the words say what happened and what to do", (operation, error, words) => {
    expect(explainShippingError(operation, error)).toMatch(words);
  });

  it("GIVEN transport failures THEN their outcome is unknown; GIVEN refusals THEN it is known", () => {
    expect(outcomeUnknown({ kind: "timeout", timeoutMs: 1 })).toBe(true);
    expect(outcomeUnknown({ kind: "server_error", status: 502, message: "" })).toBe(true);
    expect(outcomeUnknown({ kind: "unprocessable", status: 422, message: "", category: "" })).toBe(false);
    expect(outcomeUnknown({ kind: "insufficient_funds", status: 402, message: "" })).toBe(false);
  });
});

describe("explainBookingFailure", () => {
  it.each([
    ["INSUFFICIENT_FUNDS", /^The prepay balance ran out before this order \(m\)\. Add funds/],
    ["QUOTE_EXPIRED", /^Its rate expired before booking \(m\)\. “Re-quote failed orders”/],
    ["WEIGHT_LIMIT_EXCEEDED", /^The carrier did not accept it \(m\)\. Check the order's address and weight/],
  ])("GIVEN %s THEN %s", (category, words) => {
    expect(explainBookingFailure(category, "m")).toMatch(words);
  });
});
