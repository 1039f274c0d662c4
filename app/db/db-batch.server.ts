import { Prisma } from "@prisma/client";
import type { Context } from "../context";
import type { DatabaseProvider } from "../../lib/database-provider";
import { databaseOf } from "./db-client.server";
import { readByIds } from "./id-lists.server";
import { bound, boundList, sqlTemplate, type SqlPiece } from "./sql-template";
import { payloadToken, releaseWith } from "./bound-payloads.server";

/** A client or an interactive transaction's: both bind and run raw statements. */
type Db = Prisma.TransactionClient;

/**
 * Set-based writes for work measured in thousands of rows (issue 30): one statement per chunk of rows instead of
 * one per row, and one bound value per statement instead of one per cell. Through Prisma every statement costs
 * its query compiler, client and driver about a millisecond of CPU whatever it writes, and every bound value
 * more: each is serialised into the request the compiler reads, copied into its plan and mapped by the driver.
 * So the rows go as one JSON text, which the database itself unpacks (SQLite's `json_each`, PostgreSQL's
 * `json_to_recordset` with each column's own type, which casts each value to it), and that
 * text goes around Prisma's client: the statement binds a token the driver swaps for it (docs/decisions/049).
 */

/**
 * What one statement carries: at most this many rows, in a JSON text of at most this many characters (the first
 * row that overflows starts the next statement). The text is held until the driver binds it (Prisma's debug history
 * keeps only its token), so a statement's size is memory only while it waits to run: half a megabyte holds a quote
 * run's chunk of a hundred shipments with their rates, one statement instead of three.
 */
const ROWS_PER_STATEMENT = 1_000;
const CHARACTERS_PER_STATEMENT = 512 * 1024;

/**
 * A value as the JSON the database unpacks into its column: a Date as each database's driver writes it through
 * Prisma (better-sqlite3's adapter stores ISO 8601 text with "+00:00"; PostgreSQL's timestamp(3) reads the ISO text
 * and, being without time zone, keeps the UTC wall time as Prisma does), a boolean as SQLite's 1 or 0.
 */
function jsonValue(provider: DatabaseProvider, value: unknown): unknown {
  if (value instanceof Date) return provider === "sqlite" ? value.toISOString().replace("Z", "+00:00") : value.toISOString();
  if (typeof value === "boolean" && provider === "sqlite") return value ? 1 : 0;
  return value === undefined ? null : value;
}

/** PostgreSQL's type of a column of each of Prisma's scalar types, as the app's migrations make them. */
const POSTGRES_TYPES: Readonly<Record<string, string>> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Boolean: "boolean",
  DateTime: "timestamp(3)",
};

/** Each table's columns with their PostgreSQL types, from the schema Prisma's client was generated from. */
const postgresColumns = new Map<string, ReadonlyMap<string, string>>();

/** `column`'s PostgreSQL type in `table`; throws for a column the schema does not have (a programming error). */
function postgresType(table: string, column: string): string {
  let columns = postgresColumns.get(table);
  if (!columns) {
    const model = Prisma.dmmf.datamodel.models.find((candidate) => candidate.name === table);
    columns = new Map(
      (model?.fields ?? []).flatMap((field) =>
        field.kind === "scalar" && POSTGRES_TYPES[field.type] ? [[field.name, POSTGRES_TYPES[field.type]!] as const] : [],
      ),
    );
    postgresColumns.set(table, columns);
  }
  const type = columns.get(column);
  if (!type) throw new Error(`${table}.${column} is not a column of a type a set-based write unpacks`);
  return type;
}

/**
 * A row as PostgreSQL's json_to_recordset reads it: an object of `columns`, built directly (an
 * Object.fromEntries of mapped pairs took twice as long to build and serialise, for every rate a run stores).
 */
function recordOf(provider: DatabaseProvider, row: Readonly<Record<string, unknown>>, columns: readonly string[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const column of columns) record[column] = jsonValue(provider, row[column]);
  return record;
}

/**
 * The rows' `columns` as JSON texts of at most ROWS_PER_STATEMENT rows and about CHARACTERS_PER_STATEMENT
 * characters each, one per statement: for SQLite each row an array in `columns`' order, for PostgreSQL an object.
 */
function packedRows(provider: DatabaseProvider, rows: ReadonlyArray<Record<string, unknown>>, columns: readonly string[]): string[] {
  const texts: string[] = [];
  let parts: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(provider === "sqlite" ? columns.map((column) => jsonValue(provider, row[column])) : recordOf(provider, row, columns));
    if (parts.length > 0 && (parts.length >= ROWS_PER_STATEMENT || size + json.length > CHARACTERS_PER_STATEMENT)) {
      texts.push(`[${parts.join(",")}]`);
      parts = [];
      size = 0;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) texts.push(`[${parts.join(",")}]`);
  return texts;
}

