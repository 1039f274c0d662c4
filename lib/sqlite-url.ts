import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

/**
 * SQLite `file:` URLs, for both databases of the repository: the app's (`app/db/db-url.ts`) and the Shipping
 * API service's (`service/db/database-url.ts`), each with its own default. Here, outside both, so the
 * service does not depend on the app.
 */

/**
 * Makes a SQLite `file:` URL absolute against the working directory (the project root for every script)
 * and creates its folder, so the Prisma CLI, the servers and the tests agree on one file whatever module
 * resolves it. `file::memory:` and other URLs pass through.
 */
export function resolveSqliteUrl(url: string | undefined, defaultUrl: string): string {
  const value = url && url.length > 0 ? url : defaultUrl;
  if (!value.startsWith("file:")) return value;
  const path = value.slice("file:".length);
  if (path === ":memory:") return value;
  const absolute = isAbsolute(path) ? path : resolve(process.cwd(), path);
  mkdirSync(dirname(absolute), { recursive: true });
  return `file:${absolute}`;
}

/** The filesystem path of a `file:` URL (better-sqlite3 takes paths, Prisma takes URLs). */
export function sqlitePathOf(url: string): string {
  if (!url.startsWith("file:")) throw new Error(`Only SQLite file: URLs are supported, got ${url}`);
  return url.slice("file:".length);
}
