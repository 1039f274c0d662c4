import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// `npm test` runs the integration tests again on PostgreSQL (scripts/env.sh, consign_postgres_tier); where no
// PostgreSQL answers, it says so in one line instead of passing silently.
const root = resolve(import.meta.dirname, "..", "..");

describe("npm test's PostgreSQL tier", () => {
  it("GIVEN no PostgreSQL at CONSIGN_TEST_POSTGRES_URL THEN the tier prints one line saying it is skipped and why, and runs nothing", () => {
    const run = spawnSync("bash", ["-c", "source scripts/env.sh && consign_postgres_tier"], {
      cwd: root,
      env: { ...process.env, CONSIGN_TEST_POSTGRES_URL: "postgresql://postgres@127.0.0.1:1/postgres" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n").filter((line) => line.trim() !== "")).toEqual([
      "== PostgreSQL tier skipped: no PostgreSQL answers at 127.0.0.1:1 (connect ECONNREFUSED 127.0.0.1:1); set CONSIGN_TEST_POSTGRES_URL to run it",
    ]);
  }, 60_000);
});
