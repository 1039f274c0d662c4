import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

/** The local default: a SQLite file under var/ (git-ignored), relative to the project root. */
export const DEFAULT_SERVICE_DATABASE_URL = "file:./var/shipping-service.sqlite";

/**
 * Makes a SQLite `file:` URL absolute against the working directory and creates its folder, so the
 * CLI, the service and the tests agree on one file whatever module resolves it.
 */
export function resolveServiceDatabaseUrl(url: string | undefined): string {
  const value = url && url.length > 0 ? url : DEFAULT_SERVICE_DATABASE_URL;
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
