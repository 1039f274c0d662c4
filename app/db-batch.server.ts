import type { Prisma, PrismaClient } from "@prisma/client";

/** A client or an interactive transaction's: both bind and run raw statements. */
type Db = Prisma.TransactionClient;

/**
 * Set-based writes for work measured in thousands of rows (issue 30): one statement per chunk instead of one
 * per row, with chunks sized to what each database binds in one statement. Through Prisma every statement
 * costs its query compiler, client and driver about a millisecond of CPU whatever it writes, so a run of
 * 5,000 shipments written row by row spends seconds on statements alone.
 */

/**
 * Bound values one statement may carry: SQLite as Prisma opens it takes 999 (its historical default, which
 * Prisma's own queries keep to); PostgreSQL's wire protocol counts them in 16 bits.
 */
export function boundParameterLimit(db: Db): number {
  return providerOf(db) === "postgresql" ? 65_535 : 999;
}

/** The client's provider ("sqlite" or "postgresql"); both generated clients and their transactions carry it. */
function providerOf(db: Db): string {
  return (db as unknown as { _activeProvider: string })._activeProvider;
}

/**
 * Rows per statement when each row binds `perRow` values and the statement `fixed` more, at most `maxRows`
 * (a CASE over ids is searched row by row, so its size is bounded by more than the parameter limit).
 */
export function rowsPerStatement(db: Db, perRow: number, fixed = 0, maxRows = 500): number {
  return Math.max(1, Math.min(maxRows, Math.floor((boundParameterLimit(db) - fixed) / perRow)));
}

/** `items` in consecutive slices of at most `size`. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * Rows for a list of values (ids) of any length: `read` is given the values in chunks the database binds in
 * one statement, beside a few more of the query's own, one chunk at a time.
 */
export async function readInChunks<Value, Row>(db: Db, values: readonly Value[], read: (chunk: Value[]) => Promise<Row[]>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const chunk of chunksOf(values, rowsPerStatement(db, 1, QUERY_OWN_VALUES, Infinity))) rows.push(...(await read(chunk)));
  return rows;
}

/** Values a query binds besides its list (the shop, a state): room left for them in `readInChunks`' chunks. */
const QUERY_OWN_VALUES = 8;

/** A piece of SQL: text as written, or a value the database's client binds. */
export type SqlPiece = string | { value: unknown };

/** A value to bind, as a piece of SQL. */
export const bound = (value: unknown): SqlPiece => ({ value });

/** SQL text and values as a tagged template's arguments, which every generated client's `$executeRaw` binds. */
export function sqlTemplate(pieces: readonly SqlPiece[]): [TemplateStringsArray, ...unknown[]] {
  const strings = [""];
  const values: unknown[] = [];
  for (const piece of pieces) {
    if (typeof piece === "string") strings[strings.length - 1] += piece;
    else {
      values.push(piece.value);
      strings.push("");
    }
  }
  return [Object.assign(strings, { raw: [...strings] }), ...values];
}

/** `(a, b, c)` of bound values. */
export function boundList(values: readonly unknown[]): SqlPiece[] {
  return ["(", ...values.flatMap((value, index) => [index === 0 ? "" : ", ", bound(value)]), ")"];
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
 * and SQLite takes them as Prisma stores them. Returns the statements (for `$transaction([...])`), not run yet.
 */
export function updateRowsById<Column extends string>(db: Db, update: RowsUpdate<Column>): Prisma.PrismaPromise<number>[] {
  const set = Object.entries({ ...update.set, ...(UPDATED_AT[update.table] ? { updatedAt: new Date() } : {}) });
  const fixed = set.length + (update.where ?? []).filter((piece) => typeof piece !== "string").length;
  const perChunk = rowsPerStatement(db, 1 + 2 * update.columns.length, fixed);
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
 * about four times the statement; these are only bound. Returns the statements (for `$transaction([...])`).
 */
export function insertRows(
  db: Db,
  table: "Quote" | "TrackingEvent",
  rows: ReadonlyArray<{ id: string } & Record<string, unknown>>,
): Prisma.PrismaPromise<number>[] {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!);
  return chunksOf(rows, rowsPerStatement(db, columns.length, 0, 1_000)).map((chunk) => {
    const [strings, ...values] = sqlTemplate([
      `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES `,
      ...chunk.flatMap((row, index) => [index === 0 ? "" : ", ", ...boundList(columns.map((column) => row[column]))]),
    ]);
    return db.$executeRaw(strings, ...values);
  });
}

/** Statements to commit together, made afresh on each call (a Prisma statement runs once). */
export type Statements = () => Prisma.PrismaPromise<unknown>[];

/**
 * Group commit: callers that each need their statements durable before they go on (an intent recorded before
 * an outside call) share transactions. Whatever arrives while a commit is under way goes into the next one, so
 * concurrent callers pay one commit (one disk sync on SQLite, one round trip on PostgreSQL) between them instead
 * of one each. A caller's promise settles when its statements are
 * committed; when a shared commit fails, its callers are committed one by one, so a bad statement fails only the
 * caller that gave it. One per client, shared by everything that commits through it (every shop's tracking pass).
 */
export function groupCommit(db: Pick<PrismaClient, "$transaction">): (statements: Statements) => Promise<void> {
  let committer = committers.get(db);
  if (!committer) committers.set(db, (committer = newGroupCommit(db)));
  return committer;
}

const committers = new WeakMap<object, (statements: Statements) => Promise<void>>();

function newGroupCommit(db: Pick<PrismaClient, "$transaction">): (statements: Statements) => Promise<void> {
  let waiting: Array<{ statements: Statements; settle: (error?: unknown) => void }> = [];
  let committing = false;
  const commit = async (statements: Statements[]) => db.$transaction(statements.flatMap((make) => make()));
  const drain = async () => {
    committing = true;
    // A turn of the event loop before each commit: callers whose answers are ready join it. SQLite's commit
    // blocks the loop for its disk sync, so without the turn a caller would find no commit under way and go alone.
    while ((await new Promise((resolve) => setImmediate(resolve)), waiting.length > 0)) {
      const group = waiting;
      waiting = [];
      try {
        await commit(group.map((caller) => caller.statements));
        for (const caller of group) caller.settle();
      } catch (error) {
        if (group.length === 1) group[0]!.settle(error);
        else
          for (const caller of group)
            await commit([caller.statements]).then(
              () => caller.settle(),
              (own: unknown) => caller.settle(own),
            );
      }
    }
    committing = false;
  };
  return (statements) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ statements, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!committing) void drain();
    });
}