/**
 * One packed text of rows (packedRows) unpacked by the database into a table with `columns` named `prefix` +
 * column, each of `table`'s own type: a SELECT to use as a subquery. SQLite reads the arrays through `json_each`;
 * PostgreSQL reads the objects through `json_to_recordset` with the columns' own types, which casts each value to
 * its column's type (ISO text to timestamp(3), a number to integer; a nested array or object to its JSON text). Over
 * the table's whole row type (`json_populate_recordset`) it took three times as long: 11 ms against 3.6 to unpack a
 * hundred shipments with their rates, most of a quote chunk's statement.
 */
function unpackedRows(provider: DatabaseProvider, table: string, token: string, columns: readonly string[], prefix = ""): SqlPiece[] {
  // Bound as a token the driver swaps for the packed text itself (docs/decisions/049): through Prisma's client a
  // bound value costs about 12 ns a byte on its way to the driver, and its debug history would keep it.
  if (provider === "sqlite")
    return [
      `SELECT ${columns.map((column, index) => `json_extract("value", '$[${index}]') AS "${prefix}${column}"`).join(", ")} FROM json_each(`,
      bound(token),
      `)`,
    ];
  return [
    `SELECT ${columns.map((column) => `"${column}" AS "${prefix}${column}"`).join(", ")} FROM json_to_recordset(CAST(`,
    bound(token),
    ` AS json)) AS "rows"(${columns.map((column) => `"${column}" ${postgresType(table, column)}`).join(", ")})`,
  ];
}

/** A raw statement that binds `packed` through its token (unpackedRows): its text goes when the statement does. */
function withPayload(db: Db, packed: string, statement: (token: string) => readonly SqlPiece[]): Prisma.PrismaPromise<number> {
  const token = payloadToken(packed);
  const [strings, ...values] = sqlTemplate(statement(token));
  return releaseWith(db.$executeRaw(strings, ...values), token);
}

/** Tables with Prisma's @updatedAt, which a raw statement sets itself. */
const UPDATED_AT = { Shipment: true, TrackingEvent: false, TrackingSchedule: false } as const;

export interface RowsUpdate<Column extends string, Match extends string = never> {
  table: keyof typeof UPDATED_AT;
  /**
   * Columns whose value differs by row: each row's own. A column that holds JSON text may be given its value as an
   * array or object: the database stores its JSON text (SQLite's json_extract and PostgreSQL's json_to_recordset
   * both give a text column the text of a nested value), so it is serialised once, not escaped again as a string.
   */
  columns: readonly Column[];
  rows: ReadonlyArray<{ id: string } & Record<Column | Match, unknown>>;
  /** Columns set to the same value on every row. */
  set?: Readonly<Record<string, unknown>>;
  /** A further condition on the rows, ANDed with their ids (`"trackingState" = 'ACTIVE'`). */
  where?: readonly SqlPiece[];
  /**
   * Columns each row must still hold its own given value in to be updated (compared, not set): a row changed since
   * it was read is left alone. The values must not be null.
   */
  match?: readonly Match[];
}

/**
 * Updates rows by id, each to its own values, in one statement per chunk: `UPDATE … SET "column" = "new"."column" …
 * FROM (the rows, unpacked from one JSON value) WHERE "id" = "new"."id"`; `updatedAt`, where the table has it, is
 * set as Prisma's @updatedAt sets it, to the time of the write. Returns the statements (for `$transaction([...])`),
 * not run yet: on `db`, the context's client or a transaction it opened, in the context's database's SQL.
 */
export function updateRowsById<Column extends string, Match extends string = never>(
  ctx: Pick<Context, "db">,
  update: RowsUpdate<Column, Match>,
  db: Db = ctx.db,
): Prisma.PrismaPromise<number>[] {
  return preparedUpdate(ctx, update)(db);
}

/**
 * {@link updateRowsById}'s update with its rows packed now, and its statements made at each call (on `db`, the
 * context's client unless given): for statements a group commit runs later, perhaps twice. What the rows were made
 * from can go at once; the packed text (one string per chunk) is all that waits for the commit.
 */
export function preparedUpdate<Column extends string, Match extends string = never>(
  ctx: Pick<Context, "db">,
  update: RowsUpdate<Column, Match>,
): (db?: Db) => Prisma.PrismaPromise<number>[] {
  const provider = databaseOf(ctx);
  const set = Object.entries({ ...update.set, ...(UPDATED_AT[update.table] ? { updatedAt: new Date() } : {}) });
  const match = update.match ?? [];
  const columns: string[] = ["id", ...update.columns, ...match];
  const { table, where } = update;
  const assignments: SqlPiece[][] = [
    ...update.columns.map((column) => [`"${column}" = "new"."new_${column}"`]),
    ...set.map(([column, value]) => [`"${column}" = `, bound(value)]),
  ];
  // The new values are named "new_<column>", so a condition on the table's own columns stays unambiguous.
  const packs = packedRows(provider, update.rows, columns);
  return (db = ctx.db) =>
    packs.map((packed) =>
      withPayload(db, packed, (token) => [
        `UPDATE "${table}" SET `,
        ...assignments.flatMap((pieces, index) => [index === 0 ? "" : ", ", ...pieces]),
        ` FROM (`,
        ...unpackedRows(provider, table, token, columns, "new_"),
        `) AS "new" WHERE "${table}"."id" = "new"."new_id"`,
        ...match.map((column) => ` AND "${table}"."${column}" = "new"."new_${column}"`),
        ...(where ? [" AND ", ...where] : []),
      ]),
    );
}

