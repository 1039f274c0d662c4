// Writes the PostgreSQL schema files from the SQLite ones (lib/postgres-schema.ts): run it after editing
// prisma/schema.prisma or service/prisma/schema.prisma, then add a PostgreSQL migration (README, "Databases").
import { relative } from "node:path";
import { writePostgresSchemas } from "../lib/postgres-schema";

const changed = writePostgresSchemas();
for (const file of changed) console.log(`db:postgres-schema: wrote ${relative(process.cwd(), file)}`);
