import prisma from "../db.server";
import { startTrackingPass } from "./run.server";
import { shopsWithDueTracking } from "./sync.server";

/**
 * The one trigger of tracking sync in this process: every minute, each shop with shipments due gets a
 * pass in the background (one at a time per shop). The work and its schedule live in the database
 * (nextTrackAt), so a restart loses nothing and a job runner can replace this file without other changes.
 */

const TICK_MS = 60_000;
const globalState = globalThis as typeof globalThis & { consignTrackingTimer?: NodeJS.Timeout };

async function tick(): Promise<void> {
  for (const shop of await shopsWithDueTracking(prisma, new Date())) void startTrackingPass(shop);
}

/** Starts the minute tick once per process; the timer does not keep the process alive. */
export function startTrackingScheduler(): void {
  if (globalState.consignTrackingTimer) return;
  globalState.consignTrackingTimer = setInterval(() => {
    tick().catch((error: unknown) => console.error("[consign] tracking scheduler tick failed:", error));
  }, TICK_MS);
  globalState.consignTrackingTimer.unref();
}
