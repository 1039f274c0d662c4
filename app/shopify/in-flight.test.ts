import { describe, expect, it } from "vitest";
import { forEachInFlight, requestsInFlight } from "./in-flight";
import { CostPacer } from "./pacer";

// Nothing here talks to Shopify: the pacer holds the bucket as an answer reported it, and the work is a timer.
function shopAt(restoreRate: number | null) {
  const pacer = new CostPacer();
  if (restoreRate !== null) pacer.observe("shop", { maximumAvailable: restoreRate * 10, currentlyAvailable: restoreRate * 10, restoreRate });
  return { shop: "shop", pacer };
}

async function peakInFlight(context: ReturnType<typeof shopAt>, items: number): Promise<{ peak: number; done: number[] }> {
  let running = 0;
  let peak = 0;
  const done: number[] = [];
  await forEachInFlight(
    context,
    Array.from({ length: items }, (_, index) => index),
    async (item) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      done.push(item);
    },
  );
  return { peak, done };
}

describe("requests in flight", () => {
  it.each([
    [null, 1],
    [50, 1],
    [100, 1],
    [200, 2],
    [1000, 10],
  ])("GIVEN a bucket restoring %s points/s THEN %i request(s) at a time", async (restoreRate, expected) => {
    const context = shopAt(restoreRate);
    expect(requestsInFlight(context)).toBe(expected);
    const { peak, done } = await peakInFlight(context, 24);
    expect(peak).toBe(expected);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, index) => index));
  });

  it("GIVEN the first answer reports a larger plan THEN the next items go more at a time", async () => {
    const context = shopAt(null);
    let running = 0;
    let peak = 0;
    await forEachInFlight(context, [0, 1, 2, 3, 4, 5], async (item) => {
      running++;
      peak = Math.max(peak, running);
      if (item === 0) context.pacer.observe("shop", { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 300 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
    });
    expect(peak).toBe(3);
  });

  it("GIVEN one item's work fails THEN no new item starts, the running ones end, and the failure is thrown", async () => {
    const context = shopAt(200);
    const started: number[] = [];
    const ended: number[] = [];
    const run = forEachInFlight(context, [0, 1, 2, 3, 4], async (item) => {
      started.push(item);
      await new Promise((resolve) => setTimeout(resolve, item === 0 ? 1 : 20));
      if (item === 0) throw new Error("item 0 failed");
      ended.push(item);
    });
    await expect(run).rejects.toThrow("item 0 failed");
    expect(started).toEqual([0, 1]);
    expect(ended).toEqual([1]);
  });
});
