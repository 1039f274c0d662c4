import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { databaseProviderOf } from "./database-provider";

/**
 * The Prisma CLI's configuration for one database of the repository (the app's, the service's): the JS
 * schema engine through the driver adapter the URL selects (docs/decisions/002), and the schema and
 * migrations of that provider: SQLite's, or PostgreSQL's generated from it (docs/decisions/012). Paths are
 * relative to the config file.
 */
export function prismaConfigFor(url: string, paths: Record<"sqlite" | "postgresql", { schema: string; migrations: string }>) {
  const provider = databaseProviderOf(url);
  return defineConfig({
    experimental: { adapter: true },
    engine: "js",
    schema: paths[provider].schema,
    migrations: { path: paths[provider].migrations },
    async adapter() {
      return provider === "postgresql" ? new PrismaPg({ connectionString: url }) : new PrismaBetterSQLite3({ url });
    },
  });
}
