import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { resolveDatabaseUrl } from "./app/db-url";

// Prisma's native engines cannot be downloaded here, so the CLI runs the JS schema engine through the
// same driver adapter the app uses (docs/decisions/002-prisma-driver-adapters.md).
process.env.DATABASE_URL = resolveDatabaseUrl(process.env.DATABASE_URL);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return new PrismaBetterSQLite3({ url: process.env.DATABASE_URL! });
  },
});
