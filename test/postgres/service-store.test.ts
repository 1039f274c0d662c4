import { afterAll, describe, expect, it } from "vitest";
import { openPostgresServiceStore } from "../../service/db/postgres-store";
import { freshPostgresDatabase, postgresRun } from "../support/postgres";

// PostgreSQL tier only (vitest.postgres.config.ts): the service's store waits for each answer synchronously, so an
// answer that comes after its query was given up on must not be read as the next query's.
if (!postgresRun()) throw new Error("Run with vitest.postgres.config.ts: it creates this run's PostgreSQL databases");
const store = openPostgresServiceStore(freshPostgresDatabase("service"), { queryTimeoutMs: 2_000 });
afterAll(() => store.close());

describe("the Shipping API service's PostgreSQL store", () => {
  it("GIVEN a query that outlasts the store's wait WHEN the next query runs THEN it gets its own answer, not the late one", async () => {
    expect(() => store.statement(`SELECT pg_sleep(2.6) AS slept, 'late' AS answer`).get()).toThrow(/did not answer within 2000 ms/);
    // The late answer arrives while this one waits (PostgreSQL runs the two in turn on the one connection).
    expect(store.statement(`SELECT 'own' AS answer, ? AS value`).get("seven")).toEqual({ answer: "own", value: "seven" });
    expect(store.statement(`SELECT 'next' AS answer`).all()).toEqual([{ answer: "next" }]);
  });
});
