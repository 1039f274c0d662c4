import { CronExpressionParser } from "cron-parser";
import type { JobDefinition } from "../context";
import { noJobServices, retryDelayMs, servicesOfJob, specOf, systemClock, type Clock, type JobQueue, type JobServices, type JobSpec } from "./job";

/**
 * The job queue of the embedded profile (SQLite, one process): the same named jobs as on PostgreSQL, run in
 * this process. One job runs at a time per key and at most one more waits behind it; a failed attempt is
 * retried after the job's backoff; schedules send their job when their cron expression comes due. Nothing
 * is kept across a restart: every job's work is recorded in the database as intents and outcomes
 * (docs/decisions/005), and start-up sends the jobs those records call for again.
 */

interface Slot {
  /** Data of the job waiting behind the running one (one at most, as pg-boss's stately policy keeps it). */
  waiting: { data: unknown } | null;
  done: Promise<void>;
}

export interface InProcessQueueOptions {
  clock?: Clock;
  /** Where failures are reported; the services' logger by default (its lines name the job). */
  log?: (message: string, error: unknown, job: string) => void;
}

export class InProcessQueue implements JobQueue {
  private readonly slots = new Map<string, Slot>();
  private readonly clock: Clock;
  private readonly log: (message: string, error: unknown, job: string) => void;
  private stopping = new AbortController();
  private schedules: Promise<void>[] = [];

  constructor(
    private readonly specs: readonly JobSpec<never>[],
    options: InProcessQueueOptions = {},
    private readonly services: JobServices = noJobServices,
  ) {
    this.clock = options.clock ?? systemClock;
    this.log = options.log ?? ((message, error, job) => this.services.log.child({ job }).error({ err: error }, message));
  }

  async send<T>(job: JobDefinition<T>, data: T): Promise<void> {
    const spec = specOf(this.specs, job);
    const parsed = spec.data.parse(data);
    if (this.stopping.signal.aborted) return; // Stopping: the job's records stay, and the next start sends it again.
    const slotKey = `${spec.name}:${spec.key(parsed)}`;
    const slot = this.slots.get(slotKey);
    if (slot) {
      slot.waiting ??= { data: parsed };
      return;
    }
    const created: Slot = { waiting: null, done: Promise.resolve() };
    this.slots.set(slotKey, created);
    created.done = this.drive(spec, parsed, created).finally(() => this.slots.delete(slotKey));
  }

  async drained<T>(job: JobDefinition<T>, data: T): Promise<void> {
    const spec = specOf(this.specs, job);
    const slotKey = `${spec.name}:${spec.key(spec.data.parse(data))}`;
    for (let slot = this.slots.get(slotKey); slot; slot = this.slots.get(slotKey)) await slot.done;
  }

  async busy<T>(job: JobDefinition<T>, data: T): Promise<boolean> {
    const spec = specOf(this.specs, job);
    return this.slots.has(`${spec.name}:${spec.key(spec.data.parse(data))}`);
  }

  async idle(): Promise<void> {
    while (this.slots.size > 0) await Promise.all([...this.slots.values()].map((slot) => slot.done));
  }

  async start({ work }: { work: boolean }): Promise<void> {
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    if (!work || this.schedules.length > 0) return;
    for (const spec of this.specs) {
      const schedule = spec.schedule;
      if (schedule) this.schedules.push(this.keepSchedule(spec, schedule));
    }
  }

  async stop({ timeoutMs = 25_000 }: { timeoutMs?: number } = {}): Promise<void> {
    this.stopping.abort();
    const running = Promise.all([...this.slots.values()].map((slot) => slot.done));
    await Promise.race([Promise.all([running, ...this.schedules]), this.clock.sleep(timeoutMs)]);
    this.schedules = [];
  }

  /** Runs the job, then the one that waited behind it, until none waits (or the process stops). */
  private async drive<T>(spec: JobSpec<T>, data: T, slot: Slot): Promise<void> {
    let next: T | null = data;
    while (next !== null) {
      await this.attempts(spec, next);
      const waiting: { data: unknown } | null = this.stopping.signal.aborted ? null : slot.waiting;
      slot.waiting = null;
      next = waiting ? (waiting.data as T) : null;
    }
  }

  private async attempts<T>(spec: JobSpec<T>, data: T): Promise<void> {
    const signal = this.stopping.signal;
    const services = this.services === noJobServices ? noJobServices : servicesOfJob(this.services, spec.name);
    for (let attempt = 1; ; attempt++) {
      try {
        await spec.run(data, { attempt, signal, services });
        return;
      } catch (error) {
        const last = attempt > spec.retry.limit || signal.aborted;
        this.log(`job ${spec.name} (${spec.key(data)}) attempt ${attempt} failed${last ? "; giving up" : ", will retry"}:`, error, spec.name);
        if (last) return;
        await this.clock.sleep(retryDelayMs(spec, attempt), signal);
        if (signal.aborted) return;
      }
    }
  }

  /** Sends the job each time its cron expression comes due, until the queue stops. */
  private async keepSchedule<T>(spec: JobSpec<T>, schedule: { cron: string; data: T }): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const now = this.clock.now();
      const due = CronExpressionParser.parse(schedule.cron, { currentDate: now, tz: "UTC" }).next().toDate();
      await this.clock.sleep(due.getTime() - now.getTime(), signal);
      if (signal.aborted) return;
      await this.send(spec, schedule.data);
    }
  }
}
