import { randomUUID } from "node:crypto";
import pg from "pg";

/**
 * Large bound values that skip Prisma's client (docs/decisions/049). A raw statement's values travel through Prisma's
 * query compiler and interpreter before its driver adapter binds them: about 12 ns a byte for a Buffer and 25 ns a
 * character for a text, and Prisma's debug history keeps the last hundred statements' values whether or not debugging
 * is on. A set-based write (app/db/db-batch.server.ts) packs megabytes of rows into a few values, so it binds a short
 * token instead of each; the driver itself (better-sqlite3's statement, node-postgres's client), which the app's
 * Prisma client is made with (app/db/db-client.server.ts), binds the value the token stands for.
 *
 * A token is a text no outside input can be: it starts with a NUL character (which a PostgreSQL text cannot hold)
 * and this process's own random id. Each is bound once: the driver takes its value out of the registry as it binds
 * it, and a token whose statement never ran (its transaction failed first) goes when that statement is collected.
 */

const PREFIX = `\u0000consign-bound-payload:${randomUUID()}:`;
const payloads = new Map<string, string>();
const unbound = new FinalizationRegistry<string>((token) => payloads.delete(token));
let issued = 0;

/** A token to bind in `text`'s place. Give the statement it is bound in to {@link releaseWith}. */
export function payloadToken(text: string): string {
  const token = `${PREFIX}${++issued}`;
  payloads.set(token, text);
  return token;
}

/** Lets `token`'s text go with `statement` when the statement never binds it (a transaction that failed before it). */
export function releaseWith<Statement extends object>(statement: Statement, token: string): Statement {
  unbound.register(statement, token);
  return statement;
}

/** How many payloads are waiting to be bound (for tests: none should be left once their statements ran). */
export function payloadsWaiting(): number {
  return payloads.size;
}

/** The value to bind: a token's text (taken out of the registry), anything else as given. */
export function boundValue(value: unknown): unknown {
  if (typeof value !== "string" || !value.startsWith(PREFIX)) return value;
  const text = payloads.get(value);
  if (text === undefined) throw new Error("A bound payload was bound twice or never registered: each statement binds its token once.");
  payloads.delete(value);
  return text;
}

function boundValues(values: readonly unknown[]): unknown[] {
  return values.some((value) => typeof value === "string" && value.startsWith(PREFIX)) ? values.map(boundValue) : (values as unknown[]);
}

/** The part of a better-sqlite3 connection the adapter binds through: `prepare(sql).bind(values)`. */
interface SqliteConnection {
  prepare(sql: string): { bind(...values: unknown[]): unknown };
}

/**
 * Makes `connection` (the better-sqlite3 database Prisma's adapter runs every statement on) bind each token's
 * text: its `prepare` returns statements whose `bind` swaps tokens for their texts. Returns the connection.
 */
export function sqliteBindingPayloads<Connection extends SqliteConnection>(connection: Connection): Connection {
  const prepare = connection.prepare.bind(connection);
  connection.prepare = (sql: string) => {
    const statement = prepare(sql);
    const bind = statement.bind.bind(statement);
    // The adapter binds one array of values; better-sqlite3 also takes them spread.
    statement.bind = (...values: unknown[]) => bind(...values.map((value) => (Array.isArray(value) ? boundValues(value) : boundValue(value))));
    return statement;
  };
  return connection;
}

/**
 * A node-postgres client that binds each token's text: what the app's pool makes its connections with, so every
 * statement Prisma's adapter runs, in a transaction or not, goes through it.
 */
export class PayloadBindingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [first, second] = args;
    if (Array.isArray(second)) args[1] = boundValues(second);
    else if (typeof first === "object" && first !== null && Array.isArray((first as { values?: unknown }).values)) {
      // The adapter's own config object, made for this query: its values are swapped in place.
      const config = first as { values: unknown[] };
      config.values = boundValues(config.values);
    }
    return (super.query as (...given: unknown[]) => never)(...args);
  }
}
