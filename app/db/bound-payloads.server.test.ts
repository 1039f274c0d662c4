import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { boundValue, payloadToken, payloadsWaiting, sqliteBindingPayloads } from "./bound-payloads.server";

describe("bound payloads (docs/decisions/049)", () => {
  it("GIVEN a payload's token WHEN a connection made to bind payloads binds it THEN the statement reads the payload, once", () => {
    const connection = sqliteBindingPayloads(new Database(":memory:"));
    const payload = JSON.stringify(Array.from({ length: 2_000 }, (_, index) => [`row-${index}`, `“${index}” \\ 李`]));
    const waiting = payloadsWaiting();
    const token = payloadToken(payload);
    expect(token).not.toContain(payload.slice(0, 10));
    expect(payloadsWaiting()).toBe(waiting + 1);

    const rows = connection
      .prepare(`SELECT json_extract("value", '$[0]') AS "id", json_extract("value", '$[1]') AS "text" FROM json_each(?)`)
      .bind([token])
      .all();
    expect(rows).toHaveLength(2_000);
    expect(rows[1_999]).toEqual({ id: "row-1999", text: "“1999” \\ 李" });
    expect(payloadsWaiting()).toBe(waiting);
    // Bound once: a second statement binding the same token is refused rather than given nothing.
    expect(() => connection.prepare("SELECT ?").bind([token])).toThrow(/bound twice/);
  });

  it("GIVEN values that are not tokens, one starting as a token would but not this process's WHEN bound THEN each goes as given", () => {
    const connection = sqliteBindingPayloads(new Database(":memory:"));
    const lookalike = "\u0000consign-bound-payload:someone-else:1";
    expect(boundValue(lookalike)).toBe(lookalike);
    expect(connection.prepare("SELECT ? AS a, ? AS b, ? AS c").bind("plain", 7, null).get()).toEqual({ a: "plain", b: 7, c: null });
  });
});

const ROOT = join(import.meta.dirname, "..", "..");
/** Where the app's database is opened: the app, its server and scripts, and the tests (the service has its own). */
const SCANNED = ["app", "server", "scripts", "lib", "test"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sources(path);
    return /\.(m?ts|tsx|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Files that make a Prisma client themselves, other than the one that makes the app's (`createPrismaClient`). */
export function clientsMadeElsewhere(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  return files.filter(({ path, text }) => path !== "app/db/db-client.server.ts" && /new PrismaClient\(/.test(text)).map(({ path }) => path);
}

describe("every client of the app's database binds payloads", () => {
  it("finds a file that makes its own Prisma client, naming it", () => {
    expect(
      clientsMadeElsewhere([
        { path: "app/db/db-client.server.ts", text: "new PrismaClient({ adapter })" },
        { path: "test/e2e/seed.ts", text: "const db = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });" },
        { path: "test/e2e/other.ts", text: "const db = createPrismaClient(url);" },
      ]),
    ).toEqual(["test/e2e/seed.ts"]);
  });

  it("makes every Prisma client of the app's database with createPrismaClient, whose driver binds the set-based writes' payloads", () => {
    const files = SCANNED.flatMap((dir) => sources(join(ROOT, dir))).map((file) => ({
      path: relative(ROOT, file).split("\\").join("/"),
      text: readFileSync(file, "utf8"),
    }));
    expect(files.length).toBeGreaterThan(300);
    expect(clientsMadeElsewhere(files.filter((file) => file.path !== "app/db/bound-payloads.server.test.ts"))).toEqual([]);
  });
});
