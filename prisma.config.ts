import { resolveDatabaseUrl } from "./app/db/db-url";
import { prismaConfigFor } from "./lib/prisma-config";

// Prisma's native engines cannot be downloaded here, so the CLI runs the JS schema engine through the
// same driver adapter the app uses (docs/decisions/002-prisma-driver-adapters.md). DATABASE_URL selects
// the schema: SQLite's (the source of truth) or the PostgreSQL one generated from it, each with its own
// migrations (docs/decisions/012-postgresql.md). `npm run db:migrate` applies either without the CLI.
process.env.DATABASE_URL = resolveDatabaseUrl(process.env.DATABASE_URL);

export default prismaConfigFor(process.env.DATABASE_URL, {
  sqlite: { schema: "prisma/schema.prisma", migrations: "prisma/migrations" },
  postgresql: { schema: "prisma/postgres/schema.prisma", migrations: "prisma/postgres/migrations" },
});
