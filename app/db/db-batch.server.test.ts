import { describe, expect, it } from "vitest";
import { createPrismaClient } from "./db-client.server";
import { insertRows, updateRowsById } from "./db-batch.server";

describe("set-based writes: one statement per chunk of rows, one bound value for its rows", () => {
  it("GIVEN 5,000 narrow rows WHEN inserted THEN five statements of a thousand rows are made on either database", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 5_000 }, (_, index) => ({ id: `event-${index}`, column0: index }));
    expect(insertRows({ db: sqlite }, "TrackingEvent", rows)).toHaveLength(5);
    expect(insertRows({ db: postgres }, "TrackingEvent", rows)).toHaveLength(5);
    expect(insertRows({ db: postgres }, "TrackingEvent", [])).toHaveLength(0);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });

  it("GIVEN 5,000 rows of 40 columns WHEN inserted THEN each statement carries at most 512 K characters of them, whatever the database", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 5_000 }, (_, index) => ({
      id: `event-${index}`,
      ...Object.fromEntries(Array.from({ length: 39 }, (_, column) => [`column${column}`, `${"x".repeat(30)}${index}`])),
    }));
    // As SQLite packs them: each row an array of its values, the rows of a statement in one array.
    const lengths = rows.map((row) => JSON.stringify(Object.values(row)).length + 1);
    const total = lengths.reduce((sum, length) => sum + length, 0);
    const limit = 512 * 1024;
    const statements = insertRows({ db: sqlite }, "TrackingEvent", rows).length;
    expect(statements).toBeGreaterThanOrEqual(Math.ceil(total / limit));
    expect(statements).toBeLessThanOrEqual(Math.ceil(total / (limit - Math.max(...lengths))));
    // PostgreSQL's rows are objects with their column names: larger, so more statements still.
    expect(insertRows({ db: postgres }, "TrackingEvent", rows).length).toBeGreaterThan(statements);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });

  it("GIVEN 2,000 rows updated by id WHEN the statements are made THEN there are two, on either database", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 2_000 }, (_, index) => ({ id: `shipment-${index}`, nextTrackAt: new Date(index), lastTrackedAt: new Date(index) }));
    const update = { table: "TrackingSchedule", columns: ["nextTrackAt", "lastTrackedAt"], rows, set: { answerDigest: null } } as const;
    expect(updateRowsById({ db: sqlite }, update)).toHaveLength(2);
    expect(updateRowsById({ db: postgres }, update)).toHaveLength(2);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });
});
