import { createRequire } from "node:module";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { PayloadBindingClient, sqliteBindingPayloads } from "./bound-payloads.server";
import { databaseProviderOf, type DatabaseProvider } from "../../lib/database-provider";

/**
 * The app's Prisma client for DATABASE_URL: SQLite (`file:`) through better-sqlite3, the embedded default,
 * or PostgreSQL (`postgres://`, `postgresql://`) through node-postgres (docs/decisions/012-postgresql.md).
 *
 * Prisma generates one client per provider; the PostgreSQL one comes from prisma/postgres/schema.prisma,
 * which is generated from prisma/schema.prisma (a test holds them equal), so both clients have the same
 * models and API and the app types them with the SQLite client's types. It is loaded only when selected.
 */
export function createPrismaClient(databaseUrl: string): PrismaClient {
  const provider = databaseProviderOf(databaseUrl);
  const client =
    provider === "sqlite"
      ? new PrismaClient({ adapter: durableSqlite(databaseUrl) })
      : withSqliteTextMatching(new (loadPostgresClient().PrismaClient)({ adapter: postgresBindingPayloads(databaseUrl) }));
  providers.set(client, provider);
  return client;
}

/** The database each client made by {@link createPrismaClient} talks to. */
const providers = new WeakMap<PrismaClient, DatabaseProvider>();

/**
 * The database the context's client talks to, whose SQL its statements are written in: the one
 * {@link createPrismaClient} made it for; SQLite for any other client (an interactive transaction's among them),
 * the stricter database (its bound values) and the embedded default.
 */
export function databaseOf(ctx: { db: PrismaClient }): DatabaseProvider {
  return providers.get(ctx.db) ?? "sqlite";
}

/**
 * better-sqlite3 through Prisma, each connection syncing every commit to disk (`synchronous = FULL`). The file is
 * in WAL mode (lib/migrations.ts switches it when it migrates), where better-sqlite3's build defaults to NORMAL:
 * a commit that a power cut could still undo. The app's exactly-once rules rest on intents recorded before each
 * Shopify write and Shipping API booking, so a committed intent must survive one (docs/decisions/005). Its
 * connection binds the set-based writes' payloads itself (docs/decisions/049).
 */
function durableSqlite(url: string) {
  const factory = new PrismaBetterSQLite3({ url });
  return {
    provider: "sqlite" as const,
    adapterName: factory.adapterName,
    async connect() {
      const adapter = await factory.connect();
      await adapter.executeScript("PRAGMA synchronous = FULL");
      // SQLite's own default page cache, 2 MB (better-sqlite3 builds with 16 MB): the file's pages are in the
      // system's cache too, and the larger one was 15–20 MB more of the app's peak memory for no faster quote run.
      await adapter.executeScript("PRAGMA cache_size = -2000");
      sqliteBindingPayloads(sqliteConnectionOf(adapter));
      return adapter;
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}

/**
 * The better-sqlite3 database the adapter runs every statement on (its `client`, which its types do not name; the
 * adapter's version is pinned, and the suite's set-based writes fail at once if it moves).
 */
function sqliteConnectionOf(adapter: object): Parameters<typeof sqliteBindingPayloads>[0] {
  const connection = (adapter as { client?: { prepare?: unknown } }).client;
  if (typeof connection?.prepare !== "function") throw new Error("Prisma's SQLite adapter no longer keeps its connection as `client` (docs/decisions/049).");
  return connection as Parameters<typeof sqliteBindingPayloads>[0];
}

/**
 * node-postgres through Prisma, on a pool whose connections bind the set-based writes' payloads themselves
 * (docs/decisions/049); the pool ends with the Prisma client.
 */
function postgresBindingPayloads(connectionString: string): PrismaPg {
  return new PrismaPg(new pg.Pool({ connectionString, Client: PayloadBindingClient }), { disposeExternalPool: true });
}

type PostgresClientModule = typeof import(".prisma/postgres-client");

function loadPostgresClient(): PostgresClientModule {
  // Required at run time, not bundled: the generated client finds its query compiler beside itself.
  return createRequire(import.meta.url)(".prisma/postgres-client") as PostgresClientModule;
}

const TEXT_MATCHES = ["contains", "startsWith", "endsWith"] as const;
const STRING_FILTER_KEYS = new Set(["equals", "in", "notIn", "lt", "lte", "gt", "gte", "not", "mode", ...TEXT_MATCHES]);

/**
 * SQLite's LIKE, behind Prisma's `contains`, `startsWith` and `endsWith`, ignores case; PostgreSQL's is
 * case-sensitive unless the filter says `mode: "insensitive"`, which the SQLite client's types do not
 * offer. So the PostgreSQL client adds it to every text match, and a search finds the same rows on both.
 */
function withSqliteTextMatching(client: InstanceType<PostgresClientModule["PrismaClient"]>): PrismaClient {
  const extended = client.$extends({
    query: {
      $allModels: {
        async $allOperations({ args, query }) {
          return query(insensitiveTextMatches(args) as typeof args);
        },
      },
    },
  });
  return extended as unknown as PrismaClient;
}

/**
 * `args` with `mode: "insensitive"` added to each string filter that matches text (exported for its test).
 * What holds no text match is returned as it is, not copied: a createMany of thousands of rows stays one object.
 */
export function insensitiveTextMatches(args: unknown): unknown {
  if (Array.isArray(args)) {
    const items = args.map(insensitiveTextMatches);
    return items.every((item, index) => item === args[index]) ? args : items;
  }
  if (args === null || typeof args !== "object") return args;
  const prototype: unknown = Object.getPrototypeOf(args);
  if (prototype !== Object.prototype && prototype !== null) return args; // Date, Buffer, Decimal …
  const entries = Object.entries(args);
  const isTextMatch =
    entries.length > 0 &&
    entries.every(([key]) => STRING_FILTER_KEYS.has(key)) &&
    TEXT_MATCHES.some((key) => typeof (args as Record<string, unknown>)[key] === "string");
  if (isTextMatch) return "mode" in args ? args : { ...args, mode: "insensitive" };
  const changed = entries.map(([key, value]): [string, unknown] => [key, insensitiveTextMatches(value)]);
  return changed.every(([, value], index) => value === entries[index]![1]) ? args : Object.fromEntries(changed);
}
