/** The service's notion of "now". Injected everywhere time matters (quote expiry, tracking, ledger). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock that starts at `start` and advances in real time (SHIPPING_SERVICE_FAKE_NOW), so a local
 * demo can sit on a fixed date while tracking timelines still unfold.
 */
export function createOffsetClock(start: Date, base: Clock = systemClock): Clock {
  const offsetMs = start.getTime() - base.now().getTime();
  return { now: () => new Date(base.now().getTime() + offsetMs) };
}

/** A clock tests move by hand (quote expiry after 30 days, tracking events revealed over days). */
export interface ManualClock extends Clock {
  set(at: Date): void;
  advance(ms: number): void;
}

export function createManualClock(start: Date): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = at.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD HH:MM:SS` in UTC: the interface's timestamp form. */
export function formatTimestamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace("T", " ");
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
