import type { Store } from "./store.js";
import type { WebhookDeliveryRow } from "./types.js";

/** The webhook delivery log: every delivery and attempt, and what is still pending (resumed on start). */
export const webhookDeliveries = {
  insertWebhookDelivery(this: Store, d: Pick<WebhookDeliveryRow, "webhook_id" | "event_id" | "topic" | "url" | "body" | "triggered_at">): number {
    const info = this.sql(
      "INSERT INTO webhook_deliveries (webhook_id, event_id, topic, url, body, status, triggered_at) VALUES (@webhook_id, @event_id, @topic, @url, @body, 'pending', @triggered_at)",
    ).run(d);
    return Number(info.lastInsertRowid);
  },

  recordWebhookAttempt(this: Store, id: number, outcome: { status: WebhookDeliveryRow["status"]; statusCode: number | null; error: string | null }): void {
    this.sql(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = @status, last_status_code = @code, last_error = @error,
         delivered_at = CASE WHEN @status = 'delivered' THEN @now ELSE delivered_at END WHERE id = @id`,
    ).run({ id, status: outcome.status, code: outcome.statusCode, error: outcome.error, now: this.now() });
  },

  getWebhookDelivery(this: Store, id: number): WebhookDeliveryRow | undefined {
    return this.byId<WebhookDeliveryRow>("webhook_deliveries", id);
  },

  listWebhookDeliveries(this: Store): WebhookDeliveryRow[] {
    return this.sql("SELECT * FROM webhook_deliveries ORDER BY id").all() as WebhookDeliveryRow[];
  },

  pendingWebhookDeliveries(this: Store): WebhookDeliveryRow[] {
    return this.sql("SELECT * FROM webhook_deliveries WHERE status = 'pending' ORDER BY id").all() as WebhookDeliveryRow[];
  },
};
