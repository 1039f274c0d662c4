/**
 * Cost-aware pacing for the Admin GraphQL API's leaky bucket. Shopify charges the
 * requested cost up front, refunds down to the actual cost, and restores `restoreRate` points per second up
 * to `maximumAvailable`. The pacer mirrors the bucket from each response's `throttleStatus` and says how
 * long to wait before a request of a given cost, so that THROTTLED is the exception, not the rhythm.
 */
export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

interface BucketState extends ThrottleStatus {
  observedAt: number;
}

/**
 * Who is waiting for the shop's points, most urgent first (docs/decisions/023):
 * - `interactive`: a merchant's page or action is waiting for the answer;
 * - `work`: background work a merchant asked for (the write-back's writes, tracking events, a quote run, a sync);
 * - `sync`: keeping the order mirror current from webhooks, which no one waits for.
 * A waiting request of a more urgent lane always goes before a less urgent one, whenever it arrived. The `sync`
 * lane also yields the bucket: it sends only once the `work` lane has sent nothing for `SYNC_QUIET_MS` (so a
 * writer working one request at a time, as the write-back does, keeps every point it would have had) and
 * leaves `SYNC_RESERVE` of the bucket untouched (so a page that comes during a burst of webhooks finds its
 * points there; pages do not pause the re-reads, which merchants reading pages all day would starve).
 */
export type PacerLane = "interactive" | "work" | "sync";

const LANES: readonly PacerLane[] = ["interactive", "work", "sync"];
/** The share of the bucket the sync lane leaves for the other lanes. */
export const SYNC_RESERVE = 0.25;
/** How long after the work lane's last request the sync lane waits before it sends. */
export const SYNC_QUIET_MS = 1_000;

/** How a waiting request sleeps: the pacer aborts the signal when the queue changes and it decides again. */
export type PacerSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

interface Waiter {
  cost: number;
  sleep: PacerSleep;
  granted: () => void;
}

interface ShopQueue {
  lanes: Record<PacerLane, Waiter[]>;
  /**
   * While the pump sleeps for points: aborted when a request joins the queue or points come back, and the pump
   * decides again. None while it is not sleeping, so the answers and requests of a busy shop (thousands a
   * minute in a tracking pass) make no controller and no abort error each.
   */
  changed: AbortController | null;
  pumping: boolean;
}

/** How long a held `sync` lane sleeps before it decides again (the hold's release wakes it sooner). */
const HELD_SYNC_WAIT_MS = 60_000;

/** The reason a sleeping pump is woken: a plain value, so waking it costs no DOMException and its stack. */
const QUEUE_CHANGED = "the queue changed";

export class CostPacer {
  private readonly buckets = new Map<string, BucketState>();
  /** Points held by the shop's requests in flight (sent, not answered yet). */
  private readonly pending = new Map<string, number>();
  /** Each shop's requests waiting for points, by lane. */
  private readonly queues = new Map<string, ShopQueue>();
  /** When each shop last sent a request of the `work` lane. */
  private readonly lastWork = new Map<string, number>();
  /** Writers of the shop under way that the `sync` lane waits for whole (`holdSync`), by shop. */
  private readonly syncHolds = new Map<string, number>();

  constructor(private readonly clock: Clock = systemClock) {}

  /** Points available now for `shop` (after what its requests in flight hold), or undefined before the first response was seen. */
  available(shop: string): number | undefined {
    const bucket = this.buckets.get(shop);
    if (!bucket) return undefined;
    const elapsedSeconds = Math.max(0, this.clock.now() - bucket.observedAt) / 1000;
    return Math.min(bucket.maximumAvailable, bucket.currentlyAvailable + elapsedSeconds * bucket.restoreRate) - (this.pending.get(shop) ?? 0);
  }

  /**
   * Milliseconds to wait before sending a request estimated at `cost` points in `lane` (0 when it may go now):
   * until the points are there, and for the `sync` lane until the reserve stays and the work lane was quiet.
   */
  delayFor(shop: string, cost: number, lane: PacerLane = "work"): number {
    const bucket = this.buckets.get(shop);
    const available = this.available(shop);
    if (lane === "sync" && (this.syncHolds.get(shop) ?? 0) > 0) return HELD_SYNC_WAIT_MS;
    const quiet = lane === "sync" ? Math.max(0, (this.lastWork.get(shop) ?? -Infinity) + SYNC_QUIET_MS - this.clock.now()) : 0;
    if (!bucket || available === undefined) return quiet;
    const kept = lane === "sync" ? bucket.maximumAvailable * SYNC_RESERVE : 0;
    const needed = Math.min(cost + kept, bucket.maximumAvailable) - available;
    return Math.max(quiet, needed <= 0 ? 0 : Math.ceil((needed / bucket.restoreRate) * 1000));
  }

