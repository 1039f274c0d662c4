/**
 * What a page shows of a shop that changes seldom and costs an outside call to read (the Shipping API's service
 * names, the shop's locations), kept in this process for a few minutes per shop: pages reload often, and every
 * Admin API read spends the shop's throttle that a running write-back needs. Each instance keeps its own; what
 * one keeps is at most a few minutes old. Time is the caller's clock.
 */
export class KeptPerShop<T> {
  readonly #kept = new Map<string, { value: T; until: number }>();

  constructor(private readonly keepMs: number) {}

  /** The value kept for `shop`, unless it is older than the keeping time at `now`. */
  get(shop: string, now: Date): T | undefined {
    const hit = this.#kept.get(shop);
    return hit && hit.until > now.getTime() ? hit.value : undefined;
  }

  set(shop: string, value: T, now: Date): T {
    this.#kept.set(shop, { value, until: now.getTime() + this.keepMs });
    return value;
  }
}
