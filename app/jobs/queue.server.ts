import { z } from "zod";
import { allJobs } from "./catalog.server";
import { InProcessQueue } from "./in-process";
import type { JobQueue } from "./job";
import { PgBossQueue } from "./pg-boss.server";

/**
 * The process's job queue (docs/decisions/011): pg-boss when DATABASE_URL is PostgreSQL, shared by every
 * instance; the in-process runner on SQLite. CONSIGN_ROLE says what this process does with it:
 * `all` (the default: serves the app and runs jobs), `web` (serves and sends jobs only), `worker` (runs jobs
 * only: `npm run worker`). On SQLite there is one process, which always runs its own jobs.
 */

export const Role = z.enum(["all", "web", "worker"], { error: "CONSIGN_ROLE must be all, web or worker" });
export type Role = z.infer<typeof Role>;

const globalState = globalThis as typeof globalThis & { consignJobs?: JobQueue };

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The job queue for `databaseUrl` (the process's DATABASE_URL by default). */
export function createJobQueue(databaseUrl: string): JobQueue {
  return isPostgresUrl(databaseUrl) ? new PgBossQueue(databaseUrl, allJobs()) : new InProcessQueue(allJobs());
}

export function jobs(): JobQueue {
  globalState.consignJobs ??= createJobQueue(process.env.DATABASE_URL ?? "");
  return globalState.consignJobs;
}

/** CONSIGN_ROLE; web and worker processes need the shared queue of PostgreSQL. */
export function processRole(env: Record<string, string | undefined> = process.env): Role {
  const role = Role.parse(env.CONSIGN_ROLE?.trim() || "all");
  if (role !== "all" && !isPostgresUrl(env.DATABASE_URL ?? "")) {
    throw new Error(`CONSIGN_ROLE=${role} needs DATABASE_URL on PostgreSQL: on SQLite one process serves the app and runs its jobs (CONSIGN_ROLE=all)`);
  }
  return role;
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
