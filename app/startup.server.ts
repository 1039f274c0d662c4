import { resumeBookings } from "./batches/resume.server";
import prisma from "./db.server";
import { resumeWriteBack } from "./fulfillment/write-back.server";
import { startTrackingScheduler } from "./tracking/scheduler.server";

/**
 * What the app picks up when its process starts: work that was queued or interrupted (a deploy, a crash)
 * while no process was running it, and the tracking scheduler (tracking's own state is its due times). Each piece of work keeps its own state in the database, so starting it
 * again is safe. Imported for its effect by app/entry.server.tsx, so it runs once when the server build loads.
 */

const globalState = globalThis as typeof globalThis & { consignStartup?: Promise<void> };

/** Starts the startup work once per process (the dev server may evaluate this module again); resolves when it ends. */
export function runStartupTasks(): Promise<void> {
  // Bookings first: settling one can queue shipments for the write-back.
  globalState.consignStartup ??= resumeBookings(prisma)
    .catch((error: unknown) => {
      console.error("[consign] settling unconfirmed bookings at startup failed:", error);
    })
    .then(() => resumeWriteBack())
    .catch((error: unknown) => {
      console.error("[consign] resuming fulfillment write-back at startup failed:", error);
    });
  return globalState.consignStartup;
}

void runStartupTasks();
startTrackingScheduler();
