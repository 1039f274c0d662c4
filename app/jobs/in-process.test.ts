import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InProcessQueue } from "./in-process";
import { defineJob, UnknownJobError, type Clock, type JobRun, type JobSpec } from "./job";

/** A clock that moves only when someone waits on it: each sleep jumps time forward by its length. */
function steppingClock(start: string): Clock & { waits: number[] } {
  let now = new Date(start).getTime();
  const waits: number[] = [];
  return {
    waits,
    now: () => new Date(now),
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        waits.push(ms);
        now += ms;
        setImmediate(resolve);
      }),
  };
}

/** A gate a test opens when it chooses. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const Shop = z.object({ shop: z.string() });

function job(name: string, run: (data: { shop: string }, job: JobRun) => Promise<void>, overrides: Partial<JobSpec<{ shop: string }>> = {}) {
  return defineJob({ name, data: Shop, key: ({ shop }) => shop, run, retry: { limit: 0, delaySeconds: 1, backoff: false }, expireInSeconds: 60, ...overrides });
}

const quiet = () => {};

describe("the in-process job queue", () => {
  it("GIVEN a job running under a key WHEN it is sent three more times THEN it runs once more after it, never beside it; another key runs at once", async () => {
    const first = gate();
    const runs: string[] = [];
    let running = 0;
    let most = 0;
    const spec = job("count", async ({ shop }) => {
      running++;
      most = Math.max(most, running);
      runs.push(shop);
      if (runs.length === 1) await first.opened;
      running--;
    });
    const queue = new InProcessQueue([spec as unknown as JobSpec<never>], { log: quiet });
    await queue.send(spec, { shop: "a" });
    await queue.send(spec, { shop: "a" });
    await queue.send(spec, { shop: "a" });
    await queue.send(spec, { shop: "a" });
    await queue.send(spec, { shop: "b" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual(["a", "b"]);
    expect(await queue.busy(spec, { shop: "a" })).toBe(true);
    first.open();
    await queue.drained(spec, { shop: "a" });
    expect(runs).toEqual(["a", "b", "a"]);
    expect(await queue.busy(spec, { shop: "a" })).toBe(false);
    await queue.idle();
    expect(most).toBe(2); // a and b side by side, never two of a
  });

  it("GIVEN a job that fails twice THEN it is retried after its backoff (1 s, then 2 s) and succeeds on the third attempt", async () => {
    const clock = steppingClock("2026-11-24T10:00:00Z");
    const attempts: number[] = [];
    const spec = job(
      "flaky",
      async (_data, { attempt }) => {
        attempts.push(attempt);
        if (attempt < 3) throw new Error("Shopify did not answer");
      },
      { retry: { limit: 5, delaySeconds: 1, backoff: true } },
    );
    const queue = new InProcessQueue([spec as unknown as JobSpec<never>], { clock, log: quiet });
    await queue.send(spec, { shop: "a" });
    await queue.drained(spec, { shop: "a" });
    expect(attempts).toEqual([1, 2, 3]);
    expect(clock.waits).toEqual([1_000, 2_000]);
  });

  it("GIVEN a job that keeps failing THEN it stops after its retry limit and reports each failure", async () => {
    const clock = steppingClock("2026-11-24T10:00:00Z");
    const reported: string[] = [];
    let attempts = 0;
    const failing = job(
      "broken",
      async () => {
        attempts++;
        throw new Error("down");
      },
      { retry: { limit: 2, delaySeconds: 3, backoff: false } },
    );
    const queue = new InProcessQueue([failing as unknown as JobSpec<never>], { clock, log: (message) => reported.push(message) });
    await queue.send(failing, { shop: "a" });
    await queue.drained(failing, { shop: "a" });
    expect(attempts).toBe(3);
    expect(clock.waits).toEqual([3_000, 3_000]);
    expect(reported.map((line) => line.replace(/:$/, ""))).toEqual([
      "job broken (a) attempt 1 failed, will retry",
      "job broken (a) attempt 2 failed, will retry",
      "job broken (a) attempt 3 failed; giving up",
    ]);
  });

  it("GIVEN a job scheduled every minute WHEN the queue works THEN it is sent at each minute's start (UTC), and no more once stopped", async () => {
    const clock = steppingClock("2026-11-24T10:00:30Z");
    const sentAt: string[] = [];
    const spec = job("tick", async () => void sentAt.push(clock.now().toISOString()), { schedule: { cron: "* * * * *", data: { shop: "all" } } });
    const queue = new InProcessQueue([spec as unknown as JobSpec<never>], { clock, log: quiet });
    await queue.start({ work: true });
    while (sentAt.length < 3) await new Promise((resolve) => setImmediate(resolve));
    await queue.stop({ timeoutMs: 1_000 });
    const count = sentAt.length;
    expect(sentAt.slice(0, 3)).toEqual(["2026-11-24T10:01:00.000Z", "2026-11-24T10:02:00.000Z", "2026-11-24T10:03:00.000Z"]);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sentAt.length).toBe(count);
  });

  it("GIVEN a web process (work: false) THEN schedules are not sent there", async () => {
    const clock = steppingClock("2026-11-24T10:00:30Z");
    let sent = 0;
    const spec = job("tick", async () => void sent++, { schedule: { cron: "* * * * *", data: { shop: "all" } } });
    const queue = new InProcessQueue([spec as unknown as JobSpec<never>], { clock, log: quiet });
    await queue.start({ work: false });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(0);
    expect(clock.waits).toEqual([]);
  });

  it("GIVEN a running job and one waiting WHEN the queue stops THEN the running one sees the stop and finishes, the waiting one and later sends are not taken", async () => {
    const started = gate();
    const finished: string[] = [];
    const spec = job("long", async ({ shop }, { signal }) => {
      started.open();
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      finished.push(`${shop} saw the stop`);
    });
    const queue = new InProcessQueue([spec as unknown as JobSpec<never>], { log: quiet });
    await queue.send(spec, { shop: "a" });
    await queue.send(spec, { shop: "a" });
    await started.opened;
    await queue.stop({ timeoutMs: 5_000 });
    expect(finished).toEqual(["a saw the stop"]);
    await queue.send(spec, { shop: "b" });
    expect(await queue.busy(spec, { shop: "b" })).toBe(false);
    await queue.start({ work: true });
    await queue.send(spec, { shop: "c" });
    expect(await queue.busy(spec, { shop: "c" })).toBe(true);
    await queue.stop({ timeoutMs: 5_000 });
  });

  it("GIVEN data without the job's shape THEN sending it throws before anything runs", async () => {
    let ran = false;
    const spec = job("strict", async () => void (ran = true));
    const queue = new InProcessQueue([spec as unknown as JobSpec<never>], { log: quiet });
    await expect(queue.send(spec, { shop: 42 } as unknown as { shop: string })).rejects.toThrow();
    expect(ran).toBe(false);
  });

  it("GIVEN a queue made without a job WHEN that job is sent, waited for or asked about THEN it is refused naming the job, and nothing runs", async () => {
    let ran = false;
    const known = job("known", async () => {});
    const stranger = job("stranger", async () => void (ran = true));
    const queue = new InProcessQueue([known as unknown as JobSpec<never>], { log: quiet });
    await expect(queue.send(stranger, { shop: "a" })).rejects.toThrow(new UnknownJobError("stranger"));
    await expect(queue.drained(stranger, { shop: "a" })).rejects.toBeInstanceOf(UnknownJobError);
    await expect(queue.busy(stranger, { shop: "a" })).rejects.toBeInstanceOf(UnknownJobError);
    expect(ran).toBe(false);
  });
});