  /**
   * Waits until `cost` points are there for `shop`, then holds them until `release`. The shop's requests
   * go one at a time, the most urgent lane first and in the order they asked within a lane (the
   * write-back, tracking-event writes, a mirror sync, webhook refreshes); a page's read never waits behind
   * background ones. Each request's wait is decided when its turn comes, from Shopify's latest figures and
   * the requests still in flight, and decided again when another request joins or points come back, so two
   * writers never wake together into THROTTLED and nobody waits for points a refund has already given back.
   */
  acquire(shop: string, cost: number, sleep: PacerSleep, lane: PacerLane = "work"): Promise<void> {
    const queue = this.queueOf(shop);
    const granted = new Promise<void>((resolve) => queue.lanes[lane].push({ cost, sleep, granted: resolve }));
    this.changed(shop);
    if (!queue.pumping) void this.pump(shop, queue);
    return granted;
  }

  /**
   * Keeps the shop's `sync` lane waiting until the answer is called, however long the writer pauses between
   * its requests (the write-back: its claims and records between writes, pages of rows, a loaded machine):
   * the quiet second alone let the mirror's re-reads, charged 31–550 points each, in between its writes.
   */
  holdSync(shop: string): () => void {
    this.syncHolds.set(shop, (this.syncHolds.get(shop) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.syncHolds.get(shop) ?? 1) - 1;
      if (left > 0) this.syncHolds.set(shop, left);
      else this.syncHolds.delete(shop);
      this.changed(shop);
    };
  }

  /** Requests waiting for `shop`'s points, by lane (what is queued behind what). */
  waiting(shop: string): Record<PacerLane, number> {
    const lanes = this.queues.get(shop)?.lanes;
    return { interactive: lanes?.interactive.length ?? 0, work: lanes?.work.length ?? 0, sync: lanes?.sync.length ?? 0 };
  }

  /** Holds `cost` points for a request in flight: Shopify charges the requested cost up front. */
  reserve(shop: string, cost: number): void {
    this.pending.set(shop, (this.pending.get(shop) ?? 0) + cost);
  }

  /** The request that reserved `cost` was answered (or failed): Shopify's next figures account for it. */
  release(shop: string, cost: number): void {
    this.pending.set(shop, Math.max(0, (this.pending.get(shop) ?? 0) - cost));
    this.changed(shop);
  }

  /** The bucket as Shopify last reported it for `shop` (size and restore rate), or undefined before any answer. */
  status(shop: string): ThrottleStatus | undefined {
    const bucket = this.buckets.get(shop);
    return bucket && { maximumAvailable: bucket.maximumAvailable, currentlyAvailable: bucket.currentlyAvailable, restoreRate: bucket.restoreRate };
  }

  /** Records the bucket as Shopify reported it. */
  observe(shop: string, status: ThrottleStatus): void {
    this.buckets.set(shop, { ...status, observedAt: this.clock.now() });
    this.changed(shop);
  }

  private queueOf(shop: string): ShopQueue {
    let queue = this.queues.get(shop);
    if (!queue) {
      queue = { lanes: { interactive: [], work: [], sync: [] }, changed: null, pumping: false };
      this.queues.set(shop, queue);
    }
    return queue;
  }

  private changed(shop: string): void {
    const queue = this.queues.get(shop);
    if (!queue?.changed) return;
    queue.changed.abort(QUEUE_CHANGED);
    queue.changed = null;
  }

  /**
   * Grants the shop's waiting requests one at a time, most urgent lane first. The next request's wait is
   * decided a macrotask after the last grant (the granted caller sends, or an answer comes in, first); a
   * wait ends early when the queue changes, and the pump then decides again whom to grant.
   */
  private async pump(shop: string, queue: ShopQueue): Promise<void> {
    queue.pumping = true;
    try {
      for (;;) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        const lane = LANES.find((name) => queue.lanes[name].length > 0);
        if (!lane) return;
        const next = queue.lanes[lane][0]!;
        const wait = this.delayFor(shop, next.cost, lane);
        if (wait > 0) {
          const { signal } = (queue.changed = new AbortController());
          await Promise.race([next.sleep(wait, signal), new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }))]);
          continue;
        }
        queue.lanes[lane].shift();
        this.reserve(shop, next.cost);
        if (lane === "work") this.lastWork.set(shop, this.clock.now());
        next.granted();
      }
    } finally {
      queue.pumping = false;
      if (LANES.every((name) => queue.lanes[name].length === 0)) this.queues.delete(shop);
      else void this.pump(shop, queue);
    }
  }
}
