import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { resolveDatabaseUrl } from "./app/db-url";
import { databaseProviderOf } from "./lib/database-provider";

// Prisma's native engines cannot be downloaded here, so the CLI runs the JS schema engine through the
// same driver adapter the app uses (docs/decisions/002-prisma-driver-adapters.md). DATABASE_URL selects
// the schema: SQLite's (the source of truth) or the PostgreSQL one generated from it, each with its own
// migrations (docs/decisions/012-postgresql.md). `npm run db:migrate` applies either without the CLI.
process.env.DATABASE_URL = resolveDatabaseUrl(process.env.DATABASE_URL);
const url = process.env.DATABASE_URL;
const postgres = databaseProviderOf(url) === "postgresql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: postgres ? "prisma/postgres/migrations" : "prisma/migrations" },
  async adapter() {
    return postgres ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
  },
});
