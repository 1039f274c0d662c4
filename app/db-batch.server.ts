import type { Prisma } from "@prisma/client";
import type { Context } from "./context";
import { boundValuesPerStatement, chunksOf } from "./id-lists.server";
import { bound, boundList, sqlTemplate, type SqlPiece } from "./sql-template";

/** A client or an interactive transaction's: both bind and run raw statements. */
type Db = Prisma.TransactionClient;

/**
 * Set-based writes for work measured in thousands of rows (issue 30): one statement per chunk instead of one
 * per row, with chunks sized to what each database binds in one statement. Through Prisma every statement
 * costs its query compiler, client and driver about a millisecond of CPU whatever it writes, so a run of
 * 5,000 shipments written row by row spends seconds on statements alone.
 */

/**
 * Rows per statement when each row binds `perRow` values and the statement `fixed` more, at most `maxRows`
 * (a CASE over ids is searched row by row, so its size is bounded by more than the bound values). The bound is
 * the context's database's (app/id-lists.server.ts).
 */
function rowsPerStatement(ctx: Pick<Context, "db">, perRow: number, fixed = 0, maxRows = 500): number {
  return Math.max(1, Math.min(maxRows, Math.floor((boundValuesPerStatement(ctx) - fixed) / perRow)));
}

/** Tables with Prisma's @updatedAt, which a raw statement sets itself. */
const UPDATED_AT = { Shipment: true, TrackingEvent: false } as const;

export interface RowsUpdate<Column extends string> {
  table: keyof typeof UPDATED_AT;
  /** Columns whose value differs by row: each row's own, by CASE on its id. */
  columns: readonly Column[];
  rows: ReadonlyArray<{ id: string } & Record<Column, unknown>>;
  /** Columns set to the same value on every row. */
  set?: Readonly<Record<string, unknown>>;
  /** A further condition on the rows, ANDed with their ids (`"trackingState" = 'ACTIVE'`). */
  where?: readonly SqlPiece[];
}

/**
 * Updates rows by id, each to its own values, in one statement per chunk; `updatedAt`, where the table has it,
 * is set as Prisma's @updatedAt sets it, to the time of the write. Each column is `CASE "id" WHEN … THEN … ELSE "column" END`:
 * the ELSE gives PostgreSQL the column's type for the bound values, which it would otherwise take as text,
 * and SQLite takes them as Prisma stores them. Returns the statements (for `$transaction([...])`), not run yet:
 * on `db`, the context's client or a transaction it opened, sized to the context's database.
 */
export function updateRowsById<Column extends string>(ctx: Pick<Context, "db">, update: RowsUpdate<Column>, db: Db = ctx.db): Prisma.PrismaPromise<number>[] {
  const set = Object.entries({ ...update.set, ...(UPDATED_AT[update.table] ? { updatedAt: new Date() } : {}) });
  const fixed = set.length + (update.where ?? []).filter((piece) => typeof piece !== "string").length;
  const perChunk = rowsPerStatement(ctx, 1 + 2 * update.columns.length, fixed);
  return chunksOf(update.rows, perChunk).map((rows) => {
    const assignments: SqlPiece[][] = [
      ...update.columns.map((column) => [
        `"${column}" = CASE "id"`,
        ...rows.flatMap((row) => [" WHEN ", bound(row.id), " THEN ", bound(row[column])]),
        ` ELSE "${column}" END`,
      ]),
      ...set.map(([column, value]) => [`"${column}" = `, bound(value)]),
    ];
    const [strings, ...values] = sqlTemplate([
      `UPDATE "${update.table}" SET `,
      ...assignments.flatMap((pieces, index) => [index === 0 ? "" : ", ", ...pieces]),
      ` WHERE "id" IN `,
      ...boundList(rows.map((row) => row.id)),
      ...(update.where ? [" AND ", ...update.where] : []),
    ]);
    return db.$executeRaw(strings, ...values);
  });
}

/**
 * Inserts rows that all have the same columns (the first row's; its id among them: a raw statement has no Prisma
 * defaults), in one multi-row INSERT per chunk. Prisma's createMany compiles every row of its data, which costs
 * about four times the statement; these are only bound. Returns the statements (for `$transaction([...])`), on
 * `db` as {@link updateRowsById}'s.
 */
