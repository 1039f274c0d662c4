import type { PrismaClient } from "@prisma/client";
import type { Logger } from "pino";
import type { z } from "zod";
import type { ShippingClient } from "../shipping-api/client";
import type { ShopAdmin } from "./shopify/gateway.server";

export type { Logger } from "pino";

/**
 * What sending a named job needs of it (docs/decisions/011, 026): its name, its data's schema and the key it
 * runs once at a time under. A job's definition (app/jobs/job.ts's JobSpec) adds the code it runs; a module
 * that only sends a job imports its definition, not that code.
 */
export interface JobDefinition<T> {
  name: string;
  data: z.ZodType<T>;
  key: (data: T) => string;
}

/**
 * Sending named jobs on the queue of whoever built the context (the process's, or a test's): domain code sends
 * through its context and never reaches for a process queue (docs/decisions/026).
 */
export interface JobSender {
  /** Records the job (durably on PostgreSQL); resolves once recorded, not when it has run. */
  send<T>(job: JobDefinition<T>, data: T): Promise<void>;
  /** Resolves when nothing is waiting or running under the job's key (scripts, tests, callers that need the outcome). */
  drained<T>(job: JobDefinition<T>, data: T): Promise<void>;
  /** Whether a job under the key is waiting or running (pages show "in progress"). */
  busy<T>(job: JobDefinition<T>, data: T): Promise<boolean>;
}

/**
 * What a domain function needs, in one shape (docs/decisions/037): the app database, the shop, the clock, and
 * the two gateways, the job queue it sends jobs on, and its logger. The gateways are opened on first use, so a page that never calls the Shipping API works
 * for a shop without an account, and one that never writes to Shopify opens no admin session. Only the
 * composition root builds a context (app/context.server.ts: routes, job handlers, start-up); tests build one
 * with the same function over their own database and clock.
 */
export interface Context {
  db: PrismaClient;
  shop: string;
  /** The time the work treats as now; one unit of work (a request, a job run) sees one instant. */
  now(): Date;
  /** The Shipping API gateway signed in as the shop's account; rejects with NotConnectedError without one. */
  shipping(): Promise<ShippingClient>;
  /** The Shopify Admin API gateway for the shop (its offline session). */
  shopify(): Promise<ShopAdmin>;
  /** The job queue of whoever built the context: `ctx.jobs.send(writeBackJob, { shop: ctx.shop })`. */
  jobs: JobSender;
  /** The logger, its lines naming the shop (and the job, in a job's context). */
  log: Logger;
}

/**
 * A Context from its parts: the clock stopped at `now` unless it is a clock, each gateway opened on first use
 * and then kept. What app/context.server.ts builds for the process, and tests for their own database.
 */
export function makeContext(parts: {
  db: PrismaClient;
  shop: string;
  now?: Date | (() => Date);
  shipping: () => Promise<ShippingClient>;
  shopify: () => Promise<ShopAdmin>;
  jobs: JobSender;
  /** The logger the context's lines go to; each names the context's shop. */
  log: Logger;
}): Context {
  return {
    db: parts.db,
    shop: parts.shop,
    now: stoppedClock(parts.now ?? new Date()),
    shipping: onFirstUse(parts.shipping),
    shopify: onFirstUse(parts.shopify),
    jobs: parts.jobs,
    log: parts.log.child({ shop: parts.shop }),
  };
}

/** A function that is called at most once, on first use, and then answers the same promise. */
export function onFirstUse<T>(open: () => Promise<T>): () => Promise<T> {
  let opened: Promise<T> | undefined;
  return () => (opened ??= open());
}

/** A clock stopped at `at`: the instant a unit of work treats as now. */
export function stoppedClock(at: Date | (() => Date) = new Date()): () => Date {
  if (typeof at === "function") return at;
  return () => at;
}
