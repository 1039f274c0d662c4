import { z } from "zod";
import type { Context, JobDefinition } from "../context";

/**
 * The order-signals job's definition (docs/decisions/026, 043): its name, data and key, and sending it. Booking and
 * tracking send it from here when they write a fact with `signalsDueAt`; its work is app/signals/signals.server.ts.
 */
const OrderSignalsData = z.object({ shop: z.string().min(1) });

export const orderSignalsJob: JobDefinition<z.infer<typeof OrderSignalsData>> = {
  name: "order-signals",
  data: OrderSignalsData,
  key: ({ shop }) => shop,
};

/** Sends the shop's order-signals job: a fact automation announces was written. */
export function queueOrderSignals(ctx: Pick<Context, "jobs" | "shop">): Promise<void> {
  return ctx.jobs.send(orderSignalsJob, { shop: ctx.shop });
}

/** Resolves once the shop's order-signals job has nothing waiting or running (tests, scripts). */
export function orderSignalsSettled(ctx: Pick<Context, "jobs" | "shop">): Promise<void> {
  return ctx.jobs.drained(orderSignalsJob, { shop: ctx.shop });
}
