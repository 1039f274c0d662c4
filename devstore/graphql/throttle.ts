import type { Clock } from "../clock.js";

export interface ThrottleOptions {
  /** Bucket size in cost points (Shopify: 1,000 for Standard plans' GraphQL Admin API bucket). */
  bucketSize: number;
  /** Points restored per second (Standard 100, Advanced 200, Plus 1,000). */
  restoreRate: number;
  /** Largest requested cost a single query may have (Shopify: 1,000). */
  maxQueryCost: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { bucketSize: 1000, restoreRate: 100, maxQueryCost: 1000 };

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/**
 * Shopify's cost-based leaky bucket, one per app per shop: a query is charged its requested cost up front,
 * refused (THROTTLED) when the bucket holds less, and refunded down to its actual cost afterwards.
 * Points flow back continuously at restoreRate per second of the injected clock.
 */
export class CostBucket {
  private available: number;
  private at: number;

  constructor(
    private readonly options: ThrottleOptions,
    private readonly clock: Clock,
  ) {
    this.available = options.bucketSize;
    this.at = clock();
  }

  private refill(): void {
    const now = this.clock();
    const elapsed = Math.max(0, now - this.at) / 1000;
    this.available = Math.min(this.options.bucketSize, this.available + elapsed * this.options.restoreRate);
    this.at = now;
  }

  /** Takes `cost` points if the bucket holds them. */
  tryCharge(cost: number): boolean {
    this.refill();
    if (cost > this.available) return false;
    this.available -= cost;
    return true;
  }

  refund(points: number): void {
    this.refill();
    this.available = Math.min(this.options.bucketSize, this.available + Math.max(0, points));
  }

  status(): ThrottleStatus {
    this.refill();
    return {
      maximumAvailable: this.options.bucketSize,
      currentlyAvailable: Math.floor(this.available),
      restoreRate: this.options.restoreRate,
    };
  }
}
