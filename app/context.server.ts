import prisma from "./db/db.server";
import { config } from "./config.server";
import { makeContext, type Context, type JobSender, type Logger } from "./context";
import type { JobQueue, JobServices } from "./jobs/job";
import { createJobQueue, processJobQueue } from "./job-queue.server";
import { processLog } from "./log.server";
import { queueFirstMirrorSync } from "./orders/mirror-sync.server";
import type { ShopAdmin } from "./shopify/gateway.server";
import type { PacerLane } from "./shopify/pacer";
import { shippingClientFor } from "./shipping/client.server";
import { unauthenticated, whenInstalled } from "./shopify.server";

/**
 * The composition root's one way to build a Context (app/context.ts): the process's database unless another
 * is given, a clock stopped when the unit of work starts unless another is given, the shop's Shipping API
 * client from its sealed account and its Shopify admin (the request's, or else the offline session's), each
 * opened on first use, the process's job queue and logger. A request's admin takes the pacer's `interactive`
 * lane (a merchant waits for it); the offline session's takes `lane`, `work` unless said (background work;
 * app/shopify/pacer.ts). Routes (through requestContext), job handlers and start-up call this; domain code never does.
 */
export function contextFor(
  shop: string,
  options: { db?: Context["db"]; now?: Date | (() => Date); shopify?: ShopAdmin; lane?: PacerLane; jobs?: JobSender; log?: Logger } = {},
): Context {
  const db = options.db ?? prisma;
  return makeContext({
    db,
    shop,
    now: options.now,
    shipping: () => shippingClientFor(db, shop),
    shopify: async () => {
      if (options.shopify) return { lane: "interactive", ...options.shopify };
      const { admin, session } = await unauthenticated.admin(shop);
      return { admin, shop: session.shop, lane: options.lane ?? "work" };
    },
    jobs: options.jobs ?? processJobSender,
    log: options.log ?? processLog(),
  });
}

/** The process's clock: it runs. */
const processClock = (): Date => new Date();

/**
 * The process's job queue (app/job-queue.server.ts: pg-boss on PostgreSQL, in-process on SQLite), made on
 * first use and kept across the dev server's module reloads.
 */
export function processJobs(): JobQueue {
  return processJobQueue(() => createJobQueue(config().DATABASE_URL, processServices));
}

/** Sends on the process's queue, made when first sent to: building a context makes no queue. */
const processJobSender: JobSender = {
  send: (job, data) => processJobs().send(job, data),
  drained: (job, data) => processJobs().drained(job, data),
  busy: (job, data) => processJobs().busy(job, data),
};

/** What every job handler of the process (and start-up) is given: the process's database, clock, queue and logger, and a shop's Context with that clock running. */
export const processServices: JobServices = {
  db: prisma,
  now: processClock,
  context: (shop, options) => contextFor(shop, { now: processClock, lane: options?.lane }),
  jobs: processJobSender,
  get log() {
    return processLog();
  },
};

// Installation (a new offline session from token exchange) queues the shop's first order sync: the job starts it.
whenInstalled((shop) => queueFirstMirrorSync(contextFor(shop, { now: processClock })));
