import { describe, expect, it } from "vitest";
import { createPrismaClient } from "./db-client.server";
import { insertRows, updateRowsById } from "./db-batch.server";

describe("set-based writes in statements each database binds", () => {
  it("GIVEN 5,000 rows of 40 columns WHEN inserted THEN SQLite's statements bind at most 999 values and PostgreSQL's at most 32,767", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 5_000 }, (_, index) => ({
      id: `event-${index}`,
      ...Object.fromEntries(Array.from({ length: 39 }, (_, column) => [`column${column}`, index])),
    }));
    // 24 rows of 40 values under SQLite's 999; 819 under PostgreSQL's 32,767 (through Prisma, not the protocol's 65,535).
    expect(insertRows({ db: sqlite }, "TrackingEvent", rows)).toHaveLength(Math.ceil(5_000 / 24));
    expect(insertRows({ db: postgres }, "TrackingEvent", rows)).toHaveLength(Math.ceil(5_000 / 819));
    expect(insertRows({ db: postgres }, "TrackingEvent", [])).toHaveLength(0);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });

  it("GIVEN 2,000 rows updated by CASE on id WHEN the statement's other values are counted THEN each statement stays within the database's bound, and a CASE within 500 rows", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 2_000 }, (_, index) => ({ id: `shipment-${index}`, nextTrackAt: new Date(index), lastTrackedAt: new Date(index) }));
    const update = { table: "Shipment", columns: ["nextTrackAt", "lastTrackedAt"], rows, set: { trackingError: null } } as const;
    // Each row binds its id three times and two values: 5; the statement binds trackingError and updatedAt: 2.
    expect(updateRowsById({ db: sqlite }, update)).toHaveLength(Math.ceil(2_000 / Math.floor((999 - 2) / 5)));
    expect(updateRowsById({ db: postgres }, update)).toHaveLength(4);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });
});
