import Database from "better-sqlite3";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { sqlitePathOf } from "./sqlite-url";
import { databaseProviderOf } from "./database-provider";

/**
 * Applies a folder of Prisma migrations that are not yet recorded, on SQLite or PostgreSQL, for the app
 * (`npm run db:migrate`, the tests) and the Shipping API service (on start).
 *
 * Why not `prisma migrate deploy`: spawning the CLI costs seconds per start (and per test suite), and
 * Prisma's JS schema engine (the only one that runs here) cannot apply PostgreSQL migrations unpatched
 * (docs/decisions/012-postgresql.md). This writes the same `_prisma_migrations` bookkeeping as Prisma
 * (sha256 checksum of migration.sql, one row per migration, in the table Prisma creates), so the CLI's
 * `migrate status` and `deploy` agree with what was applied here. Each migration runs in one transaction
 * with its bookkeeping row.
 */

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** Every migration of `dir` (folders with a migration.sql), in name order. */
export function migrationsIn(dir: string): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Prisma's bookkeeping table, as its schema engine creates it on each provider. */
const BOOKKEEPING = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL,
    "checksum" TEXT NOT NULL,
    "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL,
    "logs" TEXT,
    "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`,
};

const APPLIED = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

/** The key of the advisory lock Prisma's schema engine takes while migrating PostgreSQL: both exclude each other. */
const PRISMA_MIGRATE_LOCK = 72707369;

function pending(dir: string, applied: Iterable<string>): Migration[] {
  const done = new Set(applied);
  return migrationsIn(dir).filter((migration) => !done.has(migration.name));
}

/**
 * Applies the pending migrations of `dir` to a SQLite file (synchronously: the service opens its store
 * synchronously), first switching it to WAL, which persists in the file: a commit then writes and syncs the
 * log once instead of a rollback journal and the database (synchronous stays FULL, so a commit survives a
 * power cut too), and readers do not wait for a writer. The app's and the service's files are both made here.
 */
export function applySqliteMigrations(sqlitePath: string, dir: string): string[] {
  const db = new Database(sqlitePath);
  try {
    db.pragma("journal_mode = WAL");
    db.exec(BOOKKEEPING.sqlite);
    const todo = pending(
      dir,
      (db.prepare(APPLIED).all() as { migration_name: string }[]).map((row) => row.migration_name),
    );
    for (const migration of todo) {
      db.transaction(() => {
        db.exec(migration.sql);
        db.prepare(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), migration.checksum, Date.now(), migration.name, Date.now());
      })();
    }
    return todo.map((migration) => migration.name);
  } finally {
    db.close();
  }
}

/**
 * Applies the pending migrations of `dir` to a PostgreSQL database, under Prisma's migration lock, so
 * instances starting together migrate once.
 */
export async function applyPostgresMigrations(url: string, dir: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET client_min_messages = warning");
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(BOOKKEEPING.postgresql);
    const todo = pending(
      dir,
      (await client.query<{ migration_name: string }>(APPLIED)).rows.map((row) => row.migration_name),
    );
    for (const migration of todo) {
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), migration.checksum, migration.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new MigrationFailedError(migration.name, error);
      }
    }
    return todo.map((migration) => migration.name);
  } finally {
    await client.end();
  }
}

export class MigrationFailedError extends Error {
  override name = "MigrationFailedError";
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`Migration ${migration} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The migration folders of each database, by provider. */
export interface MigrationFolders {
  sqlite: string;
  postgresql: string;
}

/** Applies `folders`' migrations for whichever database `url` names; returns the names applied. */
export async function applyMigrationsFor(url: string, folders: MigrationFolders): Promise<string[]> {
  return databaseProviderOf(url) === "sqlite" ? applySqliteMigrations(sqlitePathOf(url), folders.sqlite) : applyPostgresMigrations(url, folders.postgresql);
}
