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

/**
 * SQL for a FROM item that reads a column holding a JSON array as rows, one per element, each named `alias` with
 * the element as its `value` (read its fields with {@link jsonTextAt} on `"alias"."value"`), in the context's
 * dialect: SQLite's `json_each`, PostgreSQL's `json_array_elements` (LATERAL, so it may name the row it joins). A
 * null column has no elements. `column` and `alias` are the caller's own names, never outside input.
 */
export function jsonArrayElements(ctx: Pick<Context, "db">, column: string, alias: string): string {
  return databaseOf(ctx) === "sqlite" ? `json_each(${column}) AS "${alias}"` : `LATERAL json_array_elements(${column}::json) AS "${alias}"("value")`;
}
