import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

/** The only Admin API version the local admin serves; the schema is the real one for that version. */
export const API_VERSION = "2026-10";

const SCHEMA_FILE = fileURLToPath(new URL("../../app/types/admin-2026-10.schema.json", import.meta.url));

let cached: GraphQLSchema | undefined;

/** The real Admin GraphQL schema (2026-10), built once from the extracted introspection JSON. */
export function adminSchema(): GraphQLSchema {
  if (!cached) {
    if (!fs.existsSync(SCHEMA_FILE)) {
      throw new Error(`Admin schema not found at ${SCHEMA_FILE}: run "node scripts/extract-admin-schema.mjs" first.`);
    }
    const json = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as { data: IntrospectionQuery };
    cached = buildClientSchema(json.data);
  }
  return cached;
}
