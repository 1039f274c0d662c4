import { z } from "zod";
import type { Context, JobDefinition } from "../context";

/**
 * The job that books the return labels going in the boxes of a shop's booked orders (issue 24 §5,
 * docs/decisions/044): its name, data and key, and sending it. A batch's results send it once recorded (the intent,
 * `boxReturn` WANTED, is written with them); the work it runs is app/returns/box-return.server.ts.
 */
export const boxReturnLabelsJob: JobDefinition<{ shop: string }> = {
  name: "box-return-labels",
  data: z.object({ shop: z.string().min(1) }),
  key: ({ shop }) => shop,
};

/** Queues the shop's box return labels job (it books every return label wanted and not booked yet). */
export function queueBoxReturnLabels(ctx: Pick<Context, "shop" | "jobs">): Promise<void> {
  return ctx.jobs.send(boxReturnLabelsJob, { shop: ctx.shop });
}
