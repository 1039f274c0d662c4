import { z } from "zod";
import prisma from "../db.server";
import { defineJob } from "../jobs/job";
import { jobs } from "../jobs/queue.server";
import type { ShopAdmin } from "../shopify/gateway.server";
import { unauthenticated } from "../shopify.server";
import { advanceMirrorSync, startMirrorSync } from "./mirror.server";

/**
 * The order-mirror sync as a job: the shop's bulk operation is started by the request that asks for it
 * (the first visit, Sync orders), and the job follows it to the end and saves its orders, once at a time per
 * shop across every instance. The sync's row holds its state, so a job stopped midway is sent again.
 */

/** How often a running bulk operation is asked how far it got. */
const POLL_MS = 1_000;

export const mirrorSyncJob = defineJob({
  name: "order-mirror-sync",
  data: z.object({ shop: z.string().min(1), syncId: z.string().min(1) }),
  key: ({ shop }) => shop,
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 60 * 60,
  run: async ({ shop, syncId }, { signal }) => {
    const { admin, session } = await unauthenticated.admin(shop);
    const context = { admin, shop: session.shop };
    for (;;) {
      const progress = await advanceMirrorSync(context, prisma, syncId);
      if (progress.status !== "RUNNING") return;
      if (signal.aborted) throw new Error("stopped before Shopify's order export finished; the sync resumes on its next run");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  },
});

/** Starts a sync of the shop's orders (one bulk operation) and queues the job that completes it. */
export async function requestMirrorSync(context: ShopAdmin, now = new Date()): Promise<{ syncId: string }> {
  const started = await startMirrorSync(context, prisma, now);
  await jobs().send(mirrorSyncJob, { shop: context.shop, syncId: started.syncId });
  return started;
}

/**
 * The shop's mirror sync as the Orders to ship page shows it. A shop never synced gets its first sync
 * (the page polls while it runs); otherwise this only reads.
 */
export async function currentMirrorSync(context: ShopAdmin, now = new Date()): Promise<{ status: string; error: string | null }> {
  const latest = await prisma.mirrorSync.findFirst({ where: { shop: context.shop }, orderBy: { startedAt: "desc" } });
  if (!latest) {
    await requestMirrorSync(context, now);
    return { status: "RUNNING", error: null };
  }
  return { status: latest.status, error: latest.error };
}

/** At process start: queues the job of every sync a restart left running. */
export async function resumeMirrorSyncs(): Promise<number> {
  const running = await prisma.mirrorSync.findMany({ where: { status: "RUNNING" }, select: { id: true, shop: true } });
  for (const sync of running) await jobs().send(mirrorSyncJob, { shop: sync.shop, syncId: sync.id });
  return running.length;
}
