/** Milliseconds since the epoch. Injected so tests control throttling, token expiry and timestamps. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

export function isoAt(clock: Clock): string {
  return new Date(clock()).toISOString().replace(/\.\d{3}Z$/, "Z");
}
