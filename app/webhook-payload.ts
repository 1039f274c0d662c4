import type { z } from "zod";
import { formatIssues } from "../shipping-api/contract";

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
