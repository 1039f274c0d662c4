import { prismaConfigFor } from "../lib/prisma-config";
import { resolveServiceDatabaseUrl } from "./db/database-url";

// The service has its own schema and migrations, beside the app's; the CLI uses the JS schema engine
// through the same driver adapter as the service (native engines cannot be downloaded here). A postgres://
// SHIPPING_SERVICE_DATABASE_URL selects the PostgreSQL schema generated from the SQLite one, and its
// migrations (docs/decisions/012-postgresql.md); the service applies either on start without the CLI.
process.env.SHIPPING_SERVICE_DATABASE_URL = resolveServiceDatabaseUrl(process.env.SHIPPING_SERVICE_DATABASE_URL);

export default prismaConfigFor(process.env.SHIPPING_SERVICE_DATABASE_URL, {
  sqlite: { schema: "prisma/schema.prisma", migrations: "prisma/migrations" },
  postgresql: { schema: "prisma/postgres/schema.prisma", migrations: "prisma/postgres/migrations" },
});
