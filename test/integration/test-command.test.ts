import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

// `npm test` on a fresh machine (scripts/test.sh, which .ci/run also runs): the browser tests need Chromium,
// so the command makes sure of it before anything long runs.
const root = resolve(import.meta.dirname, "..", "..");

function bash(script: string, env: Record<string, string>) {
  return spawnSync("bash", ["-c", script], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
}

describe("npm test and Chromium", () => {
  it("GIVEN no Chromium where the browser tests look THEN npm test stops at once with one line saying what to install", () => {
    const run = bash("bash scripts/test.sh", { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(run.status).toBe(1);
    // Nothing else ran: no install, codegen or test suite.
    expect(run.stdout).toBe("");
    const lines = run.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toEqual([
      "consign: the browser tests need Chromium at /nonexistent/chromium: run `sudo apt-get install chromium` (or set CHROMIUM_PATH to a Chromium), then npm test again",
    ]);
  });

  it("GIVEN Chromium is installed THEN the check passes silently", () => {
    const run = bash("source scripts/env.sh && consign_chromium", {});
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
  });
});
