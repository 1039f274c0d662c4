import { randomUUID } from "node:crypto";

/**
 * A row id for rows the app inserts itself (set-based inserts have no Prisma default): a UUID in version 7's
 * layout, its first 48 bits the milliseconds since 1970 and the rest random. Ids made one after another sort
 * together, so a chunk of rows goes into the end of the primary key's index instead of a random page each: a
 * quote run's 850 rates a chunk inserted about a third faster on SQLite than with random UUIDs (decision 046).
 */
export function timeOrderedId(now: number = Date.now()): string {
  // randomUUID's text is xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: its version digit is replaced, its random rest kept.
  return `${timePrefix(now)}${randomUUID().slice(15)}`;
}

/** The id's time part, `tttttttt-tttt-7`, made once per millisecond (a chunk's hundreds of ids share it). */
let lastPrefix = { now: Number.NaN, text: "" };
function timePrefix(now: number): string {
  if (now !== lastPrefix.now) {
    const time = now.toString(16).padStart(12, "0");
    lastPrefix = { now, text: `${time.slice(0, 8)}-${time.slice(8, 12)}-7` };
  }
  return lastPrefix.text;
}
