import { describe, expect, it } from "vitest";
import { CostPacer, SYNC_QUIET_MS, SYNC_RESERVE, type PacerLane } from "./pacer";

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

  describe("lanes", () => {
    /** A sleep that never ends by itself: only the pacer's signal (the queue changed) ends it. */
    const untilWoken = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));

    it("GIVEN 100 webhook re-reads waiting for points WHEN a page's read asks THEN it is granted next, before every re-read still waiting", async () => {
      const clock = manualClock();
      const pacer = new CostPacer(clock);
      // Room for one re-read above the share of the bucket re-reads leave for pages.
      pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 1000 * SYNC_RESERVE + 10, restoreRate: 100 });
      const granted: string[] = [];
      const ask = (who: string, lane: PacerLane) => pacer.acquire("shop", 10, untilWoken, lane).then(() => granted.push(who));
      const rereads = Array.from({ length: 100 }, (_, i) => ask(`re-read ${i}`, "sync"));
      for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(granted).toEqual(["re-read 0"]);
      expect(pacer.waiting("shop")).toEqual({ interactive: 0, work: 0, sync: 99 });

      await ask("page", "interactive");
      expect(granted).toEqual(["re-read 0", "page"]);
      expect(pacer.waiting("shop").sync).toBe(99);

      // The re-reads go on, in the order they asked, as points come back.
      while (granted.length < 101) {
        clock.advance(SYNC_QUIET_MS);
        pacer.release("shop", 1000);
        pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 100 });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.all(rereads);
      expect(granted.slice(2)).toEqual(Array.from({ length: 99 }, (_, i) => `re-read ${i + 1}`));
    });

    it("GIVEN re-reads and write-back writes waiting THEN every write goes first, in the order asked", async () => {
      const clock = manualClock();
      const pacer = new CostPacer(clock);
      pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 100 });
      const granted: string[] = [];
      const sleep = async (ms: number) => void clock.advance(ms);
      const ask = (who: string, lane: PacerLane) => pacer.acquire("shop", 10, sleep, lane).then(() => granted.push(who));
      await Promise.all([ask("re-read 1", "sync"), ask("write 1", "work"), ask("re-read 2", "sync"), ask("write 2", "work"), ask("page", "interactive")]);
      expect(granted).toEqual(["page", "write 1", "write 2", "re-read 1", "re-read 2"]);
    });

    it("GIVEN no more than SYNC_RESERVE of the bucket left THEN a re-read waits until it can leave that share for pages; a write does not", () => {
      const clock = manualClock();
      const pacer = new CostPacer(clock);
      pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 1000 * SYNC_RESERVE, restoreRate: 100 });
      expect(pacer.delayFor("shop", 20, "work")).toBe(0);
      expect(pacer.delayFor("shop", 20, "interactive")).toBe(0);
      expect(pacer.delayFor("shop", 20, "sync")).toBe(200);
    });

    it("GIVEN a write just sent THEN a re-read waits until the writer has been quiet for SYNC_QUIET_MS, though the bucket is full; a page read does not pause it", async () => {
      const clock = manualClock();
      const pacer = new CostPacer(clock);
      pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 100 });
      await pacer.acquire("shop", 10, untilWoken, "work");
      expect(pacer.delayFor("shop", 10, "sync")).toBe(SYNC_QUIET_MS);
      clock.advance(SYNC_QUIET_MS / 2);
      expect(pacer.delayFor("shop", 10, "sync")).toBe(SYNC_QUIET_MS / 2);
      clock.advance(SYNC_QUIET_MS / 2);
      expect(pacer.delayFor("shop", 10, "sync")).toBe(0);
      await pacer.acquire("shop", 10, untilWoken, "interactive");
      expect(pacer.delayFor("shop", 10, "sync")).toBe(0);
    });
    it("GIVEN a writer holding the sync lane WHEN it pauses longer than SYNC_QUIET_MS THEN a re-read still waits, and goes as soon as the hold is released", async () => {
      const clock = manualClock();
      const pacer = new CostPacer(clock);
      pacer.observe("shop", { maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 100 });
      const release = pacer.holdSync("shop");
      const granted: string[] = [];
      const reread = pacer.acquire("shop", 10, untilWoken, "sync").then(() => granted.push("re-read"));
      clock.advance(10 * SYNC_QUIET_MS);
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(granted).toEqual([]);
      expect(pacer.delayFor("shop", 10, "work")).toBe(0);
      release();
      release(); // a second call changes nothing
      await reread;
      expect(granted).toEqual(["re-read"]);
      expect(pacer.delayFor("shop", 10, "sync")).toBe(0);
    });
  });
});
