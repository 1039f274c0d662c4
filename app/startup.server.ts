import { config } from "./config.server";
import { processJobs, processServices } from "./context.server";
import prisma from "./db/db.server";
import { writeBackSettled } from "./fulfillment/write-back.server";
import { stopJobsOnSignals } from "./job-queue.server";
import { processRole } from "./jobs/role";
import { resumeRecordedWork } from "./recorded-work.server";

/**
 * What a process does when it starts (docs/decisions/011): it starts the job queue, working it unless
 * CONSIGN_ROLE is `web`, and stops it gracefully on SIGTERM/SIGINT. A working process also sends again the
 * jobs the database's intent records call for (a deploy or a crash while nobody ran them): unconfirmed
 * bookings, quote runs and mirror syncs left running, outstanding write-backs (app/recorded-work.server.ts,
 * which the recorded-work sweep also runs every minute). On PostgreSQL the queue
 * holds its jobs anyway and one job per key runs at a time, so sending them again is harmless. Imported for
 * its effect by app/entry.server.tsx, so it runs once when the server build loads; `npm run worker` runs it
 * without the web server.
 */

const globalState = globalThis as typeof globalThis & { consignStartup?: Promise<void>; consignQueueStarted?: Promise<void> };

/** The recorded work (app/recorded-work.server.ts), all of it at once; resolves when the write-back it queued has run. */
async function resumeAtStart(): Promise<void> {
  try {
    const { writeBackShops } = await resumeRecordedWork(processServices, { graceMs: 0 });
    await Promise.all(writeBackShops.map((shop) => writeBackSettled(processServices.context(shop))));
  } catch (error) {
    processServices.log.error({ err: error }, "settling recorded work at startup failed");
  }
}

/** Starts the queue and the recorded work once per process (the dev server may evaluate this module again); resolves when that work has run. */
export function runStartupTasks(): Promise<void> {
  // A role this database cannot have (web or worker on SQLite) stops the process here, saying why.
  const { CONSIGN_ROLE, DATABASE_URL } = config();
  const work = processRole({ CONSIGN_ROLE, DATABASE_URL }) !== "web";
  globalState.consignQueueStarted ??= processJobs()
    .start({ work })
    .then(() => stopJobsOnSignals(processJobs(), processServices.log, () => prisma.$disconnect()));
  globalState.consignStartup ??= (async () => {
    await globalState.consignQueueStarted;
    if (work) await resumeAtStart();
  })().catch((error: unknown) => {
    processServices.log.error({ err: error }, "starting the job queue failed");
  });
  return globalState.consignStartup;
}

/** Resolves once the queue has started (and, in a working process, takes jobs); the recorded work may still be running. */
export function queueStarted(): Promise<void> {
  runStartupTasks();
  return globalState.consignQueueStarted!;
}

void runStartupTasks();
