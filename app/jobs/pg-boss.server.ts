import type { PgBoss } from "pg-boss";
import type { JobDefinition } from "../context";
import { noJobServices, servicesOfJob, specOf, type JobQueue, type JobServices, type JobSpec } from "./job";

/**
 * The job queue of the production profile: pg-boss on the app's PostgreSQL database (its own schema,
 * `pgboss`), shared by every instance (docs/decisions/011). Each job's queue has the `stately` policy with
 * the job's key as singleton key: per key one job active and one waiting, across all instances. Workers
 * send a heartbeat every few seconds; when an instance dies, its jobs miss theirs and are retried by
 * another instance after the job's backoff. Schedules are kept in the database and sent once, by whichever
 * instance's cron worker comes first. pg-boss itself is loaded when the queue is first used, so a process on
 * SQLite never loads it.
 */

/** Heartbeats: a dead instance's job is failed (and retried) once its beat is this late (pg-boss's minimum)… */
const HEARTBEAT_SECONDS = 10;
/**
 * …as found by the supervisor's monitoring pass, which the instances run (one at a time) this often: a dead
 * instance's job is taken again about 12 s after its last beat. pg-boss's default (60 s) suits large fleets.
 */
const SUPERVISE_SECONDS = 2;
/**
 * Clearing out finished jobs (pg-boss's retention walk, a transaction per queue) needs no hurry: once a minute. Run
 * at every supervise pass, it was some 45 statements every 2 s on the instance that took it, in the middle of
 * whatever that instance was doing (a 500-order quote run's own statements are about 40).
 */
const RETENTION_SECONDS = 60;
/** Jobs of each kind one instance runs at once (different keys: shops, batches, runs). */
const LOCAL_CONCURRENCY = 4;
const POLLING_SECONDS = 0.5;
/**
 * A job sent wakes the workers of its queue at once, on every instance (PostgreSQL's LISTEN/NOTIFY, pg-boss's
 * `notify` queues), instead of waiting out a poll: a quote run's job started a quarter of a second late on average.
 * Polling stays as the backstop, this often while notifications arrive and every POLLING_SECONDS when they cannot.
 */
const NOTIFIED_POLLING_SECONDS = 5;
/**
 * `drained` looks whether a job is still waiting or running this often, and, once a job of this instance has ended
 * (pg-boss records its end just after its handler returns), every QUICK_LOOK_MS for QUICK_LOOKS looks: a quote run
 * of 500 orders was seen finished 80 ms after its last commit, the bench's and a Flow action's wait.
 */
const SETTLED_POLL_MS = 100;
const QUICK_LOOK_MS = 5;
const QUICK_LOOKS = 10;
const SCHEMA = "pgboss";

