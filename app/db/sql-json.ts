import type { Context } from "../context";
import { databaseOf } from "./db-client.server";

/**
 * SQL for a text value inside a column that holds JSON text, in the context's database's dialect: SQLite's
 * `json_extract`, PostgreSQL's `#>>` on the text cast to json. For reading one field of stored JSON (a shipment's
 * request) in the database, which then sends that value instead of the whole document. `column` and `path` are
 * the caller's own names, never outside input: they are written into the statement.
 */
export function jsonTextAt(ctx: Pick<Context, "db">, column: string, path: readonly string[]): string {
  return databaseOf(ctx) === "sqlite" ? `json_extract(${column}, '$.${path.join(".")}')` : `(${column}::json #>> '{${path.join(",")}}')`;
}
