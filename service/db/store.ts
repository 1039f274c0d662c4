import Database from "better-sqlite3";
import { databaseProviderOf } from "../../lib/database-provider";
import { applyPostgresMigrations } from "../../lib/migrations";
import { sqlitePathOf } from "../../lib/sqlite-url";
import { resolveServiceDatabaseUrl } from "./database-url";
import { applyMigrations, POSTGRES_MIGRATIONS_DIR } from "./migrate";
import { openPostgresServiceStore } from "./postgres-store";

/**
 * The service's database handle: one connection, migrated on open. SQLite (the default) through
 * better-sqlite3; PostgreSQL through postgres-store.ts, behind the same synchronous interface.
 *
 * Why not the Prisma client at run time: measured on this machine, Prisma 6.19 over the driver adapter
 * managed 439 single-quote transactions/s and 966 ms for a 500-shipment quote (7,000 rows); the same
 * work through better-sqlite3 prepared statements runs at 10,600/s and 25 ms. Better-sqlite3 is also
 * synchronous, so a transaction cannot interleave with another request: that is what makes
 * "two concurrent Batch Book calls book once" hold without locks (the adapter's transactions would let
 * other queries run inside an open transaction). The Prisma schema stays the source of the tables.
 */
export interface ServiceStore {
  /** Prepared once per SQL text (written for SQLite; the PostgreSQL store renders it for PostgreSQL). */
  statement(text: string): StoreStatement;
  /** Runs `work` in one transaction (a savepoint when nested). */
  transaction<T>(work: () => T): T;
  close(): void;
}

/** What the service asks of a prepared statement: better-sqlite3's `get`, `all` and `run`. */
export interface StoreStatement {
  get(...values: unknown[]): unknown;
  all(...values: unknown[]): unknown[];
  run(...values: unknown[]): RunResult;
}

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/**
 * Opens the SQLite store at `url` (or the default file), applying pending migrations first. PostgreSQL
 * migrations are applied asynchronously: open a PostgreSQL store with `openServiceDatabase`.
 */
export function openServiceStore(url?: string): ServiceStore {
  const resolved = resolveServiceDatabaseUrl(url);
  if (databaseProviderOf(resolved) === "postgresql") return openPostgresServiceStore(resolved);
  const path = sqlitePathOf(resolved);
  applyMigrations(path);
  const sql = new Database(path);
  sql.pragma("journal_mode = WAL");
  // NORMAL is durable against application crashes in WAL mode; an OS crash may lose the last commits.
  sql.pragma("synchronous = NORMAL");
  sql.pragma("busy_timeout = 5000");
  sql.pragma("foreign_keys = ON");
  const cache = new Map<string, Database.Statement>();
  return {
    statement(text) {
      let prepared = cache.get(text);
      if (!prepared) {
        prepared = sql.prepare(text);
        cache.set(text, prepared);
      }
      return prepared;
    },
    transaction(work) {
      return sql.transaction(work)();
    },
    close() {
      if (sql.open) sql.close();
    },
  };
}

/** Opens the service's database, SQLite or PostgreSQL, with every migration applied (the service's start). */
export async function openServiceDatabase(url?: string): Promise<ServiceStore> {
  const resolved = resolveServiceDatabaseUrl(url);
  if (databaseProviderOf(resolved) === "postgresql") await applyPostgresMigrations(resolved, POSTGRES_MIGRATIONS_DIR);
  return openServiceStore(resolved);
}
