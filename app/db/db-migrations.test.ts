import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../test/support/temporary-directory";
import { createPrismaClient } from "./db-client.server";
import { APP_MIGRATIONS, migrateAppDatabase } from "./db-migrations";

describe("the app's SQLite database", () => {
  it("GIVEN an empty file WHEN the app migrates it twice THEN every migration is applied once, and the app's client writes it in WAL mode syncing every commit", async () => {
    const url = `file:${join(temporaryDirectory("consign-app-migrations-"), "app.sqlite")}`;
    const all = readdirSync(APP_MIGRATIONS.sqlite, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(await migrateAppDatabase(url)).toHaveLength(all.length);
    expect(await migrateAppDatabase(url)).toEqual([]);
    const db = createPrismaClient(url);
    try {
      expect(await db.$queryRawUnsafe("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
      // FULL (2), not the NORMAL (1) better-sqlite3 gives a WAL connection: a recorded intent survives a power cut.
      expect(await db.$queryRawUnsafe("PRAGMA synchronous")).toEqual([{ synchronous: 2n }]);
    } finally {
      await db.$disconnect();
    }
  });
});
