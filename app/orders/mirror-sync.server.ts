import { z } from "zod";
import type { Context } from "../context";
import { defineJob, type JobServices } from "../jobs/job";
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
  /**
   * Without a sync id: the shop's first sync (installation, at `requestedAt`), started by the job unless one is
   * running or one started since it was asked for (a retry of a job whose sync another instance finished).
   */
  data: z.object({ shop: z.string().min(1), syncId: z.string().min(1).optional(), requestedAt: z.iso.datetime().optional() }),
  key: ({ shop }) => shop,
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 60 * 60,
  run: async ({ shop, syncId, requestedAt }, { signal, services }) => {
    const ctx = services.context(shop);
    const since = requestedAt ? [{ status: "COMPLETED", startedAt: { gte: new Date(requestedAt) } }] : [];
    const current = syncId
      ? null
      : await ctx.db.mirrorSync.findFirst({ where: { shop, OR: [{ status: "RUNNING" }, ...since] }, orderBy: { startedAt: "desc" } });
    const followed = syncId ?? current?.id ?? (await startMirrorSync(ctx)).syncId;
    for (;;) {
      const progress = await advanceMirrorSync(ctx, followed, { signal });
      if (progress.status !== "RUNNING") return;
      if (signal.aborted) throw new Error("stopped before the order sync finished; it goes on from where it stopped on its next run");
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  },
});

/** Installation (afterAuth): queues the shop's first order sync; the job starts it. */
export function queueFirstMirrorSync(ctx: Pick<Context, "shop" | "now" | "jobs">): Promise<void> {
  return ctx.jobs.send(mirrorSyncJob, { shop: ctx.shop, requestedAt: ctx.now().toISOString() });
}

/** Starts a sync of the shop's orders (one bulk operation) and queues the job that completes it ("Sync orders"). */
export async function requestMirrorSync(ctx: Pick<Context, "db" | "shop" | "now" | "shopify" | "jobs">): Promise<{ syncId: string }> {
  const started = await startMirrorSync(ctx);
  await ctx.jobs.send(mirrorSyncJob, { shop: ctx.shop, syncId: started.syncId });
  return started;
}

/**
 * The shop's mirror sync as the Orders to ship page shows it; only reads. Before the first sync's row
 * exists it is QUEUED while installation's job waits or starts it, NONE when no sync was ever asked for.
 * `saved` is the share of Shopify's export saved so far (0 to 1), once the export is complete and saving.
 */
export async function currentMirrorSync({ db, shop, jobs }: Pick<Context, "db" | "shop" | "jobs">): Promise<{
  status: "NONE" | "QUEUED" | "RUNNING" | "COMPLETED" | "FAILED";
  error: string | null;
  saved: number | null;
}> {
  const latest = await db.mirrorSync.findFirst({ where: { shop }, orderBy: { startedAt: "desc" } });
  if (!latest) return { status: (await jobs.busy(mirrorSyncJob, { shop })) ? "QUEUED" : "NONE", error: null, saved: null };
  const saved = latest.exportLines ? Math.min(1, latest.linesSaved / latest.exportLines) : null;
  return { status: latest.status as "RUNNING" | "COMPLETED" | "FAILED", error: latest.error, saved };
}

/** At process start: queues the job of every sync a restart left running (the database from the process's services). */
export async function resumeMirrorSyncs(services: Pick<JobServices, "db" | "jobs">): Promise<number> {
  const running = await services.db.mirrorSync.findMany({ where: { status: "RUNNING" }, select: { id: true, shop: true } });
  for (const sync of running) await services.jobs.send(mirrorSyncJob, { shop: sync.shop, syncId: sync.id });
  return running.length;
}
