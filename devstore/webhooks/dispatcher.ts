import { createHmac, randomUUID } from "node:crypto";
import type { Store } from "../store/store.js";
import type { StoreEvent, WebhookDeliveryRow } from "../store/types.js";
import { compliancePayload, eventPayload } from "./payloads.js";
import { COMPLIANCE_TOPICS, type AppConfig, type ComplianceTopic } from "./subscriptions.js";

export interface WebhookRetryOptions {
  /** Attempts per delivery, the first one included. */
  maxAttempts: number;
  /** Delay before the first retry; doubles for each further retry. */
  baseDelayMs: number;
  /** Per-attempt request timeout. */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetryOptions = { maxAttempts: 5, baseDelayMs: 1000, timeoutMs: 5000 };

export interface WebhookDispatcherOptions {
  store: Store;
  app: AppConfig;
  appUrl: string;
  apiSecret: string;
  shopDomain: string;
  retry?: Partial<WebhookRetryOptions>;
  fetch?: typeof fetch;
}

/** Shopify's webhook signature: base64 HMAC-SHA256 of the raw body with the app's client secret. */
export function signWebhookBody(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

/**
 * Delivers webhooks for store events to the subscriptions declared in shopify.app.toml, signed like Shopify,
 * asynchronously with bounded retries and exponential backoff; every delivery and attempt is logged in the store.
 */
export class WebhookDispatcher {
  private readonly store: Store;
  private readonly retry: WebhookRetryOptions;
  private readonly fetchImpl: typeof fetch;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private closed = false;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.store = options.store;
    this.retry = { ...DEFAULT_WEBHOOK_RETRY, ...options.retry };
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Starts listening to store events and resumes deliveries left pending by a previous run. */
  start(): void {
    this.unsubscribe = this.store.onEvent((event) => this.onStoreEvent(event));
    for (const row of this.store.pendingWebhookDeliveries()) this.track(this.attempt(row, row.attempts + 1));
  }

  urlFor(uri: string): string {
    if (/^https?:\/\//.test(uri)) return uri;
    return `${this.options.appUrl.replace(/\/$/, "")}${uri.startsWith("/") ? "" : "/"}${uri}`;
  }

  private onStoreEvent(event: StoreEvent): void {
    // As Shopify, a topic nothing subscribes to costs nothing: its payload is not even built.
    if (!this.options.app.subscriptions.has(event.topic)) return;
    const payload = eventPayload(this.store, event);
    if (payload) this.enqueue(event.topic, payload);
  }

  /** Queues one event for every subscription of its topic; returns the delivery ids (none if nothing subscribes). */
  enqueue(topic: string, payload: unknown): number[] {
    if (this.closed) return [];
    const uris = this.options.app.subscriptions.get(topic) ?? [];
    const body = JSON.stringify(payload);
    const eventId = randomUUID();
    const triggeredAt = this.store.now();
    return uris.map((uri) => {
      const id = this.store.insertWebhookDelivery({
        webhook_id: randomUUID(),
        event_id: eventId,
        topic,
        url: this.urlFor(uri),
        body,
        triggered_at: triggeredAt,
      });
      const row = this.store.getWebhookDelivery(id);
      if (row) this.track(this.attempt(row, 1));
      return id;
    });
  }

  /** Sends a compliance webhook (customers/data_request, customers/redact, shop/redact), as the shell's buttons will. */
  triggerCompliance(topic: ComplianceTopic, customer?: { id: number; email?: string | null; phone?: string | null }): number[] {
    if (!COMPLIANCE_TOPICS.includes(topic)) throw new Error(`Not a compliance topic: ${topic}`);
    return this.enqueue(topic, compliancePayload(this.store, topic, customer));
  }

  private track(job: Promise<void>): void {
    this.inFlight.add(job);
    void job.finally(() => this.inFlight.delete(job));
  }

  private async attempt(row: WebhookDeliveryRow, attempt: number): Promise<void> {
    if (this.closed) return;
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await this.fetchImpl(row.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Shopify-Captain-Hook",
          "X-Shopify-Topic": row.topic,
          "X-Shopify-Hmac-Sha256": signWebhookBody(row.body, this.options.apiSecret),
          "X-Shopify-Shop-Domain": this.options.shopDomain,
          "X-Shopify-API-Version": this.options.app.webhookApiVersion,
          "X-Shopify-Webhook-Id": row.webhook_id,
          "X-Shopify-Event-Id": row.event_id,
          "X-Shopify-Triggered-At": row.triggered_at,
        },
        body: row.body,
        signal: AbortSignal.timeout(this.retry.timeoutMs),
      });
      statusCode = response.status;
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) {
        this.store.recordWebhookAttempt(row.id, { status: "delivered", statusCode, error: null });
        return;
      }
      error = `HTTP ${response.status}`;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (this.closed) return;
    const final = attempt >= this.retry.maxAttempts;
    this.store.recordWebhookAttempt(row.id, { status: final ? "failed" : "pending", statusCode, error });
    if (final) return;
    const delay = this.retry.baseDelayMs * 2 ** (attempt - 1);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, delay);
      this.timers.set(timer, resolve);
    });
    await this.attempt(row, attempt + 1);
  }

  /** Resolves once every queued delivery has succeeded or exhausted its retries. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  deliveries(): WebhookDeliveryRow[] {
    return this.store.listWebhookDeliveries();
  }

  /** Stops listening and abandons pending retries (they stay "pending" in the log and resume on the next start). */
  close(): void {
    this.closed = true;
    this.unsubscribe?.();
    for (const [timer, resolve] of this.timers) {
      clearTimeout(timer);
      resolve();
    }
    this.timers.clear();
  }
}
