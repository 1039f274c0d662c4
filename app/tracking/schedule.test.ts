import { describe, expect, it } from "vitest";
import { DAY, POLL_INTERVAL_MS, STALE_AFTER_MS, jittered, nextPoll } from "./schedule";

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
