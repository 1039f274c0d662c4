import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { RunResult, ServiceStore, StoreStatement } from "./store";

/**
 * The service's store on PostgreSQL (SHIPPING_SERVICE_DATABASE_URL=postgres://…), with the SQLite store's
 * synchronous interface, so the domain code and its guarantees stay as they are: a transaction runs to its
 * end before any other request's query (docs/decisions/012-postgresql.md). One connection lives in a worker
 * thread (postgres-worker.mjs); each query blocks this thread until the worker has the answer, as a
 * better-sqlite3 call blocks on the file.
 *
 * The service writes its SQL once, for SQLite; `toPostgres` renders it for PostgreSQL: `?` parameters
 * become `$n`, the schema's mixed-case names are quoted (PostgreSQL folds unquoted names to lower case),
 * and the two SQLite functions the service uses get their PostgreSQL equivalents.
 */

interface Answer {
  /** The request's own number: an answer that comes after its request was given up on is not taken for the next one's. */
  id: number;
  ok: boolean;
  rows?: Record<string, unknown>[];
  rowCount?: number;
  message?: string;
  code?: string;
}

export class PostgresStoreError extends Error {
  override name = "PostgresStoreError";
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly sql: string,
  ) {
    super(`${message} (in: ${sql.replace(/\s+/g, " ").slice(0, 200)})`);
  }
}

/** The answer to one query may take this long before the store gives up on the connection. */
const QUERY_TIMEOUT_MS = 30_000;

/** SQLite idioms the service's SQL uses, and their PostgreSQL equivalents. */
const IDIOMS: [RegExp, string][] = [
  // The ids of a JSON array of integers.
  [/SELECT value FROM json_each\(\?\)/g, "SELECT value::integer FROM json_array_elements_text(?::json) AS elements(value)"],
  // Position of a substring, 0 when absent.
  [/\binstr\(/g, "strpos("],
];

export interface SchemaNames {
  /** Table and column names that PostgreSQL must see quoted (they have capitals). */
  quoted: ReadonlySet<string>;
  /** Tables with an `id` column: an INSERT into them returns it (SQLite's lastInsertRowid). */
  withId: ReadonlySet<string>;
}

/** The PostgreSQL text of one of the service's SQLite statements (exported for its test). */
export function toPostgres(sql: string, names: SchemaNames): string {
  let text = sql;
  for (const [pattern, replacement] of IDIOMS) text = text.replace(pattern, replacement);
  let parameter = 0;
  // Outside string literals: quote the schema's mixed-case names, number the parameters.
  return text
    .split(/('(?:[^']|'')*')/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/"[^"]*"|\?|\b[A-Za-z_][A-Za-z0-9_]*\b/g, (token) => {
            if (token === "?") return `$${++parameter}`;
            return names.quoted.has(token) ? `"${token}"` : token;
          }),
    )
    .join("");
}

export function openPostgresServiceStore(url: string, options: { queryTimeoutMs?: number } = {}): ServiceStore {
  const queryTimeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const signal = new SharedArrayBuffer(4);
  const done = new Int32Array(signal);
  const { port1: port, port2: workerPort } = new MessageChannel();
  const worker = new Worker(new URL("./postgres-worker.mjs", import.meta.url), { workerData: { url, port: workerPort, signal }, transferList: [workerPort] });
  worker.unref();
  let open = true;

  let requests = 0;
  const call = (request: { kind: "query"; text: string; values: unknown[] } | { kind: "close" }, sql: string): Answer => {
    const id = ++requests;
    const deadline = Date.now() + queryTimeoutMs;
    Atomics.store(done, 0, 0);
    port.postMessage({ ...request, id });
    for (;;) {
      const answer = receiveMessageOnPort(port)?.message as Answer | undefined;
      if (answer?.id === id) {
        if (!answer.ok) throw new PostgresStoreError(answer.message ?? "query failed", answer.code, sql);
        return answer;
      }
      // Nothing yet, or the late answer of a request that timed out: wait for this one's.
      if (answer) continue;
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(done, 0, 0, left) === "timed-out")
        throw new PostgresStoreError(`PostgreSQL did not answer within ${queryTimeoutMs} ms`, undefined, sql);
      Atomics.store(done, 0, 0);
    }
  };
  const query = (text: string, values: unknown[] = [], sql = text) => call({ kind: "query", text, values }, sql);

  const catalog = query(
    `SELECT table_name::text AS "table", column_name::text AS "column" FROM information_schema.columns WHERE table_schema = current_schema()`,
  ).rows as { table: string; column: string }[];
  const names: SchemaNames = {
    quoted: new Set(catalog.flatMap((row) => [row.table, row.column]).filter((name) => name !== name.toLowerCase())),
    withId: new Set(catalog.filter((row) => row.column === "id").map((row) => row.table)),
  };

  const cache = new Map<string, StoreStatement>();
  const prepare = (sql: string): StoreStatement => {
    const text = toPostgres(sql, names);
    const into = /^\s*INSERT\s+INTO\s+(\w+)/i.exec(sql)?.[1];
    // SQLite reports the new row's id after any INSERT; PostgreSQL says it when asked.
    const insertText = into && names.withId.has(into) && !/\bRETURNING\b/i.test(sql) ? `${text} RETURNING id` : text;
    return {
      get: (...values) => query(text, values, sql).rows![0],
      all: (...values) => query(text, values, sql).rows!,
      run: (...values): RunResult => {
        const answer = query(insertText, values, sql);
        const id = insertText === text ? undefined : answer.rows![0]?.id;
        return { changes: answer.rowCount ?? 0, lastInsertRowid: typeof id === "number" ? id : 0 };
      },
    };
  };

  let depth = 0;
  return {
    statement(sql) {
      let statement = cache.get(sql);
      if (!statement) {
        statement = prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
    transaction(work) {
      const savepoint = depth > 0 ? `nested_${depth}` : undefined;
      query(savepoint ? `SAVEPOINT ${savepoint}` : "BEGIN");
      depth += 1;
      try {
        const result = work();
        depth -= 1;
        query(savepoint ? `RELEASE SAVEPOINT ${savepoint}` : "COMMIT");
        return result;
      } catch (error) {
        depth -= 1;
        query(savepoint ? `ROLLBACK TO SAVEPOINT ${savepoint}` : "ROLLBACK");
        throw error;
      }
    },
    close() {
      if (!open) return;
      open = false;
      try {
        call({ kind: "close" }, "(close)");
      } finally {
        void worker.terminate();
        port.close();
      }
    },
  };
}
