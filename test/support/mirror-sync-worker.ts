/**
 * The order mirror's sync in a process of its own, for the crash test (test/integration/crash-mirror-sync
 * .test.ts): the parent gives it the app's environment (database, local admin, CONSIGN_CRASH_AT).
 *
 *   first <shop>   installation's first sync: its job sent and worked to its end
 *   resume         what the app does at startup: the job of every sync left running, worked to its end
 */
import prisma from "../../app/db/db.server";
import { processJobs as jobs, processServices } from "../../app/context.server";
import { mirrorSyncJob, queueFirstMirrorSync, resumeMirrorSyncs } from "../../app/orders/mirror-sync.server";

const [command, shop] = process.argv.slice(2);

await jobs().start({ work: true });
if (command === "first" && shop) {
  await queueFirstMirrorSync(processServices.context(shop));
  await jobs().drained(mirrorSyncJob, { shop });
} else if (command === "resume") {
  const running = await prisma.mirrorSync.findMany({ where: { status: "RUNNING" } });
  await resumeMirrorSyncs(processServices);
  for (const sync of running) await jobs().drained(mirrorSyncJob, { shop: sync.shop, syncId: sync.id });
} else {
  throw new Error("usage: mirror-sync-worker first <shop> | resume");
}
await jobs().stop();
await prisma.$disconnect();
process.exit(0);
