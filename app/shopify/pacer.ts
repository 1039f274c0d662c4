/**
 * Cost-aware pacing for the Admin GraphQL API's leaky bucket. Shopify charges the
 * requested cost up front, refunds down to the actual cost, and restores `restoreRate` points per second up
 * to `maximumAvailable`. The pacer mirrors the bucket from each response's `throttleStatus` and says how
 * long to wait before a request of a given cost, so that THROTTLED is the exception, not the rhythm.
 */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

interface BucketState extends ThrottleStatus {
  observedAt: number;
}

export class CostPacer {
  private readonly buckets = new Map<string, BucketState>();
  /** Points held by the shop's requests in flight (sent, not answered yet). */
  private readonly pending = new Map<string, number>();
  /** The end of each shop's queue of requests waiting for points. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** Points available now for `shop` (after what its requests in flight hold), or undefined before the first response was seen. */
  available(shop: string): number | undefined {
    const bucket = this.buckets.get(shop);
    if (!bucket) return undefined;
    const elapsedSeconds = Math.max(0, this.clock.now() - bucket.observedAt) / 1000;
    return Math.min(bucket.maximumAvailable, bucket.currentlyAvailable + elapsedSeconds * bucket.restoreRate) - (this.pending.get(shop) ?? 0);
  }

  /** Milliseconds to wait before sending a request estimated at `cost` points (0 when it fits now). */
  delayFor(shop: string, cost: number): number {
    const bucket = this.buckets.get(shop);
    const available = this.available(shop);
    if (!bucket || available === undefined) return 0;
    const needed = Math.min(cost, bucket.maximumAvailable) - available;
    return needed <= 0 ? 0 : Math.ceil((needed / bucket.restoreRate) * 1000);
  }

  /**
   * Waits until `cost` points are there for `shop`, in turn behind the shop's requests that asked before
   * (the write-back, tracking-event writes, a mirror sync, webhook refreshes), then holds them until
   * `release`. Each request's wait is decided when its turn comes, from Shopify's latest figures and the
   * requests still in flight, so two writers never wake together into THROTTLED and nobody waits for
   * points that a refund has already given back.
   */
  async acquire(shop: string, cost: number, sleep: (ms: number) => Promise<void>): Promise<void> {
    const before = this.turns.get(shop) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const last = before.then(() => mine);
    this.turns.set(shop, last);
    await before;
    try {
      const wait = this.delayFor(shop, cost);
      if (wait > 0) await sleep(wait);
      this.reserve(shop, cost);
    } finally {
      done();
      if (this.turns.get(shop) === last) this.turns.delete(shop);
    }
  }

  /** Holds `cost` points for a request in flight: Shopify charges the requested cost up front. */
  reserve(shop: string, cost: number): void {
    this.pending.set(shop, (this.pending.get(shop) ?? 0) + cost);
  }

  /** The request that reserved `cost` was answered (or failed): Shopify's next figures account for it. */
  release(shop: string, cost: number): void {
    this.pending.set(shop, Math.max(0, (this.pending.get(shop) ?? 0) - cost));
  }

  /** The bucket as Shopify last reported it for `shop` (size and restore rate), or undefined before any answer. */
  status(shop: string): ThrottleStatus | undefined {
    const bucket = this.buckets.get(shop);
    return bucket && { maximumAvailable: bucket.maximumAvailable, currentlyAvailable: bucket.currentlyAvailable, restoreRate: bucket.restoreRate };
  }

  /** Records the bucket as Shopify reported it. */
  observe(shop: string, status: ThrottleStatus): void {
    this.buckets.set(shop, { ...status, observedAt: this.clock.now() });
  }
}
