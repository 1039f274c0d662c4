import { z } from "zod";
import { MAX_BATCH_SIZE } from "../../shipping-api/contract";

/**
 * How picked rates become batches, pure: at most 500 quotes per batch (the service's limit), split in
 * the merchant's order, each part named "Name (1/3)" so the parts read as one job in every list.
 */

/** The service's limit on a batch name. */
const MAX_BATCH_NAME = 255;
/** The limit on a name Consign is given or makes up, leaving room for a " (12/12)" part suffix. */
export const MAX_NAME_BEFORE_SUFFIX = MAX_BATCH_NAME - 16;

/** A batch name as the merchant types it: trimmed, not blank, short enough to carry a " (12/12)" suffix. */
export const BatchName = z
  .string()
  .trim()
  .min(1, "Give the batch a name, for example “Monday pickup”.")
  .max(MAX_NAME_BEFORE_SUFFIX, `Keep the name under ${MAX_NAME_BEFORE_SUFFIX} characters.`);

export interface PlannedBatch<T> {
  name: string;
  /** 1-based part number and the number of parts. */
  part: number;
  parts: number;
  items: T[];
}

/** Splits `items` into parts of at most `limit`, keeping their order; one part keeps the plain name. */
export function planBatches<T>(name: string, items: readonly T[], limit: number = MAX_BATCH_SIZE): PlannedBatch<T>[] {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  const parts = Math.ceil(items.length / limit);
  return Array.from({ length: parts }, (_, index) => ({
    name: parts === 1 ? name : `${name} (${index + 1}/${parts})`,
    part: index + 1,
    parts,
    items: items.slice(index * limit, (index + 1) * limit),
  }));
}
