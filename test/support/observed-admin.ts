import { GraphqlQueryError } from "@shopify/shopify-api";
import { operationName, type AdminClient } from "../../app/shopify/gateway.server";

export interface AdminObservation {
  /** Every operation sent, by name, in order. */
  operations: string[];
  /** Answers that were THROTTLED. */
  throttled: number;
  /** The most requests of each operation that were in flight at once. */
  peakInFlight: Map<string, number>;
}

/**
 * The real admin client, noting what it sends: operation names, THROTTLED answers and how many requests of an
 * operation overlapped. Requests and answers pass through untouched.
 */
export function observeAdmin<A extends AdminClient>(admin: A): { admin: A; seen: AdminObservation } {
  const seen: AdminObservation = { operations: [], throttled: 0, peakInFlight: new Map() };
  const inFlight = new Map<string, number>();
  const observed: A = {
    ...admin,
    graphql: async (document: string, options?: Parameters<AdminClient["graphql"]>[1]) => {
      const operation = operationName(String(document));
      seen.operations.push(operation);
      const now = (inFlight.get(operation) ?? 0) + 1;
      inFlight.set(operation, now);
      seen.peakInFlight.set(operation, Math.max(seen.peakInFlight.get(operation) ?? 0, now));
      try {
        return await admin.graphql(document, options);
      } catch (error) {
        if (error instanceof GraphqlQueryError && JSON.stringify(error.body).includes("THROTTLED")) seen.throttled++;
        throw error;
      } finally {
        inFlight.set(operation, (inFlight.get(operation) ?? 1) - 1);
      }
    },
  };
  return { admin: observed, seen };
}
