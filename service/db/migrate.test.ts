import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, MIGRATIONS_DIR } from "./migrate";

const dir = mkdtempSync(join(tmpdir(), "service-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A table's SQL as SQLite keeps it, spacing aside: a column a migration adds (ALTER TABLE … ADD COLUMN) is kept as
 * `… NOT NULL , "x" INTEGER)` where the table created whole reads `… NOT NULL, "x" INTEGER )`.
 */
function normalizedSql(sql: string): string {
  return sql
    .replace(/\s+/g, " ")
    .replace(/ ([,)])/g, "$1")
    .replace(/\( /g, "(");
}

function schemaOf(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return (
      db
        .prepare(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '_prisma_migrations%' AND name NOT LIKE 'sqlite_%' ORDER BY type, name`)
        .all() as { type: string; name: string; sql: string }[]
    ).map((row) => `${row.type} ${row.name}: ${normalizedSql(row.sql)}`);
  } finally {
    db.close();
  }
}

describe("service migrations", () => {
  it("GIVEN an empty file THEN applies every migration once, records it for Prisma, and switches to WAL", () => {
    const path = join(dir, "fresh.sqlite");
    const migrations = readdirSync(MIGRATIONS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(applyMigrations(path)).toHaveLength(migrations.length);
    expect(applyMigrations(path)).toEqual([]);
    const db = new Database(path);
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      const recorded = db.prepare(`SELECT migration_name, checksum, finished_at FROM _prisma_migrations`).all() as {
        checksum: string;
        finished_at: number | null;
      }[];
      expect(recorded).toHaveLength(migrations.length);
      expect(recorded[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(recorded[0]!.finished_at).not.toBeNull();
    } finally {
      db.close();
    }
  });

  it("GIVEN schema.prisma THEN the migrations produce exactly the tables it describes", () => {
    const root = resolve(import.meta.dirname, "..", "..");
    const script = execFileSync(
      join(root, "node_modules", ".bin", "prisma"),
      ["migrate", "diff", "--config", "service/prisma.config.ts", "--from-empty", "--to-schema-datamodel", "service/prisma/schema.prisma", "--script"],
      {
        cwd: root,
        env: { ...process.env, SHIPPING_SERVICE_DATABASE_URL: `file:${join(dir, "cli.sqlite")}` },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    const fromSchema = join(dir, "from-schema.sqlite");
    const db = new Database(fromSchema);
    db.exec(script);
    db.close();
    const fromMigrations = join(dir, "from-migrations.sqlite");
    applyMigrations(fromMigrations);
    expect(schemaOf(fromMigrations)).toEqual(schemaOf(fromSchema));
  }, 30_000);
});
