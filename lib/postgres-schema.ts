import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The PostgreSQL schema files are generated from the SQLite ones, so each database has one source of truth
 * (docs/decisions/012-postgresql.md). Prisma takes one `provider` per schema file, so PostgreSQL needs its
 * own file; everything else (models, fields, defaults, indexes, relations) is copied as written. Only the
 * datasource's provider and the generator's output change: the PostgreSQL client is generated beside the
 * SQLite one, under its own name.
 */

export interface SchemaPair {
  /** The SQLite schema: the source of truth, edited by hand. */
  source: string;
  /** The generated PostgreSQL schema, committed (its migrations are written against it). */
  target: string;
  /** The PostgreSQL client's output, relative to the target's folder. */
  clientOutput: string;
}

const root = join(import.meta.dirname, "..");

/** The app's schema and the Shipping API service's. */
export const SCHEMA_PAIRS: Record<"app" | "service", SchemaPair> = {
  app: {
    source: join(root, "prisma", "schema.prisma"),
    target: join(root, "prisma", "postgres", "schema.prisma"),
    clientOutput: "../../node_modules/.prisma/postgres-client",
  },
  service: {
    source: join(root, "service", "prisma", "schema.prisma"),
    target: join(root, "service", "prisma", "postgres", "schema.prisma"),
    clientOutput: "../../generated/postgres",
  },
};

export class SchemaConversionError extends Error {
  override name = "SchemaConversionError";
}

/** The PostgreSQL schema text for a SQLite schema text. */
export function postgresSchemaFrom(sqliteSchema: string, pair: Pick<SchemaPair, "source" | "clientOutput">): string {
  const provider = /(datasource\s+\w+\s*\{[^}]*?provider\s*=\s*)"sqlite"/;
  if (!provider.test(sqliteSchema)) throw new SchemaConversionError(`${pair.source}: no datasource with provider "sqlite"`);
  const generator = /(generator\s+client\s*\{)([^}]*)\}/;
  const block = generator.exec(sqliteSchema);
  if (!block) throw new SchemaConversionError(`${pair.source}: no \`generator client\` block`);
  const generatorBody = block[2]!.replace(/^\s*output\s*=.*\n/m, "").replace(/\s*$/, "\n");
  const header =
    "// GENERATED from the SQLite schema beside it by `npm run db:postgres-schema`: edit that file, not this one.\n" +
    "// Only the provider and the client's output differ (docs/decisions/012-postgresql.md).\n\n";
  return header + sqliteSchema.replace(provider, '$1"postgresql"').replace(generator, `$1${generatorBody}  output     = "${pair.clientOutput}"\n}`);
}

/** Writes each PostgreSQL schema from its SQLite source; returns the files that changed. */
export function writePostgresSchemas(pairs: SchemaPair[] = Object.values(SCHEMA_PAIRS)): string[] {
  const changed: string[] = [];
  for (const pair of pairs) {
    const text = postgresSchemaFrom(readFileSync(pair.source, "utf8"), pair);
    let current: string | undefined;
    try {
      current = readFileSync(pair.target, "utf8");
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    mkdirSync(dirname(pair.target), { recursive: true });
    writeFileSync(pair.target, text);
    changed.push(pair.target);
  }
  return changed;
}
