import Database from "better-sqlite3";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "prisma", "migrations");

/**
 * Applies the service's Prisma migrations that are not yet recorded, on start.
 *
 * Why not `prisma migrate deploy`: spawning the CLI costs seconds per start (and per test suite). This
 * writes the same `_prisma_migrations` bookkeeping (sha256 checksum of migration.sql), so the CLI's
 * `migrate status`/`deploy` agree with what was applied here. It also switches the file to WAL, which
 * persists in the database file, so the service's single writer does not block readers.
 */
export function applyMigrations(sqlitePath: string, dir: string = MIGRATIONS_DIR): string[] {
  const db = new Database(sqlitePath);
  try {
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL,
      "checksum" TEXT NOT NULL,
      "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL,
      "logs" TEXT,
      "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
      "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
    )`);
    const applied = new Set(
      (db.prepare(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`).all() as { migration_name: string }[])
        .map((row) => row.migration_name),
    );
    const names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "migration.sql")))
      .map((entry) => entry.name)
      .sort();
    const newlyApplied: string[] = [];
    for (const name of names) {
      if (applied.has(name)) continue;
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      db.transaction(() => {
        db.exec(sql);
        db.prepare(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), checksum, Date.now(), name, Date.now());
      })();
      newlyApplied.push(name);
    }
    return newlyApplied;
  } finally {
    db.close();
  }
}
