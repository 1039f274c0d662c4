import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { Context, JobDefinition, JobSender, Logger } from "../context";
import type { PacerLane } from "../shopify/pacer";

/**
 * A named job (docs/decisions/011): one kind of background work, its definition (name, data, key: what
 * sending it needs, app/context.ts) with the code it runs, defined next to the work itself. Both
 * queues run the same definitions: pg-boss on PostgreSQL (shared by every instance) and the in-process
 * runner on SQLite. A job's `key` names the unit that runs once at a time (a shop, a batch, a quote run):
 * while one runs under a key, at most one more waits, so asking again while work is under way means
 * "look once more when you are done", never a second runner.
 */
export interface JobSpec<T> extends JobDefinition<T> {
  /** The queue's name (letters, digits and dashes); the job's data, parsed when it is sent and again when it runs (a queue row is input like any other); the unit that runs once at a time. */
  run: (data: T, job: JobRun) => Promise<void>;
  /** Further attempts after a failure, each `delaySeconds` later, doubled per attempt when `backoff`. */
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /**
   * On PostgreSQL, how long an attempt may run before the queue fails it and retries it elsewhere. A dead
   * instance's job is found sooner, by its missed heartbeat.
   */
  expireInSeconds: number;
  /** A schedule (cron, UTC) that sends `schedule.data`; one instance sends it however many run. */
  schedule?: { cron: string; data: T };
}

export interface JobRun {
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted when the process stops: a long job ends its current step and returns; its records say where it was. */
  signal: AbortSignal;
  /** What the handler's work needs, built by the composition root that made the queue. */
  services: JobServices;
}

/**
 * What a queue hands each job handler: the database, the clock, a Context per shop with a running clock
 * (a job run writes the time each step happened), the queue to send jobs on and the logger (its lines name
 * the job). Work across shops (start-up's resumes, scheduled sweeps) reads the time from `now()`. The
 * process's queue gets them from app/context.server.ts; a test's from test/support/job-queue.ts.
 */
export interface JobServices {
  db: PrismaClient;
  /** The time work across shops treats as now (a shop's work reads its context's `now()`). */
  now(): Date;
  /** The shop's Context; its Shopify requests take the pacer's `work` lane unless `lane` says `sync` (app/shopify/pacer.ts). */
  context: (shop: string, options?: { lane?: PacerLane }) => Context;
  /** The queue these services run on, for work across shops that sends jobs (sweeps, start-up's resumes). */
  jobs: JobSender;
  log: Logger;
}

/** The services one run of `job` is handed: every line it logs, and its shops' contexts log, names the job. */
export function servicesOfJob(services: JobServices, job: string): JobServices {
  const log = services.log.child({ job });
  return { ...services, log, context: (shop, options) => ({ ...services.context(shop, options), log: log.child({ shop }) }) };
}

/** For queues whose jobs need no database, clock or shop (the queues' own tests): asking for any says so. */
export const noJobServices: JobServices = {
  get db(): PrismaClient {
    throw new Error("This job queue was made without JobServices: its jobs cannot use the database.");
  },
  now: () => {
    throw new Error("This job queue was made without JobServices: its jobs have no clock (the queue keeps its own).");
  },
  context: () => {
    throw new Error("This job queue was made without JobServices: its jobs cannot build a shop's context.");
  },
  get jobs(): JobSender {
    throw new Error("This job queue was made without JobServices: its jobs cannot send jobs.");
  },
  get log(): Logger {
    throw new Error("This job queue was made without JobServices: its jobs have no logger.");
  },
};

/** Time for the queues: what time it is and how to wait (tests pass one they control). */
export interface Clock {
  now: () => Date;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      timer.unref?.();
      function done() {
        signal?.removeEventListener("abort", done);
        clearTimeout(timer);
        resolve();
      }
      signal?.addEventListener("abort", done, { once: true });
    }),
};

/** The wait before attempt `attempt + 1` after attempt `attempt` failed (both queues count it the same way). */
export function retryDelayMs(spec: Pick<JobSpec<unknown>, "retry">, attempt: number): number {
  const base = spec.retry.delaySeconds * 1000;
  return spec.retry.backoff ? base * 2 ** (attempt - 1) : base;
}

/**
 * A queue of named jobs: it sends the jobs it was made with (by their definition; one it was not made with is
 * refused, UnknownJobError) and, started to work, runs them. Only a composition root makes one.
 */
export interface JobQueue extends JobSender {
  /** Resolves when no job of any kind waits or runs. */
  idle(): Promise<void>;
  /** Starts the queue; with `work`, this process takes jobs and sends the schedules. */
  start(options: { work: boolean }): Promise<void>;
  /** Stops taking jobs and waits for running ones (up to `timeoutMs`); what is left is handed back. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

const NoData = z.object({});

/**
 * A job its schedule sends at the start of every minute, on whichever instance's queue takes it (sweeps and
 * schedules that look at the database and send the jobs it calls for): one at a time, not retried (the next
 * minute's run is the retry).
 */
export function defineMinuteJob(name: string, run: (services: JobServices) => Promise<void>): JobSpec<z.infer<typeof NoData>> {
  return defineJob({
    name,
    data: NoData,
    key: () => "every-minute",
    retry: { limit: 0, delaySeconds: 60, backoff: false },
    expireInSeconds: 5 * 60,
    schedule: { cron: "* * * * *", data: {} },
    run: (_, { services }) => run(services),
  });
}

/**
 * Thrown by a job whose work is left in doubt (an upstream answer lost, cut off or late, and looking for the
 * outcome found nothing yet or failed too): the attempt fails, so the queue tries again after the job's
 * backoff, and each attempt looks before it acts. Work is never "done" while its outcome is unknown.
 */
export class OutcomeInDoubtError extends Error {
  override name = "OutcomeInDoubtError";
}

/** A job sent to a queue that was not made with it. */
export class UnknownJobError extends Error {
  override name = "UnknownJobError";
  constructor(job: string) {
    super(`No job named ${job} is in this queue's catalog (app/job-queue.server.ts)`);
  }
}

/** The spec of `job` among `specs`, by name; throws UnknownJobError when the queue was not made with it. */
export function specOf<T>(specs: readonly JobSpec<never>[], job: JobDefinition<T>): JobSpec<T> {
  const spec = specs.find((entry) => entry.name === job.name);
  if (!spec) throw new UnknownJobError(job.name);
  return spec as unknown as JobSpec<T>;
}

export function defineJob<T>(spec: JobSpec<T>): JobSpec<T> {
  if (!/^[a-z][a-z0-9-]*$/.test(spec.name)) throw new Error(`A job's name is lower-case letters, digits and dashes: ${spec.name}`);
  return spec;
}
