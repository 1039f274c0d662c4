import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { databaseProviderOf } from "../lib/database-provider";
import { resolveServiceDatabaseUrl } from "./db/database-url";

// The service has its own schema and migrations, beside the app's; the CLI uses the JS schema engine
// through the same driver adapter as the service (native engines cannot be downloaded here). A postgres://
// SHIPPING_SERVICE_DATABASE_URL selects the PostgreSQL schema generated from the SQLite one, and its
// migrations (docs/decisions/012-postgresql.md); the service applies either on start without the CLI.
process.env.SHIPPING_SERVICE_DATABASE_URL = resolveServiceDatabaseUrl(process.env.SHIPPING_SERVICE_DATABASE_URL);
const url = process.env.SHIPPING_SERVICE_DATABASE_URL;
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
