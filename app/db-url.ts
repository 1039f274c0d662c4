import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

/** The embedded default: a SQLite file under var/ in the project. */
export const DEFAULT_DATABASE_URL = "file:./var/consign.sqlite";

/**
 * Makes a SQLite `file:` URL absolute (relative to the working directory, which is the project root
 * for every script) and creates its folder, so the CLI, the app and the tests agree on one file.
 */
export function resolveDatabaseUrl(url: string | undefined): string {
  const value = url && url.length > 0 ? url : DEFAULT_DATABASE_URL;
  if (!value.startsWith("file:")) return value;
  const path = value.slice("file:".length);
  const absolute = isAbsolute(path) ? path : resolve(process.cwd(), path);
  mkdirSync(dirname(absolute), { recursive: true });
  return `file:${absolute}`;
}
