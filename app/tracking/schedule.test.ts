import { describe, expect, it } from "vitest";
import { DAY, POLL_INTERVAL_MS, STALE_AFTER_MS, VOID_CHECK_AFTER_MS, isStale, jittered, nextPoll, voidCheckDue } from "./schedule";

const now = new Date("2026-11-24T12:00:00Z");
const HOUR = 3_600_000;

describe("nextPoll", () => {
  it("GIVEN Delivered THEN never polled again", () => {
    expect(nextPoll({ now, latest: "Delivered", lastEventAt: now, trackedSince: now, random: () => 0.5 })).toEqual({ state: "DELIVERED", nextTrackAt: null });
  });

  it("GIVEN out for delivery THEN polled sooner than in transit", () => {
    const poll = (latest: "Out for Delivery" | "In Transit") => nextPoll({ now, latest, lastEventAt: now, trackedSince: now, random: () => 0.5 });
    const out = poll("Out for Delivery");
    const transit = poll("In Transit");
    expect(out).toEqual({ state: "ACTIVE", nextTrackAt: new Date(now.getTime() + HOUR) });
    expect(transit).toEqual({ state: "ACTIVE", nextTrackAt: new Date(now.getTime() + 6 * HOUR) });
  });

  it("GIVEN no new event for the stale bound THEN stale, not polled", () => {
    const lastEventAt = new Date(now.getTime() - STALE_AFTER_MS);
    expect(nextPoll({ now, latest: "In Transit", lastEventAt, trackedSince: lastEventAt, random: () => 0.5 })).toEqual({ state: "STALE", nextTrackAt: null });
    expect(nextPoll({ now, latest: null, lastEventAt: null, trackedSince: new Date(now.getTime() - 31 * DAY), random: () => 0.5 }).state).toBe("STALE");
  });
});

describe("jittered", () => {
  it("GIVEN the extremes of random THEN within ±10% of the interval", () => {
    const interval = POLL_INTERVAL_MS["In Transit"];
    expect(jittered(interval, () => 0)).toBe(interval * 0.9);
    expect(jittered(interval, () => 0.999999)).toBeLessThanOrEqual(interval * 1.1);
    expect(jittered(interval, () => 0.999999)).toBeGreaterThan(interval * 1.09);
  });
});

describe("voidCheckDue", () => {
  const bookedAt = new Date(now.getTime() - VOID_CHECK_AFTER_MS);
  const check = (overrides: Partial<Parameters<typeof voidCheckDue>[0]> = {}) =>
    voidCheckDue({ now, statuses: ["Info Received"], bookedAt, voidCheckedAt: null, goingStale: false, ...overrides });

  it("GIVEN a label as old as the bound with no scan, or only Info Received, never checked THEN Search is asked", () => {
    expect(check()).toBe(true);
    expect(check({ statuses: [] })).toBe(true);
  });

  it("GIVEN a label younger than the bound THEN not yet", () => {
    expect(check({ bookedAt: new Date(now.getTime() - VOID_CHECK_AFTER_MS + 1) })).toBe(false);
  });

  it("GIVEN a check within the bound THEN not again until the bound has passed since it", () => {
    expect(check({ voidCheckedAt: new Date(now.getTime() - 2 * HOUR) })).toBe(false);
    expect(check({ voidCheckedAt: new Date(now.getTime() - VOID_CHECK_AFTER_MS + 1) })).toBe(false);
    expect(check({ voidCheckedAt: new Date(now.getTime() - VOID_CHECK_AFTER_MS) })).toBe(true);
  });

  it("GIVEN any status beyond Info Received THEN never, whatever its age, the last check or staleness", () => {
    for (const status of ["In Transit", "Exception", "Delivered", "Out for Delivery"] as const) {
      expect(check({ statuses: [status, "Info Received"] })).toBe(false);
      expect(check({ statuses: ["Info Received", status], bookedAt: new Date(now.getTime() - 40 * DAY), goingStale: true })).toBe(false);
    }
  });

  it("GIVEN a pre-pickup shipment about to be marked stale THEN Search is asked even within the bound", () => {
    expect(check({ voidCheckedAt: new Date(now.getTime() - HOUR), goingStale: true })).toBe(true);
  });
});

describe("isStale", () => {
  it("GIVEN the last event (or, with none, the fulfillment) STALE_AFTER_MS ago THEN stale; a moment less THEN not", () => {
    const at = (ms: number) => new Date(now.getTime() - ms);
    expect(isStale({ now, lastEventAt: at(STALE_AFTER_MS), trackedSince: at(40 * DAY) })).toBe(true);
    expect(isStale({ now, lastEventAt: at(STALE_AFTER_MS - 1), trackedSince: at(40 * DAY) })).toBe(false);
    expect(isStale({ now, lastEventAt: null, trackedSince: at(STALE_AFTER_MS) })).toBe(true);
  });
});
