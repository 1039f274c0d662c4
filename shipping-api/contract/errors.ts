import { z } from "zod";

/**
 * Known `errorCategory` values. On the wire the category is an open string (new values may
 * appear), so consumers switch on these and keep a default branch.
 */
export const ErrorCategory = {
  INVALID_REQUEST: "INVALID_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  UNPROCESSABLE: "UNPROCESSABLE",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  RATE_LIMITED: "RATE_LIMITED",
  INSUFFICIENT_FUNDS: "INSUFFICIENT_FUNDS",
  INTERNAL_ERROR: "INTERNAL_ERROR",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  WEIGHT_LIMIT_EXCEEDED: "WEIGHT_LIMIT_EXCEEDED",
  COUNTRY_NOT_SUPPORTED: "COUNTRY_NOT_SUPPORTED",
  QUOTE_EXPIRED: "QUOTE_EXPIRED",
} as const;
export type ErrorCategory = (typeof ErrorCategory)[keyof typeof ErrorCategory];

/**
 * Body of every non-2xx response. Auth: customer paths take `Authorization: Basic
 * base64(email:password)`, `POST /restapi/v1/customers` takes `Authorization: Bearer <partner
 * key>`; missing or wrong credentials give 401, another customer's credentials 403.
 */
export const ErrorBody = z.object({
  error: z.string(),
  errorCategory: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `{ "ok": true }`, returned by Remove from Batch and Delete Batch. */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;
