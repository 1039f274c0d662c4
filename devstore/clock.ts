/** Milliseconds since the epoch. Injected so tests control throttling, token expiry and timestamps. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/** Shopify's DateTime form: UTC, second precision ("2026-11-20T12:00:00Z"). */
export function toShopifyDateTime(value: string | number | Date): string {
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function isoAt(clock: Clock): string {
  return toShopifyDateTime(clock());
}
