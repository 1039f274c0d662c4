import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { APP_MIGRATIONS } from "../../app/db/db-migrations";
import { isPostgresUrl } from "../../lib/database-provider";
import { applySqliteMigrations } from "../../lib/migrations";
import { sqlitePathOf } from "../../lib/sqlite-url";
import { dropPostgresDatabase, freshPostgresDatabase, postgresRun } from "./postgres";
import { temporaryDirectory } from "./temporary-directory";

/**
 * A fresh app database with the app's migrations applied, as `npm run db:migrate` applies them: a SQLite file,
 * removed after the test file (or when the process exits), or on the PostgreSQL tier (vitest.postgres.config.ts)
 * a PostgreSQL database of the run, dropped at the run's end.
 */
export function freshAppDatabase(): string {
  if (postgresRun()) return freshPostgresDatabase("app");
  const file = join(temporaryDirectory("consign-app-"), "app.sqlite");
  applySqliteMigrations(file, APP_MIGRATIONS.sqlite);
  return `file:${file}`;
}

/** Removes a database made by `freshAppDatabase`. */
export function dropAppDatabase(url: string): void {
  if (isPostgresUrl(url)) dropPostgresDatabase(url);
  else rmSync(dirname(sqlitePathOf(url)), { recursive: true, force: true });
}

export const TEST_API_KEY = "consign-test-api-key";
export const TEST_API_SECRET = "consign-test-api-secret";
export const TEST_ENCRYPTION_KEY = "ab".repeat(32);

/**
 * Sets the environment the app's config module parses; call before importing app modules. The app's database is
 * a fresh one (`freshAppDatabase`) unless `overrides` names one.
 */
export function useAppEnvironment(overrides: Record<string, string> = {}): { databaseUrl: string } {
  const databaseUrl = overrides.DATABASE_URL ?? freshAppDatabase();
  Object.assign(process.env, {
    NODE_ENV: "test",
    SHOPIFY_API_KEY: TEST_API_KEY,
    SHOPIFY_API_SECRET: TEST_API_SECRET,
    SHOPIFY_APP_URL: "http://localhost:3000",
    SCOPES: "read_orders,write_fulfillments",
    DATABASE_URL: databaseUrl,
    CONSIGN_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...overrides,
  });
  return { databaseUrl };
}
