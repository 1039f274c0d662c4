import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { resolveServiceDatabaseUrl } from "./db/database-url";

// The service has its own schema and migrations, beside the app's; the CLI uses the JS schema engine
// through the same driver adapter as the service (native engines cannot be downloaded here).
process.env.SHIPPING_SERVICE_DATABASE_URL = resolveServiceDatabaseUrl(process.env.SHIPPING_SERVICE_DATABASE_URL);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return new PrismaBetterSQLite3({ url: process.env.SHIPPING_SERVICE_DATABASE_URL! });
  },
});
