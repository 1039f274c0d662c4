import * as z from "zod/mini";

/**
 * What the order list's Buy labels modal (extensions/buy-labels, an admin action extension) shows for the
 * orders it was opened on, as the app's route (`/api/label-runs/:runId`) answers it: the quote run's progress,
 * then the picks and the total, the spend checkpoint, and once bought the batch's booking and write-back.
 * zod/mini keeps the extension small; the app builds the same shape and the extension parses it.
 */

export const LabelPick = z.object({
  orderName: z.string(),
  /** The carrier and service by name ("National Postal Service", "Ground Advantage"), and the price ("$12.40"). */
  carrier: z.string(),
  service: z.string(),
  price: z.string(),
});
export type LabelPick = z.infer<typeof LabelPick>;

export const LabelProblem = z.object({
  orderName: z.string(),
  /** Why, in one line, with what to do. */
  reason: z.string(),
});
export type LabelProblem = z.infer<typeof LabelProblem>;

export const LabelRunView = z.object({
  runId: z.string(),
  /**
   * quoting (progress), ready (picks shown, Buy offered), buying (the batch is being created or booked),
   * booked (labels bought; write-back follows), failed (the run or the batch failed: see message).
   */
  stage: z.enum(["quoting", "ready", "buying", "booked", "failed"]),
  progress: z.object({ done: z.number(), total: z.number() }),
  /** The orders that can ship, with their picks; each blocked or failed order with its reason. */
  picks: z.array(LabelPick),
  problems: z.array(LabelProblem),
  /** The picks' total ("$312.40"), null with no pick. */
  total: z.nullable(z.string()),
  /** The batch page's sentence before booking ("Book 20 labels for $312.40? Prepay balance $500.00 → $187.60"). */
  checkpoint: z.nullable(z.string()),
  /**
   * Once Buy was chosen: the batch's state (creating on the Shipping API; open, to be booked by the next Buy;
   * booking; settled), labels booked and failed, and how many are written back to Shopify as fulfillments.
   */
  booking: z.nullable(
    z.object({
      state: z.enum(["creating", "open", "booking", "settled"]),
      booked: z.number(),
      failed: z.number(),
      writtenBack: z.number(),
      batchPath: z.string(),
    }),
  ),
  /** What went wrong or what is happening, in words; null when the view says it all. */
  message: z.nullable(z.string()),
  /** App paths: the rates page of this run (review and fix), and the booked labels (the Print menu's document). */
  reviewPath: z.string(),
  printPath: z.nullable(z.string()),
});
export type LabelRunView = z.infer<typeof LabelRunView>;

/** Shopify hands the modal the selected ids; it quotes up to this many, more open the rates page. */
export const MODAL_ORDER_LIMIT = 50;
