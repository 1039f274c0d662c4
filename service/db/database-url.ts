import { resolveSqliteUrl } from "../../lib/sqlite-url";

/** The local default: a SQLite file under var/ (git-ignored), relative to the project root. */
export const DEFAULT_SERVICE_DATABASE_URL = "file:./var/shipping-service.sqlite";

/** SHIPPING_SERVICE_DATABASE_URL (or the default) as an absolute `file:` URL, its folder created. */
export function resolveServiceDatabaseUrl(url: string | undefined): string {
  return resolveSqliteUrl(url, DEFAULT_SERVICE_DATABASE_URL);
}
