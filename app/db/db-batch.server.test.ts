import { describe, expect, it } from "vitest";
import { createPrismaClient } from "./db-client.server";
import { insertRows, updateRowsById } from "./db-batch.server";

describe("set-based writes: one statement per chunk of rows, one bound value for its rows", () => {
  it("GIVEN 5,000 rows of 40 columns WHEN inserted THEN five statements are made on either database, whatever their columns", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 5_000 }, (_, index) => ({
      id: `event-${index}`,
      ...Object.fromEntries(Array.from({ length: 39 }, (_, column) => [`column${column}`, index])),
    }));
    expect(insertRows({ db: sqlite }, "TrackingEvent", rows)).toHaveLength(5);
    expect(insertRows({ db: postgres }, "TrackingEvent", rows)).toHaveLength(5);
    expect(insertRows({ db: postgres }, "TrackingEvent", [])).toHaveLength(0);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });

  it("GIVEN 2,000 rows updated by id WHEN the statements are made THEN there are two, on either database", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 2_000 }, (_, index) => ({ id: `shipment-${index}`, nextTrackAt: new Date(index), lastTrackedAt: new Date(index) }));
    const update = { table: "Shipment", columns: ["nextTrackAt", "lastTrackedAt"], rows, set: { trackingError: null } } as const;
    expect(updateRowsById({ db: sqlite }, update)).toHaveLength(2);
    expect(updateRowsById({ db: postgres }, update)).toHaveLength(2);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });
});
