import { execFileSync } from "node:child_process";
import pg from "pg";
import { migrateAppDatabase } from "../../app/db/db-migrations";
import { applyPostgresMigrations } from "../../lib/migrations";
import { POSTGRES_MIGRATIONS_DIR } from "../../service/db/migrate";

/**
 * PostgreSQL for the tests' PostgreSQL tier (vitest.postgres.config.ts): each run creates its own databases,
 * named `consign_test_<start time>_<pid>_…`, and drops them at the end, even when tests fail.
 *
 * The tier's global setup migrates one template database per schema (the app's, the service's); each test
 * file then gets a fresh copy (CREATE DATABASE … TEMPLATE), as it gets a fresh SQLite file on the default tier.
 */

/** A maintenance database to connect to for CREATE and DROP DATABASE (trust auth on the test machine). */
export const TEST_POSTGRES_URL = process.env.CONSIGN_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** The environment variable the global setup sets to the run's database name prefix; unset on the SQLite tier. */
export const POSTGRES_RUN_VARIABLE = "CONSIGN_TEST_POSTGRES_RUN";

export type TemplateKind = "app" | "service";

/** The run's prefix when the tests run on PostgreSQL, else undefined. */
export function postgresRun(): string | undefined {
  return process.env[POSTGRES_RUN_VARIABLE] || undefined;
}

export function templateName(run: string, kind: TemplateKind): string {
  return `${run}_${kind}_template`;
}

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The database a PostgreSQL URL names. */
export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** Answers within a second, or the reason it does not. */
export async function postgresProblem(url = TEST_POSTGRES_URL): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs statements on the maintenance database, one after another. */
export async function onServer(statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query("SET client_min_messages = warning");
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

export function quoteIdentifier(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Not a test database name: ${name}`);
  return `"${name}"`;
}

/**
 * The same as `onServer`, synchronously (in a child process): the tests' environment is set up synchronously
 * before the app's modules are imported (test/support/app-env.ts).
 */
export function onServerSync(statements: string[]): void {
  const script = `
    const pg = require("pg");
    const [url, ...statements] = process.argv.slice(1);
    const client = new pg.Client({ connectionString: url });
    (async () => {
      await client.connect();
      await client.query("SET client_min_messages = warning");
      for (const statement of statements) await client.query(statement);
      await client.end();
    })().catch((error) => { console.error(error.message); process.exit(1); });`;
  execFileSync(process.execPath, ["-e", script, TEST_POSTGRES_URL, ...statements], { stdio: ["ignore", "ignore", "pipe"] });
}

let copies = 0;

/** A fresh database migrated like the template of `kind`, for this test process; returns its URL. */
export function freshPostgresDatabase(kind: TemplateKind): string {
  const run = postgresRun();
  if (!run) throw new Error(`${POSTGRES_RUN_VARIABLE} is not set: PostgreSQL databases are made by vitest.postgres.config.ts`);
  const name = `${run}_${kind}_${process.pid}_${++copies}`;
  onServerSync([`CREATE DATABASE ${quoteIdentifier(name)} TEMPLATE ${quoteIdentifier(templateName(run, kind))}`]);
  return databaseUrl(name);
}

/** An empty database of this run (nothing migrated), for what migrates on start; returns its URL. */
export async function emptyPostgresDatabase(): Promise<string> {
  const run = postgresRun();
  if (!run) throw new Error(`${POSTGRES_RUN_VARIABLE} is not set: PostgreSQL databases are made by vitest.postgres.config.ts`);
  const name = `${run}_empty_${process.pid}_${++copies}`;
  await onServer([`CREATE DATABASE ${quoteIdentifier(name)}`]);
  return databaseUrl(name);
}

/** Drops a database of this run now (the global teardown drops whatever is left). */
export function dropPostgresDatabase(url: string): void {
  onServerSync([`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseNameOf(url))} WITH (FORCE)`]);
}

/** Every database on the server whose name starts with `prefix`. */
export async function databasesStartingWith(prefix: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    const rows = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`, [prefix]);
    return rows.rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

/**
 * A new database `name` on the test server with the app's migrations applied, as `npm run db:migrate` applies
 * them (or the service's, as it applies them on start), for a bench or a test that runs processes of its own;
 * `drop` removes it.
 */
export async function createAppPostgresDatabase(name: string, kind: TemplateKind = "app"): Promise<{ url: string; drop(): Promise<void> }> {
  const drop = () => onServer([`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`]);
  await onServer([`CREATE DATABASE ${quoteIdentifier(name)}`]);
  const url = databaseUrl(name);
  try {
    if (kind === "app") await migrateAppDatabase(url);
    else await applyPostgresMigrations(url, POSTGRES_MIGRATIONS_DIR);
  } catch (error) {
    await drop();
    throw error;
  }
  return { url, drop };
}
