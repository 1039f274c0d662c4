import { ErrorCategory } from "../shipping-api/contract";

/**
 * Typed errors. Domain code throws `ServiceError` with an HTTP status and an error category; the HTTP
 * layer renders every non-2xx as `{"error": message, "errorCategory": category}`. Categories are the
 * contract's known values plus two it leaves open (the wire category is an open string).
 */
export const ErrorCategories = {
  ...ErrorCategory,
  CONFLICT: "CONFLICT",
  METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
} as const;
export type ErrorCategoryName = keyof typeof ErrorCategories;

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly category: ErrorCategoryName,
    message: string,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export const invalidRequest = (message: string) => new ServiceError(400, "INVALID_REQUEST", message);
export const notFound = (message: string) => new ServiceError(404, "NOT_FOUND", message);
export const forbidden = (message: string) => new ServiceError(403, "FORBIDDEN", message);
export const unprocessable = (message: string) => new ServiceError(422, "UNPROCESSABLE", message);
