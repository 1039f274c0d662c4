// `npm run db:migrate`: applies the app's pending migrations to DATABASE_URL (from the environment, else
// .env, else the embedded SQLite default), SQLite or PostgreSQL, recording them as Prisma does.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { resolveDatabaseUrl } from "../app/db/db-url";
import { migrateAppDatabase } from "../app/db/db-migrations";

const envFile = join(import.meta.dirname, "..", ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
const url = resolveDatabaseUrl(process.env.DATABASE_URL);
const applied = await migrateAppDatabase(url);
const where = url.startsWith("file:") ? url : url.replace(/\/\/[^@/]*@/, "//");
console.log(applied.length === 0 ? `db:migrate: ${where} is up to date` : `db:migrate: applied ${applied.join(", ")} to ${where}`);
