import type { z } from "zod";
import { formatIssues } from "../../shipping-api/contract";

/** A signed webhook whose payload does not have its topic's shape: the sender's mistake, answered 400 (never retried as a 5xx would be). */
export class WebhookPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookPayloadError";
  }
}

/** Parses a webhook payload with its topic's schema; a payload of another shape is a {@link WebhookPayloadError} naming the fields. */
export function parseWebhookPayload<S extends z.ZodType>(schema: S, payload: unknown): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new WebhookPayloadError(`The webhook payload does not have its topic's shape: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * Where a parsed payload holds a number JSON cannot carry (`1e400` parses as Infinity): its field's path
 * ("id", "line_items[0].price"; "" for the payload itself), or null when every number is finite. No field of a
 * Shopify payload holds such a number, and none may reach an id or an amount. Walked without recursion.
 */
export function nonFiniteNumberField(payload: unknown): string | null {
  const pending: [unknown, string][] = [[payload, ""]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === "number" && !Number.isFinite(value)) return path;
    if (Array.isArray(value)) value.forEach((item, index) => pending.push([item, `${path}[${index}]`]));
    else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) pending.push([item, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}
