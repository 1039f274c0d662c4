import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { migrationsIn } from "../../lib/migrations";
import { temporaryDirectory } from "./temporary-directory";

/**
 * For a test of a data migration: a copy of `folder`'s migrations without `migration` and every one after it (the
 * database as it was before it), and the names left out, in order, which migrating with `folder` then applies.
 */
export function migrationsBefore(folder: string, migration: string): { before: string; from: string[] } {
  const before = join(temporaryDirectory("migrations-before-"), "migrations");
  cpSync(folder, before, { recursive: true });
  const from = migrationsIn(folder)
    .map((entry) => entry.name)
    .filter((name) => name >= migration);
  for (const name of from) rmSync(join(before, name), { recursive: true });
  return { before, from };
}
