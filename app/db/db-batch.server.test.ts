import { describe, expect, it } from "vitest";
import { createPrismaClient } from "./db-client.server";
import { Prisma } from "@prisma/client";
import { insertRows, updateRowsById } from "./db-batch.server";

/** The shipment's text columns but its id: real columns, as PostgreSQL's statements name each column's type. */
const SHIPMENT_TEXT_COLUMNS = Prisma.dmmf.datamodel.models
  .find((model) => model.name === "Shipment")!
  .fields.filter((field) => field.kind === "scalar" && field.type === "String" && field.name !== "id")
  .map((field) => field.name);

describe("set-based writes: one statement per chunk of rows, one bound value for its rows", () => {
  it("GIVEN 5,000 narrow rows WHEN inserted THEN five statements of a thousand rows are made on either database", async () => {
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 5_000 }, (_, index) => ({ id: `event-${index}`, shipmentId: `shipment-${index}` }));
    expect(insertRows({ db: sqlite }, "TrackingEvent", rows)).toHaveLength(5);
    expect(insertRows({ db: postgres }, "TrackingEvent", rows)).toHaveLength(5);
    expect(insertRows({ db: postgres }, "TrackingEvent", [])).toHaveLength(0);
    await Promise.all([sqlite.$disconnect(), postgres.$disconnect()]);
  });

  it("GIVEN 5,000 rows of 40 columns WHEN inserted THEN each statement carries at most 512 K characters of them, whatever the database", async () => {
    expect(SHIPMENT_TEXT_COLUMNS.length).toBeGreaterThanOrEqual(39);
    const sqlite = createPrismaClient("file:./var/never-opened.sqlite");
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    const rows = Array.from({ length: 5_000 }, (_, index) => ({
      id: `shipment-${index}`,
      ...Object.fromEntries(SHIPMENT_TEXT_COLUMNS.slice(0, 39).map((column) => [column, `${"x".repeat(30)}${index}`])),
    }));
    // As SQLite packs them: each row an array of its values, the rows of a statement in one array.
    const lengths = rows.map((row) => JSON.stringify(Object.values(row)).length + 1);
    const total = lengths.reduce((sum, length) => sum + length, 0);
    const limit = 512 * 1024;
    const statements = insertRows({ db: sqlite }, "Shipment", rows).length;
    expect(statements).toBeGreaterThanOrEqual(Math.ceil(total / limit));
    expect(statements).toBeLessThanOrEqual(Math.ceil(total / (limit - Math.max(...lengths))));
    // PostgreSQL's rows are objects with their column names: larger, so more statements still.
    expect(insertRows({ db: postgres }, "Shipment", rows).length).toBeGreaterThan(statements);
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

  it("GIVEN a column the table does not have WHEN its rows are written on PostgreSQL THEN the statement is refused as it is made, naming it", async () => {
    const postgres = createPrismaClient("postgresql://nobody@127.0.0.1:1/never-opened");
    // PostgreSQL's statement names each column's type, read from the schema: a misspelt column fails here, not at the server.
    expect(() => updateRowsById({ db: postgres }, { table: "Shipment", columns: ["trackingStatus"], rows: [{ id: "s", trackingStatus: "ACTIVE" }] })).toThrow(
      "Shipment.trackingStatus",
    );
    await postgres.$disconnect();
  });
});
