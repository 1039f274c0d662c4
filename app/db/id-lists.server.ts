import type { Context } from "../context";
import { databaseOf } from "./db-client.server";

/**
 * Lists of ids in queries, at any length. A statement binds a bounded number of values: Prisma refuses one
 * past 999 on SQLite and past 32,767 on PostgreSQL ("The query parameter limit supported by your database is
 * exceeded"), counting the statement's other values too. So every query that takes a list of ids the
 * merchant's selection or the shop's size decides (50,000 selected orders, a whole shop's mirror) takes it
 * through here, in pieces each database takes, one statement after another.
 */

/** Values one statement may bind, by database. */
const BOUND_VALUES = { sqlite: 999, postgresql: 32_767 } as const;
/** Kept free in each statement for its other values (the shop, statuses, a batch id). */
const OTHER_VALUES = 99;

/**
 * Values one statement may bind on the context's database; a client of unknown database gets SQLite's, the
 * stricter. An interactive transaction's client is not known here: a statement in one is sized by the context's
 * client that opened it (app/db/db-batch.server.ts takes both).
 */
export function boundValuesPerStatement(ctx: Pick<Context, "db">): number {
  return BOUND_VALUES[databaseOf(ctx)];
}

/** How many ids one statement takes on the context's database. */
export function idsPerStatement(ctx: Pick<Context, "db">): number {
  return boundValuesPerStatement(ctx) - OTHER_VALUES;
}

/** `items` in consecutive pieces of at most `size`, in order; none for an empty list. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** `ids` in pieces of at most {@link idsPerStatement}, in order; none for an empty list. */
export function idChunks<T>(ctx: Pick<Context, "db">, ids: readonly T[]): T[][] {
  return chunksOf(ids, idsPerStatement(ctx));
}

/** The rows `read` finds for each piece of `ids`, one statement after another, in the pieces' order. */
export async function readByIds<T, R>(ctx: Pick<Context, "db">, ids: readonly T[], read: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (const chunk of idChunks(ctx, ids)) for (const row of await read(chunk)) rows.push(row);
  return rows;
}

/** Runs `write` (an updateMany or deleteMany) for each piece of `ids` in turn; the rows written, summed. */
export async function writeByIds<T>(ctx: Pick<Context, "db">, ids: readonly T[], write: (chunk: T[]) => Promise<{ count: number }>): Promise<number> {
  let count = 0;
  for (const chunk of idChunks(ctx, ids)) count += (await write(chunk)).count;
  return count;
}