export function insertRows(
  ctx: Pick<Context, "db">,
  table: "Quote" | "TrackingEvent",
  rows: ReadonlyArray<{ id: string } & Record<string, unknown>>,
  db: Db = ctx.db,
): Prisma.PrismaPromise<number>[] {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!);
  return chunksOf(rows, rowsPerStatement(ctx, columns.length, 0, 1_000)).map((chunk) => {
    const [strings, ...values] = sqlTemplate([
      `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES `,
      ...chunk.flatMap((row, index) => [index === 0 ? "" : ", ", ...boundList(columns.map((column) => row[column]))]),
    ]);
    return db.$executeRaw(strings, ...values);
  });
}

/** Statements to commit together, made afresh on each call (a Prisma statement runs once). */
export type Statements = () => Prisma.PrismaPromise<unknown>[];

/** Rows to insert whole (as {@link insertRows}), merged with the other callers' rows of the same table and columns. */
export interface RowsToInsert {
  insert: Parameters<typeof insertRows>[1];
  rows: ReadonlyArray<{ id: string } & Record<string, unknown>>;
}

/** What a caller gives a group commit: statements, or rows to insert. */
export type Commit = Statements | RowsToInsert;

/**
 * The statements of a group: every caller's rows of one table and columns in one multi-row INSERT per chunk (one
 * statement for many callers instead of one each: each statement costs Prisma's client and the driver's
 * preparation), then the callers' statements in their order. Inserts go first: a caller's statements never
 * depend on another caller's rows of the same commit.
 */
function statementsOf(ctx: Pick<Context, "db">, group: readonly Commit[]): Prisma.PrismaPromise<unknown>[] {
  const inserts = new Map<string, RowsToInsert & { rows: Array<{ id: string } & Record<string, unknown>> }>();
  const statements: Prisma.PrismaPromise<unknown>[] = [];
  for (const item of group) {
    if (typeof item === "function") continue;
    if (item.rows.length === 0) continue;
    const key = `${item.insert}(${Object.keys(item.rows[0]!).join(",")})`;
    const merged = inserts.get(key);
    if (merged) merged.rows.push(...item.rows);
    else inserts.set(key, { insert: item.insert, rows: [...item.rows] });
  }
  for (const { insert, rows } of inserts.values()) statements.push(...insertRows(ctx, insert, rows));
  for (const item of group) if (typeof item === "function") statements.push(...item());
  return statements;
}

/**
 * Group commit: callers that each need their statements durable before they go on (an intent recorded before
 * an outside call) share transactions. Whatever arrives while a commit is under way goes into the next one, so
 * concurrent callers pay one commit (one disk sync on SQLite, one round trip on PostgreSQL) between them instead
 * of one each, and their rows to insert go in as one statement. A caller's promise settles when its statements are
 * committed; when a shared commit fails, its callers are committed one by one, so a bad statement fails only the
 * caller that gave it. One per client, shared by everything that commits through it (every shop's tracking pass).
 */
export function groupCommit({ db }: Pick<Context, "db">): (commit: Commit) => Promise<void> {
  let committer = committers.get(db);
  if (!committer) committers.set(db, (committer = newGroupCommit(db)));
  return committer;
}

const committers = new WeakMap<object, (commit: Commit) => Promise<void>>();

function newGroupCommit(db: Context["db"]): (commit: Commit) => Promise<void> {
  let waiting: Array<{ commit: Commit; settle: (error?: unknown) => void }> = [];
  let committing = false;
  const commit = async (group: Commit[]) => db.$transaction(statementsOf({ db }, group));
  const drain = async () => {
    committing = true;
    // A turn of the event loop before each commit: callers whose answers are ready join it. SQLite's commit
    // blocks the loop for its disk sync, so without the turn a caller would find no commit under way and go alone.
    while ((await new Promise((resolve) => setImmediate(resolve)), waiting.length > 0)) {
      const group = waiting;
      waiting = [];
      try {
        await commit(group.map((caller) => caller.commit));
        for (const caller of group) caller.settle();
      } catch (error) {
        if (group.length === 1) group[0]!.settle(error);
        else
          for (const caller of group)
            await commit([caller.commit]).then(
              () => caller.settle(),
              (own: unknown) => caller.settle(own),
            );
      }
    }
    committing = false;
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ commit: item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!committing) void drain();
    });
}
