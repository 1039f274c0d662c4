import Database from "better-sqlite3";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { applySqliteMigrations } from "../../lib/migrations";
import { migrationsBefore } from "../support/migrations-before";
import { RATES_AFTER, RATES_BEFORE, RATES_MIGRATION } from "../support/rates-migration";
import { temporaryDirectory } from "../support/temporary-directory";

// The migration that moved each shipment's quote rows into its `rates` column (docs/decisions/048), on SQLite; the
// PostgreSQL migration is held to the same outcome in test/postgres/migrations.test.ts.
const MIGRATIONS = resolve(import.meta.dirname, "..", "..", "prisma", "migrations");

it("GIVEN quote rows before the migration THEN each quoted shipment holds its rates as Quote objects, one being quoted again none, and the Quote table is gone", () => {
  const { before, from } = migrationsBefore(MIGRATIONS, RATES_MIGRATION.sqlite);
  const file = join(temporaryDirectory("rates-migration-"), "app.sqlite");
  expect(applySqliteMigrations(file, before)).not.toContain(RATES_MIGRATION.sqlite);
  const db = new Database(file);
  try {
    for (const statement of RATES_BEFORE) db.exec(statement);
  } finally {
    db.close();
  }

  expect(applySqliteMigrations(file, MIGRATIONS)).toEqual(from);
  const after = new Database(file, { readonly: true });
  try {
    const rows = after.prepare(`SELECT "id", "rates" FROM "Shipment"`).all() as Array<{ id: string; rates: string | null }>;
    expect(Object.fromEntries(rows.map((row) => [row.id, row.rates === null ? null : JSON.parse(row.rates)]))).toEqual(RATES_AFTER);
    expect(after.prepare(`SELECT "name" FROM "sqlite_master" WHERE "name" = 'Quote'`).all()).toEqual([]);
  } finally {
    after.close();
  }
});