/**
 * Inserts rows that all have the same columns (the first row's; its id among them, and `createdAt` and
 * `updatedAt` where the table has them: a raw statement has no Prisma defaults), in one INSERT per chunk of rows
 * unpacked from one JSON value. Prisma's createMany compiles every row of its data, and a multi-row INSERT binds
 * every cell; these bind one value, and one more per column in `same`: the columns every row has the same value
 * in (the shop, the moment they were written), bound once instead of repeated in every row's JSON. Returns the
 * statements (for `$transaction([...])`), on `db` as {@link updateRowsById}'s.
 */
export function insertRows(
  ctx: Pick<Context, "db">,
  table: "TrackingEvent" | "Shipment" | "TrackingSchedule" | "BlockedOrder",
  rows: ReadonlyArray<{ id: string } & Record<string, unknown>>,
  { db = ctx.db, same = {} }: { db?: Db; same?: Readonly<Record<string, unknown>> } = {},
): Prisma.PrismaPromise<number>[] {
  if (rows.length === 0) return [];
  const provider = databaseOf(ctx);
  const columns = Object.keys(rows[0]!);
  const constants = Object.entries(same);
  const constantPieces = constants.flatMap(([, value]): SqlPiece[] => [", ", bound(value)]);
  return packedRows(provider, rows, columns).map((packed) =>
    withPayload(db, packed, (token) => [
      `INSERT INTO "${table}" (${[...columns, ...constants.map(([column]) => column)].map((column) => `"${column}"`).join(", ")}) SELECT *`,
      ...constantPieces,
      ` FROM (`,
      ...unpackedRows(provider, table, token, columns),
      `) AS "row"`,
    ]),
  );
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

interface RowsQuery {
  table: "Shipment" | "TrackingEvent" | "MirrorOrder" | "MirrorFulfillmentOrder" | "OrderCustoms" | "ProductPreset";
  columns: readonly string[];
  orderBy: readonly string[];
}

/**
 * Rows of `table`, their `columns` only, where `where` holds, in `orderBy`'s order (columns of the table, never outside
 * input), read by one raw statement: each value typed as Prisma's client types it on both databases (a DateTime as a
 * Date, a Boolean as a boolean), without the client's mapping of every row, which is most of the cost of reading
 * hundreds of them (500 shipments of 31 columns: 22 ms through `findMany`, 10 ms this way).
 */
export function selectRows<Row>(ctx: Pick<Context, "db">, query: RowsQuery & { where: readonly SqlPiece[] }): Promise<Row[]> {
  const [strings, ...values] = sqlTemplate([
    `SELECT ${query.columns.map((column) => `"${column}"`).join(", ")} FROM "${query.table}" WHERE `,
    ...query.where,
    ` ORDER BY ${query.orderBy.map((column) => `"${column}"`).join(", ")}`,
  ]);
  return ctx.db.$queryRaw<Row[]>(strings, ...values);
}

/**
 * {@link selectRows} of the rows whose `column` is one of `ids` (and `where` holds, when given), at any number of ids:
 * one statement a chunk of what the database binds (readByIds), each chunk's rows in `orderBy`'s order.
 */
export function selectRowsByIds<Row>(
  ctx: Pick<Context, "db">,
  query: RowsQuery & { column: string; ids: readonly string[]; where?: readonly SqlPiece[] },
): Promise<Row[]> {
  const { column, ids, where, ...rows } = query;
  return readByIds(ctx, ids, (chunk) =>
    selectRows<Row>(ctx, { ...rows, where: [...(where ? [...where, " AND "] : []), `"${column}" IN `, ...boundList(chunk)] }),
  );
}

/** {@link selectRowsByIds} among the context's shop's rows, in order of `column`: a shop's settings or mirror, read by their keys. */
export function selectShopRowsByIds<Row>(
  ctx: Pick<Context, "db" | "shop">,
  query: Omit<RowsQuery, "orderBy"> & { column: string; ids: readonly string[] },
): Promise<Row[]> {
  return selectRowsByIds<Row>(ctx, { ...query, where: [`"shop" = `, bound(ctx.shop)], orderBy: [query.column] });
}
