/**
 * Which database a URL names, for the app's DATABASE_URL and the service's SHIPPING_SERVICE_DATABASE_URL:
 * `file:` is SQLite (the embedded default), `postgres://` or `postgresql://` is PostgreSQL
 * (docs/decisions/012-postgresql.md).
 */
export type DatabaseProvider = "sqlite" | "postgresql";

export class UnsupportedDatabaseUrlError extends Error {
  override name = "UnsupportedDatabaseUrlError";
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function databaseProviderOf(url: string): DatabaseProvider {
  if (url.startsWith("file:")) return "sqlite";
  if (isPostgresUrl(url)) return "postgresql";
  throw new UnsupportedDatabaseUrlError("must be a SQLite file: URL or a postgres:// (postgresql://) URL");
}
