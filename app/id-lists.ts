/**
 * Reads that take a list of ids go to the database in slices: SQLite through Prisma binds at most 999 values
 * in one statement, and a busy shop's run or batch holds thousands of ids.
 */
export const IDS_PER_QUERY = 500;

/** `ids` in consecutive slices of at most IDS_PER_QUERY. */
export function idSlices<T>(ids: readonly T[]): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) slices.push(ids.slice(start, start + IDS_PER_QUERY));
  return slices;
}

/** Runs `read` over each slice of `ids`, one after another, and concatenates the rows. */
export async function readInSlices<T, R>(ids: readonly T[], read: (slice: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (const slice of idSlices(ids)) rows.push(...(await read(slice)));
  return rows;
}
