import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applySqliteMigrations } from "../../lib/migrations";

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "prisma", "migrations");
/** The PostgreSQL migrations, for the schema generated from the SQLite one (docs/decisions/012). */
export const POSTGRES_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "prisma", "postgres", "migrations");

/**
 * Applies the service's Prisma migrations that are not yet recorded, on start (lib/migrations.ts writes
 * Prisma's own bookkeeping, so `npm run service:migrate` agrees). It also switches the file to WAL, which
 * persists in the database file, so the service's single writer does not block readers.
 */
export function applyMigrations(sqlitePath: string, dir: string = MIGRATIONS_DIR): string[] {
  return applySqliteMigrations(sqlitePath, dir);
}
