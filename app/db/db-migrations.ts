import { join } from "node:path";
import { applyMigrationsFor, type MigrationFolders } from "../../lib/migrations";

/** The app's migrations: SQLite's, and PostgreSQL's for the schema generated from it (docs/decisions/012). */
export const APP_MIGRATIONS: MigrationFolders = {
  sqlite: join(import.meta.dirname, "..", "..", "prisma", "migrations"),
  postgresql: join(import.meta.dirname, "..", "..", "prisma", "postgres", "migrations"),
};

/** Applies the app's pending migrations to the database `url` names (`npm run db:migrate`, the tests). */
export function migrateAppDatabase(url: string): Promise<string[]> {
  return applyMigrationsFor(url, APP_MIGRATIONS);
}