export class PgBossQueue implements JobQueue {
  private started: Promise<PgBoss> | null = null;
  /** `drained` callers waiting for their next look, woken when a job of this instance ends. */
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly connectionString: string,
    private readonly specs: readonly JobSpec<never>[],
    private readonly options: { sleep?: (ms: number) => Promise<void> } = {},
    private readonly services: JobServices = noJobServices,
  ) {}

  async send<T>(job: JobDefinition<T>, data: T): Promise<void> {
    const spec = specOf(this.specs, job);
    const boss = await this.ready();
    const parsed = spec.data.parse(data);
    // Under the stately policy a second waiting job of the same key is refused (null): the waiting one will look.
    await boss.send(spec.name, parsed as object, { singletonKey: spec.key(parsed) });
  }

  async drained<T>(job: JobDefinition<T>, data: T): Promise<void> {
    let quick = 0;
    while (await this.busy(job, data)) {
      const woken = await this.nextLook(quick > 0 ? QUICK_LOOK_MS : SETTLED_POLL_MS);
      quick = woken ? QUICK_LOOKS : Math.max(0, quick - 1);
    }
  }

  /**
   * Waits `ms`, or less when a job of this instance ends first (true then): another instance's job ends without
   * telling this one, so the wait is bounded. With a sleep given (tests), waits that instead.
   */
  private nextLook(ms: number): Promise<boolean> {
    if (this.options.sleep) return this.options.sleep(ms).then(() => false);
    return new Promise((resolve) => {
      const look = (woken: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve(woken);
      };
      const wake = () => look(true);
      const timer = setTimeout(() => look(false), ms);
      this.waiting.add(wake);
    });
  }

  /** A job of this instance ended: whoever waits for one looks again now, and then often while pg-boss records its end. */
  private jobEnded(): void {
    for (const wake of [...this.waiting]) wake();
  }

  async busy<T>(job: JobDefinition<T>, data: T): Promise<boolean> {
    const spec = specOf(this.specs, job);
    const boss = await this.ready();
    const rows = await boss
      .getDb()
      .executeSql(`SELECT 1 FROM ${SCHEMA}.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry', 'active') LIMIT 1`, [
        spec.name,
        spec.key(spec.data.parse(data)),
      ]);
    return rows.rows.length > 0;
  }

  async idle(): Promise<void> {
    while ((await this.pending()) > 0) await this.sleep(SETTLED_POLL_MS * 5);
  }

  /** Jobs of every kind waiting or running (the multi-instance test checks none is left). */
  async pending(): Promise<number> {
    const boss = await this.ready();
    const rows = await boss.getDb().executeSql(`SELECT count(*)::int AS n FROM ${SCHEMA}.job WHERE state IN ('created', 'retry', 'active')`);
    return (rows.rows[0] as { n: number }).n;
  }

  async start({ work }: { work: boolean }): Promise<void> {
    const boss = await this.ready();
    if (!work) return;
    for (const spec of this.specs) {
      await boss.work<unknown>(
        spec.name,
        {
          localConcurrency: LOCAL_CONCURRENCY,
          batchSize: 1,
          pollingIntervalSeconds: POLLING_SECONDS,
          notifyPollingIntervalSeconds: NOTIFIED_POLLING_SECONDS,
        },
        async ([job]) => {
          if (!job) return;
          try {
            await spec.run(spec.data.parse(job.data), {
              attempt: job.retryCount + 1,
              signal: job.signal,
              services: this.services === noJobServices ? noJobServices : servicesOfJob(this.services, spec.name),
            });
          } finally {
            this.jobEnded();
          }
        },
      );
      if (spec.schedule)
        await boss.schedule(spec.name, spec.schedule.cron, spec.schedule.data as object, { tz: "UTC", singletonKey: spec.key(spec.schedule.data) });
    }
  }

  async stop({ timeoutMs = 25_000 }: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.started) return;
    // Graceful: no new jobs are fetched and running ones finish; any still running at the timeout stay
    // active, miss their heartbeat and are retried by another instance.
    // A queue that never started (its database refused it) has nothing to stop.
    const boss = await this.started.catch(() => null);
    await boss?.stop({ graceful: true, timeout: timeoutMs, close: true });
    this.started = null;
  }

  /** pg-boss, loaded, started and with every job's queue created, on first use. */
  private ready(): Promise<PgBoss> {
    this.started ??= (async () => {
      const { PgBoss } = await import("pg-boss");
      const boss = new PgBoss({
        connectionString: this.connectionString,
        schema: SCHEMA,
        max: 4,
        application_name: "consign-jobs",
        superviseIntervalSeconds: SUPERVISE_SECONDS,
        monitorIntervalSeconds: SUPERVISE_SECONDS,
        maintenanceIntervalSeconds: RETENTION_SECONDS,
        useListenNotify: true,
      });
      boss.on("error", (error: unknown) => this.services.log.error({ err: error }, "job queue error"));
      await boss.start();
      for (const spec of this.specs) {
        await boss.createQueue(spec.name, {
          policy: "stately",
          retryLimit: spec.retry.limit,
          retryDelay: spec.retry.delaySeconds,
          retryBackoff: spec.retry.backoff,
          expireInSeconds: spec.expireInSeconds,
          heartbeatSeconds: HEARTBEAT_SECONDS,
          notify: true,
        });
        // A queue made before notifications were used keeps its options: it is told to notify too.
        await boss.updateQueue(spec.name, { notify: true });
      }
      return boss;
    })();
    return this.started;
  }

  private sleep(ms: number): Promise<void> {
    return this.options.sleep ? this.options.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
  }
}
