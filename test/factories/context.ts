import type { PrismaClient } from "@prisma/client";
import { makeContext, type Context, type JobSender } from "../../app/context";
import { shippingClientFor } from "../../app/shipping/client.server";
import { withShipping, type ShippingContext } from "../../app/shipping/context.server";
import type { ShopAdmin } from "../../app/shopify/gateway.server";
import { testLog } from "../support/log";

/**
 * The process's job queue (app/context.server.ts), loaded when a job is first sent: the queue of a test that
 * set the app's environment and passed none of its own. A test that runs its own queue
 * (test/support/job-queue.ts) passes it instead.
 */
export const processJobSender: JobSender = {
  send: async (job, data) => (await import("../../app/context.server")).processJobs().send(job, data),
  drained: async (job, data) => (await import("../../app/context.server")).processJobs().drained(job, data),
  busy: async (job, data) => (await import("../../app/context.server")).processJobs().busy(job, data),
};

/**
 * The Context a test's work runs in: its database, the shop of `admin`, that admin as the Shopify gateway, its
 * clock, and the job queue it sends on (the process's unless the test passes its own).
 */
export function contextOf(admin: ShopAdmin, db: PrismaClient, now: Date | (() => Date) = () => new Date(), jobs: JobSender = processJobSender): Context {
  return makeContext({ db, shop: admin.shop, now, shipping: () => shippingClientFor(db, admin.shop), shopify: async () => admin, jobs, log: testLog });
}

/**
 * A context over `db` for `shop`, its clock stopped at `now` (or running, given a clock), with the Shipping
 * API gateway open. `shopify` is the Shopify gateway where the test has one; without it, work that needs
 * Shopify is refused, saying so. Jobs go to `jobs` (the process's queue unless given).
 */
export function shippingContext(
  db: PrismaClient,
  shop: string,
  now: Date | (() => Date) = new Date(),
  shopify: () => Promise<ShopAdmin> = () => Promise.reject(new Error(`No Shopify gateway was given to this context of ${shop}.`)),
  jobs: JobSender = processJobSender,
): Promise<ShippingContext> {
  return withShipping(makeContext({ db, shop, now, shipping: () => shippingClientFor(db, shop), shopify, jobs, log: testLog }));
}
