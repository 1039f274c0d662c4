import { resolveSqliteUrl } from "../../lib/sqlite-url";

/** The embedded default: a SQLite file under var/ in the project. */
export const DEFAULT_DATABASE_URL = "file:./var/consign.sqlite";

/** DATABASE_URL (or the default) as an absolute `file:` URL, its folder created (lib/sqlite-url.ts). */
export function resolveDatabaseUrl(url: string | undefined): string {
  return resolveSqliteUrl(url, DEFAULT_DATABASE_URL);
}
