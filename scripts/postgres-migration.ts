// Writes the PostgreSQL migration that follows a change to a SQLite schema, and the regenerated PostgreSQL
// schema: `npm run db:postgres-migration -- <name> [app|service]` after adding the SQLite migration.
// The committed PostgreSQL schema is what the PostgreSQL migrations produce (a test holds them equal), so
// the migration is Prisma's diff from it to the schema generated from the edited SQLite source; no
// database is needed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { migrationsIn } from "../lib/migrations";
import { postgresSchemaFrom, SCHEMA_PAIRS, writePostgresSchemas } from "../lib/postgres-schema";

const [name, which = "app"] = process.argv.slice(2);
if (!name || !/^[a-z0-9_]+$/.test(name) || (which !== "app" && which !== "service")) {
  console.error("usage: npm run db:postgres-migration -- <name in snake_case> [app|service]");
  process.exit(2);
}
const pair = SCHEMA_PAIRS[which];
const root = join(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "consign-pg-migration-"));
try {
  const next = join(work, "next.prisma");
  writeFileSync(next, postgresSchemaFrom(readFileSync(pair.source, "utf8"), pair));
  const sql = execFileSync(
    join(root, "node_modules", ".bin", "prisma"),
    ["migrate", "diff", "--from-schema-datamodel", pair.target, "--to-schema-datamodel", next, "--script"],
    { cwd: root, encoding: "utf8", env: { ...process.env, DATABASE_URL: "file:" + join(work, "unused.sqlite") } },
  );
  if (/^-- This is an empty migration\.\s*$/m.test(sql)) {
    console.log("db:postgres-migration: the PostgreSQL schema is already current; nothing to write");
  } else {
    const folder = join(dirname(pair.target), "migrations");
    const file = join(folder, `${nextStamp(folder)}_${name}`, "migration.sql");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, withoutSchemaCreation(sql));
    console.log(`db:postgres-migration: wrote ${relative(root, file)}`);
  }
  writePostgresSchemas([pair]);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** Now as YYYYMMDDHHMMSS, or just after the folder's last migration when that sorts later: migrations apply in name order. */
function nextStamp(folder: string): string {
  const now = BigInt(new Date().toISOString().replace(/\D/g, "").slice(0, 14));
  const last = migrationsIn(folder)
    .at(-1)
    ?.name.match(/^(\d{14})_/)?.[1];
  return String(last !== undefined && BigInt(last) >= now ? BigInt(last) + 1n : now);
}

/** Prisma's diff creates the `public` schema, which needs CREATE on the database; it always exists. */
function withoutSchemaCreation(sql: string): string {
  return sql.replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n/, "");
}
