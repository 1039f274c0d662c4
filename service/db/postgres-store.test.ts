import { describe, expect, it } from "vitest";
import { toPostgres } from "./postgres-store";

const names = { quoted: new Set(["Quote", "Counter", "Shipment", "customerId", "batchId", "searchText"]), withId: new Set(["Quote", "Shipment"]) };

describe("the service's SQL on PostgreSQL", () => {
  it("GIVEN SQLite SQL THEN parameters are numbered and mixed-case names quoted, outside string literals only", () => {
    expect(toPostgres(`SELECT id, customerId FROM Quote WHERE batchId = ? AND status = 'customerId?' AND id > ?`, names)).toBe(
      `SELECT id, "customerId" FROM "Quote" WHERE "batchId" = $1 AND status = 'customerId?' AND id > $2`,
    );
    expect(
      toPostgres(
        `INSERT INTO Counter (name, value) VALUES ('shipment', ?) ON CONFLICT(name) DO UPDATE SET value = Counter.value + excluded.value RETURNING value`,
        names,
      ),
    ).toBe(
      `INSERT INTO "Counter" (name, value) VALUES ('shipment', $1) ON CONFLICT(name) DO UPDATE SET value = "Counter".value + excluded.value RETURNING value`,
    );
  });

  it("GIVEN the SQLite functions the service uses THEN they become PostgreSQL's", () => {
    expect(toPostgres(`SELECT id FROM Quote WHERE id IN (SELECT value FROM json_each(?))`, names)).toBe(
      `SELECT id FROM "Quote" WHERE id IN (SELECT value::integer FROM json_array_elements_text($1::json) AS elements(value))`,
    );
    expect(toPostgres(`SELECT record FROM Shipment WHERE customerId = ? AND instr(searchText, ?) > 0`, names)).toBe(
      `SELECT record FROM "Shipment" WHERE "customerId" = $1 AND strpos("searchText", $2) > 0`,
    );
  });
});
