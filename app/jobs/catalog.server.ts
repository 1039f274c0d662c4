import { batchWorkJob } from "../booking/batch-work.server";
import { writeBackJob } from "../fulfillment/write-back.server";
import { mirrorSyncJob } from "../orders/mirror-sync.server";
import { quoteRunJob } from "../quoting/quote-run.server";
import { recordedWorkSweepJob } from "../recorded-work.server";
import { trackingScheduleJob, trackingSyncJob } from "../tracking/run.server";
import { webhookDeliveryJob, webhookPruneJob } from "../webhooks.server";
import type { JobSpec } from "./job";

/** Every kind of background work the app does, as named jobs (docs/decisions/011). */
export function allJobs(): readonly JobSpec<never>[] {
  return [
    quoteRunJob,
    batchWorkJob,
    writeBackJob,
    recordedWorkSweepJob,
    mirrorSyncJob,
    trackingSyncJob,
    trackingScheduleJob,
    webhookDeliveryJob,
    webhookPruneJob,
  ] as unknown as readonly JobSpec<never>[];
}
