import { describe, expect, it } from "vitest";
import { CostPacer } from "./pacer";

function manualClock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("CostPacer", () => {
  it("GIVEN no response seen yet THEN nothing waits", () => {
    expect(new CostPacer(manualClock()).delayFor("shop", 500)).toBe(0);
  });

  it("GIVEN 100 points left at 100/s THEN a 300-point request waits 2 s, and less as the bucket restores", () => {
    const clock = manualClock();
    const pacer = new CostPacer(clock);
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 100 });
    expect(pacer.delayFor("shop", 300)).toBe(2000);
    clock.advance(1500);
    expect(pacer.available("shop")).toBe(250);
    expect(pacer.delayFor("shop", 300)).toBe(500);
    clock.advance(500);
    expect(pacer.delayFor("shop", 300)).toBe(0);
  });

  it("GIVEN a full bucket THEN it never restores past maximumAvailable", () => {
    const clock = manualClock();
    const pacer = new CostPacer(clock);
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 990, restoreRate: 100 });
    clock.advance(60_000);
    expect(pacer.available("shop")).toBe(1000);
  });

  it("GIVEN concurrent requests THEN reservations queue them behind each other", () => {
    const pacer = new CostPacer(manualClock());
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 400, restoreRate: 50 });
    pacer.reserve("shop", 400);
    expect(pacer.delayFor("shop", 100)).toBe(2000);
  });

  it("GIVEN a request in flight WHEN Shopify reports the bucket (another request's answer) THEN its points stay held until it is answered", () => {
    const pacer = new CostPacer(manualClock());
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 50 });
    pacer.reserve("shop", 100);
    // Shopify's figures may not count a request it has not received yet: the reservation stays.
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 50 });
    expect(pacer.delayFor("shop", 100)).toBe(2000);
    pacer.release("shop", 100);
    expect(pacer.delayFor("shop", 100)).toBe(0);
  });

  it("GIVEN two callers WHEN both acquire points THEN the second waits its turn, decided from the figures when its turn comes", async () => {
    const clock = manualClock();
    const pacer = new CostPacer(clock);
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 100 });
    const waits: string[] = [];
    const sleep = (who: string) => async (ms: number) => {
      waits.push(`${who} ${ms}`);
      clock.advance(ms);
    };
    const first = pacer.acquire("shop", 300, sleep("first"));
    const second = pacer.acquire("shop", 300, sleep("second"));
    await first;
    // The first request is answered before the second's turn is decided: a refund left 250 points.
    pacer.release("shop", 300);
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 250, restoreRate: 100 });
    await second;
    expect(waits).toEqual(["first 2000", "second 500"]);
  });

  it("GIVEN a request costlier than the whole bucket THEN it waits only for a full bucket", () => {
    const pacer = new CostPacer(manualClock());
    pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 100 });
    expect(pacer.delayFor("shop", 5000)).toBe(10_000);
  });

  it("GIVEN two shops THEN their buckets are separate", () => {
    const pacer = new CostPacer(manualClock());
    pacer.observe("a", { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 100 });
    expect(pacer.delayFor("b", 900)).toBe(0);
    expect(pacer.delayFor("a", 900)).toBe(9000);
  });
});
