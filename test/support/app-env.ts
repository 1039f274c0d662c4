import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { temporaryDirectory } from "./temporary-directory";

const root = join(import.meta.dirname, "..", "..");

/**
 * A fresh SQLite file with the app's migrations applied, as `prisma migrate deploy` would apply them; removed after
 * the test file (or when the process exits).
 */
export function freshAppDatabase(): string {
  const file = join(temporaryDirectory("consign-app-"), "app.sqlite");
  const db = new Database(file);
  const migrations = join(root, "prisma", "migrations");
  for (const name of readdirSync(migrations).filter((entry) => /^\d+_/.test(entry)).sort()) {
    db.exec(readFileSync(join(migrations, name, "migration.sql"), "utf8"));
  }
  db.close();
  return `file:${file}`;
}

export const TEST_API_KEY = "consign-test-api-key";
export const TEST_API_SECRET = "consign-test-api-secret";
export const TEST_ENCRYPTION_KEY = "ab".repeat(32);

/** Sets the environment the app's config module parses; call before importing app modules. */
export function useAppEnvironment(overrides: Record<string, string> = {}): { databaseUrl: string } {
  const databaseUrl = freshAppDatabase();
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
