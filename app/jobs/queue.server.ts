import { contextFor } from "../context.server";
import prisma from "../db.server";
import { allJobs } from "./catalog.server";
import { InProcessQueue } from "./in-process";
import type { JobQueue, JobServices } from "./job";
import { PgBossQueue } from "./pg-boss.server";
import { isPostgresUrl } from "../../lib/database-provider";

/**
 * The process's job queue (docs/decisions/011): pg-boss when DATABASE_URL is PostgreSQL, shared by every
 * instance; the in-process runner on SQLite. What the process does with it is its role (./role.ts).
 */

const globalState = globalThis as typeof globalThis & { consignJobs?: JobQueue };

/** The process's clock: it runs. */
const processClock = (): Date => new Date();

/** What every job handler of the process (and start-up) is given: the process's database, its clock, and a shop's Context with that clock running. */
export const processServices: JobServices = {
  db: prisma,
  now: processClock,
  context: (shop, options) => contextFor(shop, { now: processClock, lane: options?.lane }),
};

/** The job queue for `databaseUrl` (the process's DATABASE_URL by default). */
export function createJobQueue(databaseUrl: string): JobQueue {
  return isPostgresUrl(databaseUrl) ? new PgBossQueue(databaseUrl, allJobs(), {}, processServices) : new InProcessQueue(allJobs(), {}, processServices);
}

export function jobs(): JobQueue {
  globalState.consignJobs ??= createJobQueue(process.env.DATABASE_URL ?? "");
  return globalState.consignJobs;
}

/**
 * On SIGTERM or SIGINT: the queue stops taking jobs and waits for running ones (pg-boss hands back what is
 * still running at the timeout: another instance retries it); then `close` runs and the process ends.
 */
export function stopJobsOnSignals(close: () => Promise<void> = async () => {}): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      console.info(`[consign] ${signal}: stopping jobs`);
      void jobs()
        .stop()
        .then(close)
        .catch((error: unknown) => console.error("[consign] stopping jobs failed:", error))
        .finally(() => process.exit(0));
    });
  }
}
