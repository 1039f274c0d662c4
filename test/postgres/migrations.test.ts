import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { APP_MIGRATIONS } from "../../app/db/db-migrations";
import { applyPostgresMigrations, migrationsIn } from "../../lib/migrations";
import { SCHEMA_PAIRS } from "../../lib/postgres-schema";
import { databaseUrl, onServer, postgresRun, quoteIdentifier } from "../support/postgres";
import { RATES_AFTER, RATES_BEFORE, RATES_MIGRATION } from "../support/rates-migration";
import { migrationsBefore } from "../support/migrations-before";
import { byShipment, SCHEDULE_AFTER, SCHEDULE_BEFORE, SCHEDULE_MIGRATION, schedulesQuery } from "../support/schedule-migration";

// PostgreSQL tier only (vitest.postgres.config.ts; outside test/integration, so the SQLite pass leaves it out): the committed PostgreSQL migrations produce exactly the
// database the generated PostgreSQL schema describes, and the migrator records them as Prisma does, once,
// even when instances start together.
const root = join(import.meta.dirname, "..", "..");
const run = postgresRun();
if (!run) throw new Error("Run with vitest.postgres.config.ts: it creates this run's PostgreSQL databases");
const work = mkdtempSync(join(tmpdir(), "consign-pg-migrations-"));
let made = 0;
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function emptyDatabase(): Promise<string> {
  const name = `${run}_migrations_${++made}`;
  await onServer([`CREATE DATABASE ${quoteIdentifier(name)}`]);
  return databaseUrl(name);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Tables, columns, indexes and constraints of the public schema, Prisma's bookkeeping left out. */
async function catalogOf(url: string): Promise<string[]> {
  const rows = await query<{ line: string }>(
    url,
    `SELECT format('column %s.%s %s %s default %s', table_name, column_name, data_type, is_nullable, coalesce(column_default, '-')) AS line
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
     UNION ALL
     SELECT format('index %s', indexdef) FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
     UNION ALL
     SELECT format('constraint %s on %s: %s', c.conname, t.relname, pg_get_constraintdef(c.oid))
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
     ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}

/**
 * Indexes the app's PostgreSQL migrations make partial, which Prisma's schema cannot say (docs/decisions/052): each
 * holds only the shipments that have a value in its column. The catalogs are compared without these predicates, and
 * a test of its own holds them.
 */
const SPARSE_SHIPMENT_INDEXES: Record<string, string> = {
  Shipment_shop_fulfillmentId_idx: "fulfillmentId",
  Shipment_shop_returnId_idx: "returnId",
  Shipment_inBoxOf_shop_idx: "inBoxOf",
  Shipment_boxReturn_shop_idx: "boxReturn",
  Shipment_batchId_shop_idx: "batchId",
  Shipment_shop_deliveredAt_idx: "deliveredAt",
  Shipment_shop_signalsDueAt_idx: "signalsDueAt",
  Shipment_labelToken_key: "labelToken",
};
const sparsePredicate = (column: string) => ` WHERE ("${column}" IS NOT NULL)`;

/** A catalog's lines with the sparse indexes' predicates taken off, each checked to be there first. */
function withoutSparsePredicates(catalog: string[]): string[] {
  return catalog.map((line) => {
    const name = /^index CREATE (?:UNIQUE )?INDEX "([^"]+)"/.exec(line)?.[1];
    const column = name === undefined ? undefined : SPARSE_SHIPMENT_INDEXES[name];
    if (column === undefined) return line;
    expect(line.endsWith(sparsePredicate(column)), line).toBe(true);
    return line.slice(0, -sparsePredicate(column).length);
  });
}

/** The SQL Prisma writes for a schema on an empty database (no database needed to render it). */
function scriptFor(schema: string): string {
  return execFileSync(join(root, "node_modules", ".bin", "prisma"), ["migrate", "diff", "--from-empty", "--to-schema-datamodel", schema, "--script"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: `file:${join(work, "unused.sqlite")}` },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
}

const MIGRATION_FOLDERS = {
  app: APP_MIGRATIONS.postgresql,
  service: join(root, "service", "prisma", "postgres", "migrations"),
};

describe("PostgreSQL migrations", () => {
  it.each(["app", "service"] as const)(
    "GIVEN the %s's generated PostgreSQL schema THEN its migrations produce exactly the tables, indexes and constraints it describes",
    async (which) => {
      const fromMigrations = await emptyDatabase();
      await applyPostgresMigrations(fromMigrations, MIGRATION_FOLDERS[which]);
      const fromSchema = await emptyDatabase();
      await query(fromSchema, scriptFor(SCHEMA_PAIRS[which].target));
      const expected = await catalogOf(fromSchema);
      expect(expected.length).toBeGreaterThan(20);
      const migrated = await catalogOf(fromMigrations);
      expect(
        which === "app" ? withoutSparsePredicates(migrated) : migrated,
        "run `npm run db:postgres-migration -- <name>` after changing the SQLite schema",
      ).toEqual(expected);
    },
    60_000,
  );

  it("GIVEN three instances migrating one empty database at once THEN each migration is applied and recorded once, as Prisma records it", async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([1, 2, 3].map(() => applyPostgresMigrations(url, APP_MIGRATIONS.postgresql)));
    const names = migrationsIn(APP_MIGRATIONS.postgresql).map((migration) => migration.name);
    expect(results.flat().sort()).toEqual(names);
    expect(await applyPostgresMigrations(url, APP_MIGRATIONS.postgresql)).toEqual([]);
    const recorded = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(recorded.map((row) => row.migration_name)).toEqual(names);
    expect(recorded.map((row) => row.checksum)).toEqual(migrationsIn(APP_MIGRATIONS.postgresql).map((migration) => migration.checksum));
    expect(recorded.every((row) => row.finished_at instanceof Date && row.applied_steps_count === 1)).toBe(true);
  });

  it("GIVEN a migration that fails THEN nothing of it stays and it is not recorded, and the error names it", async () => {
    const url = await emptyDatabase();
    const folder = mkdtempSync(join(work, "broken-"));
    mkdirSync(join(folder, "20990101000000_ok"));
    mkdirSync(join(folder, "20990102000000_broken"));
    writeFileSync(join(folder, "20990101000000_ok", "migration.sql"), `CREATE TABLE "Kept" ("id" TEXT PRIMARY KEY);`);
    writeFileSync(join(folder, "20990102000000_broken", "migration.sql"), `CREATE TABLE "Half" ("id" TEXT PRIMARY KEY);\nSELECT no_such_function();`);
    await expect(applyPostgresMigrations(url, folder)).rejects.toThrowError(/Migration 20990102000000_broken failed/);
    const tables = await query<{ table_name: string }>(url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`);
    expect(tables.map((row) => row.table_name)).toEqual(["Kept", "_prisma_migrations"]);
    const recorded = await query<{ migration_name: string }>(url, `SELECT migration_name FROM "_prisma_migrations"`);
    expect(recorded.map((row) => row.migration_name)).toEqual(["20990101000000_ok"]);
  });

  it("GIVEN the app's migrations WHEN quoted shipments' rates are quoted again THEN their pages were left half free and each rewrite is a heap-only update, adding no index entries", async () => {
    const url = await emptyDatabase();
    await applyPostgresMigrations(url, APP_MIGRATIONS.postgresql);
    const [options] = await query<{ reloptions: string[] | null }>(url, `SELECT reloptions FROM pg_class WHERE relname = 'Shipment'`);
    expect(options?.reloptions).toEqual(["fillfactor=50"]);
    const ratesAt = (amount: string) =>
      JSON.stringify(Array.from({ length: 9 }, (_, index) => ({ quoteId: index + 1, serviceDescription: "Priority Mail International", totalAmount: amount })));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO "Shipment" ("id", "shop", "orderId", "orderName", "fulfillmentOrderId", "lines", "request", "updatedAt", "rates", "selectedQuoteId", "quoteStatus")
         SELECT 's' || n, 'hot.myshopify.com', 'o' || n, '#' || n, 'fo' || n, '[]', '{"receiver":{"country":"US"}}', now(), $1, 1, 'QUOTED'
           FROM generate_series(1, 300) AS n`,
        [ratesAt("54.90")],
      );
      // Quoted again: new rates of the same size, a new pick. In one transaction, whose own counts pg_stat_xact_user_tables gives at once.
      await client.query("BEGIN");
      await client.query(`UPDATE "Shipment" SET "rates" = $1, "selectedQuoteId" = 2, "quotedAt" = now(), "updatedAt" = now()`, [ratesAt("61.25")]);
      const [counts] = (
        await client.query<{ updated: string; heapOnly: string }>(
          `SELECT n_tup_upd AS "updated", n_tup_hot_upd AS "heapOnly" FROM pg_stat_xact_user_tables WHERE relname = 'Shipment'`,
        )
      ).rows;
      expect(counts).toEqual({ updated: "300", heapOnly: "300" });
      await client.query("ROLLBACK");
    } finally {
      await client.end();
    }
  });

  it("GIVEN the app's migrations THEN each sparse index serves a lookup by its column, and a quote's rates are compressed with LZ4 where the server has it", async () => {
    const url = await emptyDatabase();
    await applyPostgresMigrations(url, APP_MIGRATIONS.postgresql);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The planner is made to use an index where one serves, as it would on a table of a busy shop's size.
      await client.query("SET enable_seqscan = off");
      const lookups: Record<string, string> = {
        fulfillmentId: `"fulfillmentId" = $1 AND "shop" = $2`,
        returnId: `"returnId" = $1 AND "shop" = $2`,
        inBoxOf: `"inBoxOf" = $1 AND "shop" = $2`,
        boxReturn: `"boxReturn" = $1 AND "shop" = $2`,
        batchId: `"batchId" = $1 AND "shop" = $2`,
        deliveredAt: `"deliveredAt" >= $1::timestamp AND "shop" = $2`,
        signalsDueAt: `"signalsDueAt" <= $1::timestamp AND "shop" = $2`,
        labelToken: `"labelToken" = $1 AND "shop" = $2`,
      };
      for (const [index, column] of Object.entries(SPARSE_SHIPMENT_INDEXES)) {
        const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT "id" FROM "Shipment" WHERE ${lookups[column]}`, [
          column.endsWith("At") ? "2026-11-29 00:00:00" : "x",
          "shop.myshopify.com",
        ]);
        expect(rows.map((row) => row["QUERY PLAN"]).join("\n"), column).toContain(`"${index}"`);
      }
      const lz4 = await client.query("CREATE TEMP TABLE lz4_probe (x text COMPRESSION lz4)").then(
        () => true,
        () => false,
      );
      const [rates] = (
        await client.query<{ method: string }>(
          `SELECT attcompression AS "method" FROM pg_attribute WHERE attrelid = '"Shipment"'::regclass AND attname = 'rates'`,
        )
      ).rows;
      expect(rates?.method).toBe(lz4 ? "l" : "");
    } finally {
      await client.end();
    }
  });

  it("GIVEN quote rows before the rates migration THEN each quoted shipment holds its rates as Quote objects, as on SQLite, and the Quote table is gone", async () => {
    const url = await emptyDatabase();
    // The database as it was before the rates migration: every migration before it, none from it on.
    const { before, from: fromRates } = migrationsBefore(APP_MIGRATIONS.postgresql, RATES_MIGRATION.postgresql);
    expect(await applyPostgresMigrations(url, before)).not.toContain(RATES_MIGRATION.postgresql);
    for (const statement of RATES_BEFORE) await query(url, statement);

    expect(await applyPostgresMigrations(url, APP_MIGRATIONS.postgresql)).toEqual(fromRates);
    const rows = await query<{ id: string; rates: string | null }>(url, `SELECT "id", "rates" FROM "Shipment"`);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.rates === null ? null : JSON.parse(row.rates)]))).toEqual(RATES_AFTER);
    expect(await query(url, `SELECT table_name FROM information_schema.tables WHERE table_name = 'Quote'`)).toEqual([]);
  });

  it("GIVEN shipments before the schedule migration THEN every one ever followed has a schedule, due only while followed, as on SQLite", async () => {
    const url = await emptyDatabase();
    const { before, from: fromSchedule } = migrationsBefore(APP_MIGRATIONS.postgresql, SCHEDULE_MIGRATION.postgresql);
    expect(await applyPostgresMigrations(url, before)).not.toContain(SCHEDULE_MIGRATION.postgresql);
    for (const statement of SCHEDULE_BEFORE) await query(url, statement);

    expect(await applyPostgresMigrations(url, APP_MIGRATIONS.postgresql)).toEqual(fromSchedule);
    const rows = await query<{ id: string }>(
      url,
      schedulesQuery((column) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`),
    );
    expect(byShipment(rows)).toEqual(SCHEDULE_AFTER);
    expect(await query(url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'Shipment' AND column_name = 'nextTrackAt'`)).toEqual([]);
  });
});
