import { orderSignalsSpec } from "./signals/signals.server";
import { batchWorkSpec } from "./booking/batch-work.server";
import { writeBackJob } from "./fulfillment/write-back.server";
import { InProcessQueue } from "./jobs/in-process";
import type { JobQueue, JobServices, JobSpec } from "./jobs/job";
import { PgBossQueue } from "./jobs/pg-boss.server";
import { mirrorSyncJob } from "./orders/mirror-sync.server";
import { quoteRunJob } from "./quoting/quote-run.server";
import { recordedWorkSweepJob } from "./recorded-work.server";
import { returnAttachJob } from "./returns/return-attach.server";
import { boxReturnLabelsSpec } from "./returns/box-return.server";
import { returnLabelsJob } from "./returns/return-label.server";
import { returnsReconcileJob } from "./returns/returns.server";
import { trackingScheduleJob, trackingSyncJob } from "./tracking/run.server";
import { webhookDeliveryJob, webhookPruneJob } from "./webhooks/webhooks.server";
import { isPostgresUrl } from "../lib/database-provider";

/**
 * The job catalog and the queues made of it (docs/decisions/011, 026), part of the composition root: only
 * this module imports every job's code; domain modules send jobs through their context (`ctx.jobs`).
 */

/** Every kind of background work the app does, as named jobs. */
export function allJobs(): readonly JobSpec<never>[] {
  return [
    quoteRunJob,
    batchWorkSpec,
    writeBackJob,
    recordedWorkSweepJob,
    mirrorSyncJob,
    trackingSyncJob,
    trackingScheduleJob,
    webhookDeliveryJob,
    webhookPruneJob,
    orderSignalsSpec,
    returnsReconcileJob,
    returnLabelsJob,
    returnAttachJob,
    boxReturnLabelsSpec,
  ] as unknown as readonly JobSpec<never>[];
}

/**
 * A job queue of every job of the catalog: pg-boss when `databaseUrl` is PostgreSQL, shared by every
 * instance; the in-process runner on SQLite. Its jobs run with `services`. The process's queue is made by
 * app/context.server.ts; what a process does with it is its role (app/jobs/role.ts).
 */
export function createJobQueue(databaseUrl: string, services: JobServices): JobQueue {
  return isPostgresUrl(databaseUrl) ? new PgBossQueue(databaseUrl, allJobs(), {}, services) : new InProcessQueue(allJobs(), {}, services);
}

const globalState = globalThis as typeof globalThis & { consignJobs?: JobQueue };

/**
 * The process's queue: made by `make` on first use (app/context.server.ts), then kept, across the dev
 * server's module reloads too.
 */
export function processJobQueue(make: () => JobQueue): JobQueue {
  globalState.consignJobs ??= make();
  return globalState.consignJobs;
}

/**
 * Stops the process's queue if one was made (a test harness stopping its local admin: no job of the test file
 * runs on against parts that are gone). Its jobs' records stay; a later start sends them again.
 */
export async function stopProcessJobQueue(options: { timeoutMs?: number } = {}): Promise<void> {
  await globalState.consignJobs?.stop(options);
}

/**
 * On SIGTERM or SIGINT: the queue stops taking jobs and waits for running ones (pg-boss hands back what is
 * still running at the timeout: another instance retries it); then `close` runs and the process ends.
 */
export function stopJobsOnSignals(queue: JobQueue, log: JobServices["log"], close: () => Promise<void> = async () => {}): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, "stopping jobs");
      void queue
        .stop()
        .then(close)
        .catch((error: unknown) => log.error({ err: error }, "stopping jobs failed"))
        .finally(() => process.exit(0));
    });
  }
}
