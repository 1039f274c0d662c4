import { dropAppDatabase, freshAppDatabase } from "../support/app-env";
import { createAppPostgresDatabase, TEST_POSTGRES_URL } from "../support/postgres";

export interface BenchDatabase {
  /** "SQLite" or "PostgreSQL <server>", for the figures' header. */
  label: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * The app's database for a bench: `BENCH_DATABASE=postgres` makes one on CONSIGN_TEST_POSTGRES_URL's server
 * (default postgresql://postgres@127.0.0.1:5432/postgres), migrated as `npm run db:migrate` does, and drops it
 * after; otherwise (`sqlite`, the default) a fresh SQLite file.
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const kind = process.env.BENCH_DATABASE ?? "sqlite";
  if (kind === "sqlite") {
    const url = freshAppDatabase();
    return { label: "SQLite", url, drop: async () => dropAppDatabase(url) };
  }
  if (kind !== "postgres") throw new Error(`BENCH_DATABASE must be sqlite or postgres, got ${kind}`);
  const { url, drop } = await createAppPostgresDatabase(`consign_bench_${Date.now()}_${process.pid}`);
  const server = await serverVersion();
  return { label: `PostgreSQL ${server} at ${new URL(TEST_POSTGRES_URL).host}`, url, drop };
}

async function serverVersion(): Promise<string> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>("SHOW server_version")).rows[0]!.server_version.split(" ")[0]!;
  } finally {
    await client.end();
  }
}
