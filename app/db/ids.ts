import { randomUUID } from "node:crypto";

/**
 * A row id for rows the app inserts itself (set-based inserts have no Prisma default): a UUID in version 7's
 * layout, its first 48 bits the milliseconds since 1970 and the rest random. Ids made one after another sort
 * together, so a chunk of rows goes into the end of the primary key's index instead of a random page each: a
 * quote run's 850 rates a chunk inserted about a third faster on SQLite than with random UUIDs (decision 046).
 */
export function timeOrderedId(now: number = Date.now()): string {
  const time = now.toString(16).padStart(12, "0");
  // randomUUID's text is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: its version digit is replaced, its random rest kept.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
