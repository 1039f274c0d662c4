import { z } from "zod";
import prisma from "../db.server";
import { defineJob } from "../jobs/job";
import { jobs } from "../jobs/queue.server";
import type { ShopAdmin } from "../shopify/gateway.server";
import { unauthenticated } from "../shopify.server";
import { advanceMirrorSync, startMirrorSync } from "./mirror.server";

/**
 * The order-mirror sync as a job, once at a time per shop across every instance. Installation queues the
 * shop's first sync (the job starts Shopify's bulk operation itself); "Sync orders" starts one and queues
 * the job that follows it to the end and saves its orders. The sync's row holds its state, so a job stopped
 * midway is sent again. Pages only read.
 */

/** How often a running bulk operation is asked how far it got. */
const POLL_MS = 1_000;

export const mirrorSyncJob = defineJob({
  name: "order-mirror-sync",
  /** Without a sync id: the shop's first sync (installation), started by the job unless one is running. */
  data: z.object({ shop: z.string().min(1), syncId: z.string().min(1).optional() }),
  key: ({ shop }) => shop,
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 60 * 60,
  run: async ({ shop, syncId }, { signal }) => {
    const { admin, session } = await unauthenticated.admin(shop);
    const context = { admin, shop: session.shop };
    const running = syncId ? null : await prisma.mirrorSync.findFirst({ where: { shop: session.shop, status: "RUNNING" }, orderBy: { startedAt: "desc" } });
    const followed = syncId ?? running?.id ?? (await startMirrorSync(context, prisma)).syncId;
    for (;;) {
      const progress = await advanceMirrorSync(context, prisma, followed);
      if (progress.status !== "RUNNING") return;
      if (signal.aborted) throw new Error("stopped before Shopify's order export finished; the sync resumes on its next run");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  },
});

/** Installation (afterAuth): queues the shop's first order sync; the job starts it. */
export function queueFirstMirrorSync(shop: string): Promise<void> {
  return jobs().send(mirrorSyncJob, { shop });
}

/** Starts a sync of the shop's orders (one bulk operation) and queues the job that completes it ("Sync orders"). */
export async function requestMirrorSync(context: ShopAdmin, now = new Date()): Promise<{ syncId: string }> {
  const started = await startMirrorSync(context, prisma, now);
  await jobs().send(mirrorSyncJob, { shop: context.shop, syncId: started.syncId });
  return started;
}

/**
 * The shop's mirror sync as the Orders to ship page shows it; only reads. Before the first sync's row
 * exists it is QUEUED while installation's job waits or starts it, NONE when no sync was ever asked for.
 */
export async function currentMirrorSync(shop: string): Promise<{ status: "NONE" | "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED"; error: string | null }> {
  const latest = await prisma.mirrorSync.findFirst({ where: { shop }, orderBy: { startedAt: "desc" } });
  if (!latest) return { status: (await jobs().busy(mirrorSyncJob, { shop })) ? "QUEUED" : "NONE", error: null };
  return { status: latest.status as "RUNNING" | "COMPLETED" | "FAILED", error: latest.error };
}

/** At process start: queues the job of every sync a restart left running. */
export async function resumeMirrorSyncs(): Promise<number> {
  const running = await prisma.mirrorSync.findMany({ where: { status: "RUNNING" }, select: { id: true, shop: true } });
  for (const sync of running) await jobs().send(mirrorSyncJob, { shop: sync.shop, syncId: sync.id });
  return running.length;
}
