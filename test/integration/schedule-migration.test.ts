import Database from "better-sqlite3";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { applySqliteMigrations } from "../../lib/migrations";
import { migrationsBefore } from "../support/migrations-before";
import { byShipment, SCHEDULE_AFTER, SCHEDULE_BEFORE, SCHEDULE_MIGRATION, schedulesQuery } from "../support/schedule-migration";
import { temporaryDirectory } from "../support/temporary-directory";

// The migration that moved a followed shipment's schedule into its own table (docs/decisions/055), on SQLite; the
// PostgreSQL migration is held to the same outcome in test/postgres/migrations.test.ts.
const MIGRATIONS = resolve(import.meta.dirname, "..", "..", "prisma", "migrations");

it("GIVEN shipments before the schedule migration THEN every one ever followed has a schedule, due only while followed, and the shipment's own columns are gone", () => {
  const { before, from: fromSchedule } = migrationsBefore(MIGRATIONS, SCHEDULE_MIGRATION.sqlite);
  const file = join(temporaryDirectory("schedule-migration-"), "app.sqlite");
  expect(applySqliteMigrations(file, before)).not.toContain(SCHEDULE_MIGRATION.sqlite);
  const db = new Database(file);
  try {
    for (const statement of SCHEDULE_BEFORE) db.exec(statement);
  } finally {
    db.close();
  }

  expect(applySqliteMigrations(file, MIGRATIONS)).toEqual(fromSchedule);
  const after = new Database(file, { readonly: true });
  try {
    const rows = after.prepare(schedulesQuery((column) => `strftime('%Y-%m-%dT%H:%M:%SZ', ${column})`)).all() as Array<{ id: string }>;
    expect(byShipment(rows)).toEqual(SCHEDULE_AFTER);
    const columns = (after.prepare(`PRAGMA table_info("Shipment")`).all() as Array<{ name: string }>).map((column) => column.name);
    expect(columns).not.toContain("nextTrackAt");
    expect(columns).toContain("trackingState");
  } finally {
    after.close();
  }
});
